package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.jayway.jsonpath.DocumentContext;

import io.refstore.core.testing.TempRepo;

/**
 * The lost-write scenario ({@link WritersTestSupport}) while {@code rollbackMigrationJob}
 * puts back the store a migration job kept, both ways: the writers start after the
 * migration, so every write they confirm goes into the migrated store, and must be in the
 * restored one too.
 */
class RollbackWritersIT extends WritersTestSupport {

	@ParameterizedTest(name = "back to {0}")
	@ValueSource(strings = { "files", "reftable" })
	void aRollbackLosesNoConfirmedWrite(String restored) throws Exception {
		String migrated = restored.equals("files") ? "reftable" : "files";
		String name = uniqueName("writers-rollback-" + restored);
		TempRepo repo = repoWithBranches(name, 3000, restored);
		String commit = main(repo);
		if (restored.equals("files")) {
			// packed, as a store a migration retires usually is: the rollback copies one
			// file, not 3000
			repo.git("pack-refs", "--all");
		}
		DocumentContext migration = awaitOutcome(launch("/api/jobs/migrations", """
				{"repository": "%s", "targetFormat": "%s"}""".formatted(name, migrated), "admin"), "migration.backup");
		assertThat(migration.read("$.status", String.class)).isEqualTo("COMPLETED");
		String backup = Path.of(migration.read("$.results['migration.backup']", String.class)).getFileName().toString();

		Writers writers = new Writers(name, repo, commit).start();
		DocumentContext done = writers.around(() -> awaitOutcome(launch("/api/jobs/rollbacks", """
				{"repository": "%s", "backup": "%s"}""".formatted(name, backup), "admin"), "rollback.refs"));

		assertThat(done.read("$.status", String.class)).as(done.jsonString()).isEqualTo("COMPLETED");
		assertThat(format(repo)).isEqualTo(restored);
		assertThat(Long.parseLong(done.read("$.results['rollback.kept']", String.class)))
			.as("refs written since the migration, kept")
			.isPositive();
		Map<String, String> present = writers.check();
		for (int i = 0; i < 3000; i++) {
			assertThat(present).containsEntry("refs/heads/b/" + String.format("%05d", i), commit);
		}
	}

}
