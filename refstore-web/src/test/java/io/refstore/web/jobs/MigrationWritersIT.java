package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.jayway.jsonpath.DocumentContext;

import io.refstore.core.testing.TempRepo;

/**
 * The lost-write scenario of a migration run while everyone writes
 * ({@link WritersTestSupport}), while {@code migrateRefsJob} moves the repository between
 * formats, both ways.
 */
class MigrationWritersIT extends WritersTestSupport {

	@Test
	void filesToReftableLosesNoConfirmedWrite() throws Exception {
		migrateWhileWriting("files", "reftable");
	}

	@Test
	void reftableToFilesLosesNoConfirmedWrite() throws Exception {
		migrateWhileWriting("reftable", "files");
	}

	private void migrateWhileWriting(String from, String to) throws Exception {
		String name = uniqueName("writers-" + from);
		TempRepo repo = repoWithBranches(name, 3000, from);
		Writers writers = new Writers(name, repo, main(repo)).start();
		DocumentContext done = writers.around(() -> awaitOutcome(launch("/api/jobs/migrations", """
				{"repository": "%s", "targetFormat": "%s", "chunkSize": 500}""".formatted(name, to), "admin"),
				"migration.backup"));

		assertThat(done.read("$.status", String.class)).as(done.jsonString()).isEqualTo("COMPLETED");
		assertThat(format(repo)).isEqualTo(to);
		writers.check();
	}

}
