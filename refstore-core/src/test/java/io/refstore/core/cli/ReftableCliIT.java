package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.assertSameOutput;
import static io.refstore.core.cli.CliHarness.bytes;
import static io.refstore.core.cli.CliHarness.refstore;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * The commands on a reftable repository, judged by a reftable-capable git
 * ({@link GitCli#reftable()}): what refstore prints equals what that git prints, and what
 * refstore writes that git reads back.
 */
class ReftableCliIT {

	@TempDir
	static Path temp;

	private static GitCli git;

	private static TempRepo repo;

	private static String c1;

	private static String c2;

	@BeforeAll
	static void makeRepository() {
		git = GitCli.reftable();
		repo = TempRepo.init(git, temp.resolve("reftable"), "--ref-format=reftable");
		c1 = repo.commit("one", null);
		c2 = repo.commit("two", c1);
		repo.git("update-ref", "refs/heads/main", c2);
		repo.git("update-ref", "refs/heads/topic", c1);
		repo.git("update-ref", "refs/tags/light", c1);
		repo.git("update-ref", "refs/tags/annotated", repo.tagObject("annotated", c2, "commit"));
		repo.git("update-ref", "refs/tags/nested",
				repo.tagObject("nested", repo.git("rev-parse", "refs/tags/annotated").trim(), "tag"));
		repo.git("update-ref", "refs/remotes/origin/main", c1);
		repo.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main");
		repo.git("pack-refs");
		repo.git("update-ref", "refs/heads/late", c2);
	}

	@Test
	void readsAsReftableGitDoes() {
		for (String[] args : new String[][] { { "show-ref" }, { "show-ref", "-d" }, { "show-ref", "--head", "main" },
				{ "show-ref", "--verify", "refs/tags/nested", "HEAD" }, { "for-each-ref" },
				// two differences between newer git and 2.39, the judge of this project,
				// whose behaviour refstore
				// keeps: 2.39 shortens refs/remotes/origin/HEAD to "origin/HEAD" (newer:
				// "origin"), and its
				// %(*objectname) of a tag of a tag is the inner tag (newer: peeled to the
				// commit); so no
				// %(refname:short) here and no tag of a tag with %(*...)
				{ "for-each-ref", "--format=%(refname:lstrip=2) %(symref) %(*objectname) %(*objecttype)", "refs/heads",
						"refs/remotes", "refs/tags/annotated", "refs/tags/light" },
				{ "for-each-ref", "refs/tags/*", "refs/remotes" }, { "for-each-ref", "--sort=-refname", "--count=3" },
				{ "symbolic-ref", "HEAD" }, { "symbolic-ref", "--short", "refs/remotes/origin/HEAD" } }) {
			assertSameOutput(git, repo.dir(), args);
		}
	}

	@Test
	void writesWhatReftableGitReads() {
		Path dir = CliHarness.copy(repo.dir(), temp.resolve("written"));
		GitCli.Result result = refstore(dir, bytes("start\ncreate refs/heads/fresh " + c1 + "\nupdate refs/heads/topic "
				+ c2 + " " + c1 + "\ndelete refs/tags/light\nprepare\ncommit\n"), "update-ref", "--stdin");
		assertThat(result.exitCode()).as(result.stderr()).isZero();
		assertThat(result.stdout()).isEqualTo("start: ok\nprepare: ok\ncommit: ok\n");
		assertThat(refstore(dir, "symbolic-ref", "HEAD", "refs/heads/topic").exitCode()).isZero();
		assertThat(refstore(dir, "pack-refs", "--all").exitCode()).isZero();
		assertThat(git.ok(dir, "for-each-ref", "--format=%(refname) %(objectname) %(symref)"))
			.isEqualTo(refstore(dir, "for-each-ref", "--format=%(refname) %(objectname) %(symref)").stdout())
			.contains("refs/heads/fresh " + c1, "refs/heads/topic " + c2)
			.doesNotContain("refs/tags/light");
		assertThat(git.ok(dir, "symbolic-ref", "HEAD")).isEqualTo("refs/heads/topic\n");
		assertThat(git.run(dir, "refs", "verify").exitCode()).isZero();
	}

	/**
	 * {@code reftable.*} write settings as git 2.55 takes them: 0 leaves the default, too
	 * large a block size or restart interval is refused in git's words (exit 128), a bad
	 * boolean too; the store is left as it was when refused.
	 */
	@Test
	void writeSettingsAreTakenAndRefusedAsGitDoes() {
		int n = 0;
		for (String setting : new String[] { "reftable.blockSize=0", "reftable.blockSize=16777216",
				"reftable.blockSize=16777215", "reftable.restartInterval=0", "reftable.restartInterval=65536",
				"reftable.restartInterval=65535", "reftable.indexObjects=maybe", "reftable.indexObjects=false",
				"reftable.blockSize=-1", "reftable.blockSize=abc", "reftable.blockSize=99999999999999999999",
				"reftable.blockSize=", "reftable.restartInterval=-5", "reftable.geometricFactor=-2",
				"reftable.geometricFactor=300", "reftable.geometricFactor=x", "reftable.geometricFactor=0",
				"reftable.lockTimeout=-2", "reftable.lockTimeout=-1", "reftable.lockTimeout=zz",
				"core.logAllRefUpdates=sometimes",
				// git takes any block size, and fails a write whose record does not fit
				"reftable.blockSize=30", "reftable.blockSize=100", "reftable.blockSize=200" }) {
			// given on the command line, and in the repository's config file (whose
			// name git's numeric messages give as .git/config)
			for (boolean inFile : new boolean[] { false, true }) {
				Path gits = repo.copyTo(temp.resolve("settings-git-" + n)).dir();
				Path ours = repo.copyTo(temp.resolve("settings-refstore-" + n++)).dir();
				String ref = "refs/heads/set/" + n;
				String[] command = { "-c", setting, "update-ref", ref, c1 };
				if (inFile) {
					String[] keyValue = setting.split("=", 2);
					git.ok(gits, "config", keyValue[0], keyValue[1]);
					git.ok(ours, "config", keyValue[0], keyValue[1]);
					command = new String[] { "update-ref", ref, c1 };
				}
				GitCli.Result expected = git.run(gits, new byte[0], command);
				GitCli.Result actual = refstore(ours, command);
				assertThat(actual.exitCode()).as(setting).isEqualTo(expected.exitCode());
				assertThat(actual.stderr()).as(setting).isEqualTo(expected.stderr());
				if (inFile) {
					git.ok(ours, "config", "--unset-all", setting.split("=", 2)[0]);
					git.ok(gits, "config", "--unset-all", setting.split("=", 2)[0]);
				}
				assertThat(git.ok(ours, "for-each-ref")).as(setting).isEqualTo(git.ok(gits, "for-each-ref"));
				assertThat(git.run(ours, "refs", "verify").exitCode()).as(setting).isZero();
			}
		}
	}

}
