package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.jayway.jsonpath.DocumentContext;

import io.refstore.core.testing.TempRepo;

/**
 * The lost-write scenario ({@link WritersTestSupport}) while {@code maintainRefsJob}
 * packs every loose ref of a files store or compacts a reftable stack, forced or because
 * it is due: the writers' refs survive and so does every ref that was there before.
 */
class MaintenanceWritersIT extends WritersTestSupport {

	@ParameterizedTest(name = "{0}, force {1}")
	// no reftable run without force: the writers' own automatic compaction keeps the
	// stack geometric, so by the time the job reads it nothing is due (RefJobsIT runs
	// the due compaction without writers)
	@CsvSource({ "files, true", "files, false", "reftable, true" })
	void maintenanceLosesNoConfirmedWrite(String format, boolean force) throws Exception {
		String name = uniqueName("writers-maintain-" + format + (force ? "-forced" : ""));
		TempRepo repo = repoWithBranches(name, 3000, format);
		String commit = main(repo);
		Writers writers = new Writers(name, repo, commit).start();
		DocumentContext done = writers.around(() -> awaitOutcome(launch("/api/jobs/maintenance",
				"{\"repository\": \"" + name + "\", \"force\": " + force + "}", "operator"), "maintain.after"));

		assertThat(done.read("$.status", String.class)).as(done.jsonString()).isEqualTo("COMPLETED");
		assertThat(done.read("$.results['maintain.packed']", String.class)).isEqualTo("true");
		assertThat(done.read("$.results['maintain.done']", String.class))
			.startsWith(format.equals("files") ? "packed " : "compacted ");
		assertThat(format(repo)).isEqualTo(format);
		Map<String, String> present = writers.check();
		for (int i = 0; i < 3000; i++) {
			assertThat(present).containsEntry("refs/heads/b/" + String.format("%05d", i), commit);
		}
		if (format.equals("files")) {
			assertThat(repo.gitDir().resolve("refs/heads/b/00000")).as("packed").doesNotExist();
		}
	}

}
