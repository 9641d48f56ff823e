package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.ref.RefFormat;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * A files repository with more loose refs than one file may have links on ext4 (65,000):
 * the swap takes one lock per loose ref, each a link to an owner file, and still
 * migrates, as git 2.55 reads it.
 */
class ManyLooseRefsMigrationIT {

	private static final GitCli GIT = MigrationRepos.NEWEST;

	private static final int LOOSE = 66_000;

	@TempDir
	Path dir;

	@Test
	void moreLooseRefsThanAFileHasLinksMigrate() throws Exception {
		TempRepo repo = TempRepo.init(GitCli.system(), this.dir.resolve("repo"), "--bare");
		String commit = repo.commit("one", null);
		StringBuilder loose = new StringBuilder();
		for (int i = 0; i < LOOSE; i++) {
			loose.append("create refs/heads/b/")
				.append(i % 100)
				.append('/')
				.append(i)
				.append(' ')
				.append(commit)
				.append('\n');
		}
		repo.run(loose.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		String before = GIT.ok(repo.dir(), "for-each-ref");

		MigrationReport report = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(RefFormat.REFTABLE));

		assertThat(report.swapped()).isTrue();
		assertThat(GIT.ok(repo.dir(), "rev-parse", "--show-ref-format").trim()).isEqualTo("reftable");
		assertThat(GIT.ok(repo.dir(), "for-each-ref")).isEqualTo(before);
		assertThat(GIT.run(repo.dir(), "refs", "verify").exitCode()).isZero();
	}

}
