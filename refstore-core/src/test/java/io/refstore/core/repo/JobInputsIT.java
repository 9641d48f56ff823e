package io.refstore.core.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.cli.Refstore;
import io.refstore.core.delete.DeletionPlan;
import io.refstore.core.delete.Manifest;
import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.migrate.Backups;
import io.refstore.core.migrate.FormatMigrator;
import io.refstore.core.migrate.MigrationException;
import io.refstore.core.ref.RefStore;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.core.testing.TestFiles;

/**
 * The inputs of jobs (deletion plans, deletion manifests, migration backups) are read
 * from their own repository only: a symbolic link to another repository's input or to a
 * directory outside, and a copy of another repository's input, are refused by the core
 * checks and by the {@code refstore} command, and neither repository changes (judged by
 * git's {@code for-each-ref}). Repository {@code b} makes real inputs with the command (a
 * deletion with its manifest, a migration with its backup) and the core API (a plan);
 * repository {@code a} is handed them.
 */
class JobInputsIT {

	private static final Map<String, String> ENV = Map.of("GIT_CONFIG_NOSYSTEM", "1", "GIT_CONFIG_GLOBAL", "/dev/null",
			"GIT_COMMITTER_NAME", "C O Mitter", "GIT_COMMITTER_EMAIL", "committer@example.com", "GIT_COMMITTER_DATE",
			GitCli.FIXED_DATE, "TZ", "UTC");

	@TempDir
	Path tmp;

	private TempRepo a;

	private TempRepo b;

	/** B's manifest, plan and backup, relative to its git directory. */
	private Path manifest;

	private Path plan;

	private Path backup;

	private record Run(int code, String out, String err) {
	}

	@BeforeEach
	void twoRepositories() throws IOException {
		this.a = repo("a.git", "refs/heads/a/");
		this.b = repo("b.git", "refs/heads/b/");
		Run deleted = refstore(this.b, "delete-refs", "--prefix=refs/heads/b/",
				"--manifest=refstore-plans/one/manifest-000000000000-1");
		assertThat(deleted.code()).as(deleted.err()).isZero();
		this.manifest = Path.of("refstore-plans/one/manifest-000000000000-1");
		this.plan = Path.of("refstore-plans/two/plan");
		try (Repository repository = Repository.open(this.b.gitDir()); RefStore store = RefStores.open(repository)) {
			DeletionPlan.write(this.b.gitDir().resolve(this.plan), RepositoryId.of(repository), store, null,
					List.of("prefix refs/tags/"), ProtectedRefs.defaults(), 5, java.time.Instant.now());
		}
		Run migrated = refstore(this.b, "refs", "migrate", "--ref-format=reftable");
		assertThat(migrated.code()).as(migrated.err()).isZero();
		try (Stream<Path> backups = Files.list(this.b.gitDir().resolve(FormatMigrator.BACKUP_DIR))) {
			this.backup = this.b.gitDir().relativize(backups.findFirst().orElseThrow());
		}
		try (Repository repository = Repository.open(this.a.gitDir())) {
			RepositoryId.of(repository);
		}
	}

	private TempRepo repo(String name, String prefix) {
		TempRepo repo = TempRepo.init(GitCli.system(), this.tmp.resolve(name), "--bare");
		String commit = repo.commit("one", null);
		StringBuilder updates = new StringBuilder("create refs/heads/main " + commit + "\n");
		for (int i = 0; i < 5; i++) {
			updates.append("create ").append(prefix).append(i).append(' ').append(commit).append('\n');
			updates.append("create refs/tags/t").append(i).append(' ').append(commit).append('\n');
		}
		repo.run(updates.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		return repo;
	}

	private static Run refstore(TempRepo repo, String... args) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int code = Refstore.run(repo.gitDir(), ENV, new ByteArrayInputStream(new byte[0]), out, err, args);
		return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
	}

	/** Both repositories' refs as git lists them ({@code b} is reftable now). */
	private String refs() {
		return this.a.git("for-each-ref") + "--\n" + GitCli.reftable().ok(this.b.gitDir(), "for-each-ref");
	}

	private Path inA(String relative) throws IOException {
		Path path = this.a.gitDir().resolve(relative);
		Files.createDirectories(path.getParent());
		return path;
	}

	private Repository openA() throws IOException {
		return Repository.open(this.a.gitDir());
	}

	private void assertRefused(ThrowingCheck check, String parameter, String reason) {
		assertThatThrownBy(check::run).isInstanceOfSatisfying(RefusedJobInputException.class, (ex) -> {
			assertThat(ex.parameter()).isEqualTo(parameter);
			assertThat(ex.reason()).contains(reason).doesNotContain(this.tmp.toString());
		});
	}

	@FunctionalInterface
	private interface ThrowingCheck {

		void run() throws Exception;

	}

	@Test
	void manifestsAreReadFromTheirOwnRepositoryOnly() throws IOException {
		String before = refs();
		Path outside = Files.createDirectories(this.tmp.resolve("outside"));
		Files.copy(this.b.gitDir().resolve(this.manifest), outside.resolve("manifest-000000000000-1"));
		Files.createSymbolicLink(inA("refstore-plans/linked"), this.b.gitDir().resolve(this.manifest));
		Files.createSymbolicLink(inA("refstore-plans/outside"), outside);
		Path copied = inA("refstore-plans/copied/manifest-000000000000-1");
		Files.copy(this.b.gitDir().resolve(this.manifest), copied);
		try (Repository repository = openA()) {
			for (String given : List.of("linked", "outside", "outside/manifest-000000000000-1")) {
				assertRefused(
						() -> Manifest.checkInput("manifest", repository, repository.gitDir(), "refstore-plans", given),
						"manifest", "is a symbolic link");
			}
			assertRefused(
					() -> Manifest.checkInput("manifest", repository, repository.gitDir(), "refstore-plans", "copied"),
					"manifest", "written for another repository");
			assertRefused(() -> Manifest.checkInput("manifest", repository, repository.gitDir(), "refstore-plans",
					"../config"), "manifest", "inside refstore-plans/");
			assertRefused(() -> Manifest.checkInput("manifest", repository, repository.gitDir(), "refstore-plans",
					"x".repeat(300)), "manifest", "cannot be read");
		}
		for (String given : List.of("refstore-plans/linked", "refstore-plans/outside/manifest-000000000000-1")) {
			Run run = refstore(this.a, "restore-refs", "--manifest=" + given);
			assertThat(run.code()).isEqualTo(128);
			assertThat(run.err()).startsWith("fatal: manifest '" + given + "' refused: ").contains("symbolic link");
		}
		Run copy = refstore(this.a, "restore-refs", "--manifest=refstore-plans/copied/manifest-000000000000-1");
		assertThat(copy.code()).isEqualTo(128);
		assertThat(copy.err()).contains("written for another repository");
		assertThat(refs()).isEqualTo(before);
	}

	@Test
	void aMovedRepositoryKeepsItsInputs() throws IOException {
		Path moved = Files.move(this.b.gitDir(),
				Files.createDirectories(this.tmp.resolve("moved")).resolve("renamed.git"));
		try (Repository repository = Repository.open(moved)) {
			assertThat(Manifest.checkInput("manifest", repository, repository.gitDir(), "refstore-plans", "one"))
				.containsExactly(repository.gitDir().resolve(this.manifest));
			assertThat(DeletionPlan.checkInput("plan", repository, "refstore-plans", "two/plan"))
				.isEqualTo(repository.gitDir().resolve(this.plan));
			assertThat(Backups.check("backup", repository, this.backup.getFileName().toString()))
				.isEqualTo(repository.gitDir().resolve(this.backup));
		}
	}

	@Test
	void anIdentityIsNotBorrowedThroughALink() throws IOException {
		Path own = this.a.gitDir().resolve(RepositoryId.FILE);
		Files.delete(own);
		Files.createSymbolicLink(own, this.b.gitDir().resolve(RepositoryId.FILE));
		Files.copy(this.b.gitDir().resolve(this.manifest), inA("refstore-plans/copied/manifest-000000000000-1"));
		try (Repository repository = openA()) {
			assertRefused(
					() -> Manifest.checkInput("manifest", repository, repository.gitDir(), "refstore-plans", "copied"),
					"manifest", "this repository's refstore-id cannot be read");
		}
	}

	@Test
	void aManifestWrittenBeforeIdentitiesIsTakenWhereItLies() throws IOException {
		Path old = inA("refstore-plans/old/manifest-000000000000-1");
		String text = Files.readString(this.b.gitDir().resolve(this.manifest));
		// as refstore wrote it before: the repository line without the identity
		Files.writeString(old, text.replaceFirst("(?m)^(repository \\S+) \\S+$", "$1"));
		try (Repository repository = openA()) {
			assertThat(Manifest.checkInput("manifest", repository, repository.gitDir(), "refstore-plans", "old"))
				.containsExactly(old);
		}
		Run run = refstore(this.a, "restore-refs", "--manifest=refstore-plans/old/manifest-000000000000-1");
		assertThat(run.code()).as(run.err()).isZero();
		assertThat(this.a.git("for-each-ref", "--format=%(refname)", "refs/heads/b/")).hasLineCount(5);
	}

	@Test
	void plansAreReadFromTheirOwnRepositoryOnly() throws IOException {
		Files.createSymbolicLink(inA("refstore-plans/linked"), this.b.gitDir().resolve(this.plan).getParent());
		Files.copy(this.b.gitDir().resolve(this.plan), inA("refstore-plans/copied/plan"));
		try (Repository repository = openA()) {
			assertRefused(() -> DeletionPlan.checkInput("plan", repository, "refstore-plans", "linked/plan"), "plan",
					"'refstore-plans/linked' is a symbolic link");
			assertRefused(() -> DeletionPlan.checkInput("plan", repository, "refstore-plans", "copied/plan"), "plan",
					"written for another repository");
		}
		Path own = inA("refstore-plans/own/plan");
		try (Repository repository = openA(); RefStore store = RefStores.open(repository)) {
			DeletionPlan.write(own, RepositoryId.of(repository), store, null, List.of("prefix refs/tags/"),
					ProtectedRefs.defaults(), 5, java.time.Instant.now());
			assertThat(DeletionPlan.checkInput("plan", repository, "refstore-plans", "own/plan")).isEqualTo(own);
		}
	}

	@Test
	void backupsAreRolledBackToAndDroppedInTheirOwnRepositoryOnly() throws IOException {
		String before = refs();
		String name = this.backup.getFileName().toString();
		Path outside = TestFiles.copyTree(this.b.gitDir().resolve(this.backup), this.tmp.resolve("outside"), true);
		Files.createSymbolicLink(inA("refstore-backup/20200101-000000-000-files"),
				this.b.gitDir().resolve(this.backup));
		Files.createSymbolicLink(inA("refstore-backup/20200101-000000-001-files"), outside);
		TestFiles.copyTree(this.b.gitDir().resolve(this.backup), inA("refstore-backup/" + name), true);
		try (Repository repository = openA()) {
			for (String given : List.of("20200101-000000-000-files", "20200101-000000-001-files")) {
				assertRefused(() -> Backups.check("backup", repository, given), "backup", "is a symbolic link");
				assertRefused(
						() -> new FormatMigrator(repository)
							.rollback(repository.gitDir().resolve(FormatMigrator.BACKUP_DIR).resolve(given)),
						"backup", "is a symbolic link");
			}
			assertRefused(() -> Backups.check("backup", repository, name), "backup", "written for another repository");
			assertRefused(
					() -> new FormatMigrator(repository)
						.rollback(repository.gitDir().resolve(FormatMigrator.BACKUP_DIR).resolve(name)),
					"backup", "written for another repository");
			assertThatThrownBy(() -> new Backups(repository).drop(name)).isInstanceOf(MigrationException.class)
				.hasMessageContaining("written for another repository");
		}
		for (String given : List.of("20200101-000000-000-files", "20200101-000000-001-files", name)) {
			Run rollback = refstore(this.a, "refs", "rollback", "refstore-backup/" + given);
			assertThat(rollback.code()).as(rollback.err()).isEqualTo(128);
			assertThat(rollback.err()).startsWith("fatal: backup 'refstore-backup/" + given + "' refused: ");
			Run drop = refstore(this.a, "refs", "drop-backup", given);
			assertThat(drop.code()).as(drop.err()).isEqualTo(128);
			assertThat(drop.err()).startsWith("fatal: ");
		}
		assertThat(this.b.gitDir().resolve(this.backup)).isDirectory();
		assertThat(outside).isDirectory();
		assertThat(refs()).isEqualTo(before);
	}

	@Test
	void aBackupDirectoryThatIsALinkIsNeitherDroppedNorRolledBack() throws IOException {
		String before = refs();
		String name = this.backup.getFileName().toString();
		Files.createSymbolicLink(inA(FormatMigrator.BACKUP_DIR), this.b.gitDir().resolve(FormatMigrator.BACKUP_DIR));
		Run drop = refstore(this.a, "refs", "drop-backup", name);
		assertThat(drop.code()).isEqualTo(128);
		assertThat(drop.err()).contains("refstore-backup/ is a symbolic link");
		Run rollback = refstore(this.a, "refs", "rollback", "refstore-backup/" + name);
		assertThat(rollback.code()).isEqualTo(128);
		assertThat(rollback.err()).contains("'refstore-backup' is a symbolic link");
		assertThat(this.b.gitDir().resolve(this.backup)).isDirectory();
		assertThat(refs()).isEqualTo(before);
	}

}
