package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.refstore;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Where git's ref tests (t1401, pack-refs-tests.sh) read git 2.55's exact words: a
 * damaged {@code packed-refs} and {@code symbolic-ref --short} of a remote's
 * {@code HEAD}, each judged by git 2.55 on the same repository.
 */
class GitWordsIT {

	@TempDir
	Path temp;

	private final GitCli git = GitCli.reftable();

	@Test
	void aDamagedPackedRefsIsReportedInGitsWords() throws IOException {
		TempRepo repo = TempRepo.init(this.git, this.temp.resolve("damaged"), "--ref-format=files");
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		repo.git("pack-refs", "--all");
		Path packed = repo.gitDir().resolve("packed-refs");
		byte[] intact = Files.readAllBytes(packed);
		for (String damage : new String[] { c1 + " refs/zzzzz", "bogus content\n", c1.substring(0, 7) + " refs/zzzzz\n",
				"x".repeat(90) + "\n" }) {
			Files.write(packed, intact);
			Files.writeString(packed, damage, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
			GitCli.Result expected = this.git.run(repo.dir(), "for-each-ref");
			GitCli.Result actual = refstore(repo.dir(), "for-each-ref");
			assertThat(actual.stderr()).as(damage).isEqualTo(expected.stderr()).startsWith("fatal: ");
			assertThat(actual.exitCode()).as(damage).isEqualTo(expected.exitCode());
		}
	}

	@Test
	void symbolicRefShortensARemotesHeadAsGit255Does() {
		TempRepo repo = TempRepo.init(this.git, this.temp.resolve("short"), "--ref-format=files");
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		for (String target : new String[] { "refs/remotes/origin/HEAD", "refs/remotes/up/stream/HEAD",
				"refs/headsXfoo" }) {
			repo.git("symbolic-ref", "TEST_SYMREF", target);
			CliHarness.assertSameOutput(this.git, repo.dir(), "symbolic-ref", "--short", "TEST_SYMREF");
		}
		repo.git("update-ref", "refs/heads/origin", c1);
		repo.git("symbolic-ref", "TEST_SYMREF", "refs/remotes/origin/HEAD");
		CliHarness.assertSameOutput(this.git, repo.dir(), "symbolic-ref", "--short", "TEST_SYMREF");
		CliHarness.assertSameOutput(this.git, repo.dir(), "for-each-ref", "--format=%(refname:short)");
	}

}
