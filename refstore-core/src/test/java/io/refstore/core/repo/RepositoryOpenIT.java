package io.refstore.core.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.ReflogPolicy;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@link Repository#open} finds the same git directory, common directory, working tree
 * and bareness as {@code git -C <start> rev-parse} (git 2.39) for every shape a
 * repository comes in.
 */
class RepositoryOpenIT {

	static final Map<String, String> ENV = Map.of("GIT_CONFIG_NOSYSTEM", "1", "GIT_CONFIG_GLOBAL", "/dev/null", "TZ",
			"UTC");

	private final GitCli git = GitCli.system();

	@TempDir
	Path tmp;

	@Test
	void opensWorkingTreeFromItsTopAndFromADeepSubdirectory() throws IOException {
		TempRepo repo = TempRepo.init(this.git, this.tmp.resolve("work"));
		Path deep = Files.createDirectories(repo.dir().resolve("a/b/c"));
		for (Path start : List.of(repo.dir(), deep)) {
			try (Repository opened = Repository.open(start, ENV)) {
				assertSameAsGit(opened, start);
				assertThat(opened.workTree()).contains(repo.dir().toRealPath());
				assertThat(opened.gitDir()).isEqualTo(repo.gitDir().toRealPath());
				assertThat(opened.commonDir()).isEqualTo(opened.gitDir());
				assertThat(opened.isBare()).isFalse();
				assertThat(opened.hashAlgorithm()).isEqualTo(HashAlgorithm.SHA1);
				assertThat(opened.refFormat()).isEqualTo(RefFormat.FILES);
				assertThat(opened.formatVersion()).isZero();
			}
		}
	}

	@Test
	void opensTheDotGitDirectoryAndDirectoriesInsideIt() throws IOException {
		TempRepo repo = TempRepo.init(this.git, this.tmp.resolve("work"));
		for (Path start : List.of(repo.gitDir(), repo.gitDir().resolve("refs/heads"))) {
			try (Repository opened = Repository.open(start, ENV)) {
				assertSameAsGit(opened, start);
				assertThat(opened.isBare()).isFalse();
				// git has no working tree while inside .git; the repository still has
				// one, beside .git
				assertThat(opened.workTree()).contains(repo.dir().toRealPath());
			}
		}
	}

	@Test
	void opensABareRepositoryAndDirectoriesInsideIt() throws IOException {
		TempRepo repo = TempRepo.init(this.git, this.tmp.resolve("bare.git"), "--bare");
		for (Path start : List.of(repo.dir(), repo.dir().resolve("refs/tags"))) {
			try (Repository opened = Repository.open(start, ENV)) {
				assertSameAsGit(opened, start);
				assertThat(opened.isBare()).isTrue();
				assertThat(opened.workTree()).isEmpty();
				assertThat(opened.gitDir()).isEqualTo(repo.dir().toRealPath());
			}
		}
	}

	@Test
	void followsADotGitFileToASeparateGitDirectory() throws IOException {
		Path work = this.tmp.resolve("work");
		Path separate = this.tmp.resolve("elsewhere/store.git");
		Files.createDirectories(work);
		Files.createDirectories(separate.getParent());
		this.git.ok(this.tmp, "init", "-q", "--separate-git-dir=" + separate, work.toString());
		assertThat(Files.readString(work.resolve(".git"))).startsWith("gitdir: ");
		Path sub = Files.createDirectories(work.resolve("src"));
		try (Repository opened = Repository.open(sub, ENV)) {
			assertSameAsGit(opened, sub);
			assertThat(opened.gitDir()).isEqualTo(separate.toRealPath());
			assertThat(opened.workTree()).contains(work.toRealPath());
		}
	}

	@Test
	void followsARelativeDotGitFile() throws IOException {
		TempRepo repo = TempRepo.init(this.git, this.tmp.resolve("store"), "--bare");
		Path work = Files.createDirectories(this.tmp.resolve("work"));
		Files.writeString(work.resolve(".git"), "gitdir: ../store\n");
		try (Repository opened = Repository.open(work, ENV)) {
			assertThat(opened.gitDir()).isEqualTo(repo.dir().toRealPath());
			assertThat(this.git.ok(work, "rev-parse", "--absolute-git-dir").trim())
				.isEqualTo(opened.gitDir().toString());
		}
	}

	@Test
	void opensALinkedWorktreeThroughCommondir() throws IOException {
		TempRepo main = TempRepo.init(this.git, this.tmp.resolve("main"));
		String commit = main.commit("first", null);
		main.git("update-ref", "refs/heads/main", commit);
		Path linked = this.tmp.resolve("linked");
		main.git("worktree", "add", "-q", "--detach", linked.toString(), commit);
		Path linkedGitDir = main.gitDir().resolve("worktrees/linked");
		assertThat(linkedGitDir.resolve("commondir")).exists();
		try (Repository opened = Repository.open(linked, ENV)) {
			assertSameAsGit(opened, linked);
			assertThat(opened.gitDir()).isEqualTo(linkedGitDir.toRealPath());
			assertThat(opened.commonDir()).isEqualTo(main.gitDir().toRealPath());
			assertThat(opened.workTree()).contains(linked.toRealPath());
			assertThat(opened.isBare()).isFalse();
		}
		try (Repository opened = Repository.open(linkedGitDir, ENV)) {
			assertThat(opened.gitDir()).isEqualTo(linkedGitDir.toRealPath());
			assertThat(opened.commonDir()).isEqualTo(main.gitDir().toRealPath());
			assertThat(opened.workTree()).contains(linked.toRealPath());
		}
	}

	@Test
	void linkedWorktreeOfABareRepositoryIsNotBare() throws IOException {
		TempRepo bare = TempRepo.init(this.git, this.tmp.resolve("main.git"), "--bare");
		bare.git("update-ref", "refs/heads/main", bare.commit("first", null));
		Path linked = this.tmp.resolve("linked");
		bare.git("worktree", "add", "-q", linked.toString(), "main");
		try (Repository opened = Repository.open(linked, ENV)) {
			assertSameAsGit(opened, linked);
			assertThat(opened.isBare()).isFalse();
			assertThat(opened.workTree()).contains(linked.toRealPath());
			assertThat(opened.commonDir()).isEqualTo(bare.dir().toRealPath());
			assertThat(opened.reflogPolicy()).isEqualTo(ReflogPolicy.NORMAL);
		}
		try (Repository opened = Repository.open(bare.dir(), ENV)) {
			assertThat(opened.isBare()).isTrue();
			assertThat(opened.reflogPolicy()).isEqualTo(ReflogPolicy.EXISTING_ONLY);
		}
	}

	@Test
	void directoryOutsideAnyRepositoryIsRefusedNamingIt() throws IOException {
		Path lonely = Files.createDirectories(this.tmp.resolve("lonely/sub"));
		GitCli.Result gitSays = this.git.run(lonely, "rev-parse", "--git-dir");
		assertThat(gitSays.exitCode()).as("precondition: no repository above %s", lonely).isEqualTo(128);
		assertThat(gitSays.stderr()).contains("not a git repository");
		Path real = lonely.toRealPath();
		assertThatThrownBy(() -> Repository.open(lonely, ENV))
			.isInstanceOfSatisfying(NotARepositoryException.class, (ex) -> assertThat(ex.path()).isEqualTo(real))
			.hasMessageContaining("not a git repository")
			.hasMessageContaining(real.toString());
	}

	@Test
	void missingStartIsRefusedNamingIt() {
		Path missing = this.tmp.resolve("does/not/exist");
		assertThatThrownBy(() -> Repository.open(missing, ENV)).isInstanceOf(NotARepositoryException.class)
			.hasMessageContaining(missing.toString());
	}

	@Test
	void dotGitFileToNowhereIsRefusedLikeGit() throws IOException {
		Path work = Files.createDirectories(this.tmp.resolve("work"));
		Files.writeString(work.resolve(".git"), "gitdir: ../gone\n");
		assertThat(this.git.run(work, "rev-parse", "--git-dir").stderr()).contains("not a git repository");
		assertThatThrownBy(() -> Repository.open(work, ENV)).isInstanceOf(NotARepositoryException.class)
			.hasMessageContaining(this.tmp.toRealPath().resolve("gone").toString())
			.hasMessageContaining("named by " + work.toRealPath().resolve(".git"));
	}

	@Test
	void malformedDotGitFileIsRefusedNamingIt() throws IOException {
		Path work = Files.createDirectories(this.tmp.resolve("work"));
		Files.writeString(work.resolve(".git"), "this is not a gitfile\n");
		assertThat(this.git.run(work, "rev-parse", "--git-dir").stderr()).contains("invalid gitfile format");
		assertThatThrownBy(() -> Repository.open(work, ENV)).isInstanceOf(NotARepositoryException.class)
			.hasMessageContaining("invalid gitfile format")
			.hasMessageContaining(work.toRealPath().resolve(".git").toString());
	}

	@Test
	void objectDatabaseIsOpenedOnceAndClosedWithTheRepository() throws IOException {
		TempRepo repo = TempRepo.init(this.git, this.tmp.resolve("work"), "--object-format=sha256");
		String commit = repo.commit("c", null);
		Repository opened = Repository.open(repo.dir(), ENV);
		ObjectDatabase db = opened.objectDatabase();
		assertThat(opened.objectDatabase()).isSameAs(db);
		assertThat(db.exists(ObjectId.fromHex(HashAlgorithm.SHA256, commit))).isTrue();
		opened.close();
		opened.close();
		assertThatThrownBy(opened::objectDatabase).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("closed");
	}

	/** Compares with {@code git rev-parse} run in {@code start}. */
	private void assertSameAsGit(Repository opened, Path start) {
		String[] lines = this.git
			.ok(start, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--is-bare-repository")
			.split("\n");
		assertThat(opened.gitDir()).isEqualTo(Path.of(lines[0]));
		assertThat(opened.commonDir()).isEqualTo(Path.of(lines[1]));
		assertThat(opened.isBare()).isEqualTo(Boolean.parseBoolean(lines[2]));
		GitCli.Result top = this.git.run(start, "rev-parse", "--show-toplevel");
		if (top.exitCode() == 0) {
			assertThat(opened.workTree()).isEqualTo(Optional.of(Path.of(top.stdout().trim())));
		}
	}

}
