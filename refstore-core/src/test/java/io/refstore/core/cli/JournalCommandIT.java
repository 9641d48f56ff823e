package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.refstore;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.journal.JournalBase;
import io.refstore.core.journal.JournalHook;
import io.refstore.core.repo.Repository;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.SystemCalls;
import io.refstore.core.testing.TempRepo;

/**
 * {@code refstore journal install|uninstall|log}, and the journal through a format
 * migration and its rollback with {@code refstore refs migrate} and
 * {@code refstore refs rollback}: git 2.55 writes before, between and after, and every
 * entry is kept.
 */
class JournalCommandIT {

	private static final String ZERO = "0".repeat(40);

	@TempDir
	Path dir;

	@Test
	void theJournalSurvivesAMigrationAndItsRollback() throws IOException {
		GitCli git = GitCli.reftable();
		TempRepo repo = TempRepo.init(git, this.dir.resolve("repo"), "--ref-format=files");
		String c1 = repo.commit("one", null);
		String c2 = repo.commit("two", c1);
		// a files repository: git's pack-refs would run the hook for each loose ref it
		// prunes
		assertThat(refstore(repo.dir(), "journal", "install").requireOk().stderr())
			.startsWith("hint: git's pack-refs (run by git gc")
			.contains("'refstore pack-refs'");
		Path journal;
		try (Repository repository = Repository.open(repo.dir(), git.environment())) {
			journal = JournalHook.journalFile(repository);
		}
		assertThat(journal).isEqualTo(repo.gitDir().resolve("refstore/journal").toAbsolutePath());
		Path hook = repo.gitDir().resolve("hooks/reference-transaction");
		byte[] script = Files.readAllBytes(hook);
		repo.git("update-ref", "refs/heads/one", c1);
		byte[] beforeMigration = Files.readAllBytes(journal);

		refstore(repo.dir(), "refs", "migrate", "--ref-format=reftable").requireOk();

		assertThat(repo.git("rev-parse", "--show-ref-format").strip()).isEqualTo("reftable");
		assertThat(Files.readAllBytes(journal)).isEqualTo(beforeMigration);
		assertThat(Files.readAllBytes(hook)).isEqualTo(script);
		repo.git("update-ref", "refs/heads/one", c2, c1);
		byte[] beforeRollback = Files.readAllBytes(journal);
		String backup;
		try (Stream<Path> backups = Files.list(repo.gitDir().resolve("refstore-backup"))) {
			backup = backups.findFirst().orElseThrow().getFileName().toString();
		}

		refstore(repo.dir(), "refs", "rollback", backup).requireOk();

		assertThat(repo.git("rev-parse", "--show-ref-format").strip()).isEqualTo("files");
		assertThat(Files.readAllBytes(journal)).isEqualTo(beforeRollback);
		repo.git("update-ref", "refs/heads/after", c1);
		assertThat(logged(repo)).containsExactly(ZERO + " -> " + c1 + "  refs/heads/after",
				c1 + " -> " + c2 + "  refs/heads/one", ZERO + " -> " + c1 + "  refs/heads/one");
	}

	@Test
	void installTakesTheBaseOnceListingEveryRefAsGitDoes() throws IOException {
		TempRepo repo = TempRepo.init(GitCli.reftable(), this.dir.resolve("base"), "--ref-format=reftable");
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		repo.git("update-ref", "refs/tags/v1", c1);
		repo.git("symbolic-ref", "refs/heads/alias", "refs/heads/main");
		Instant before = Instant.now();

		refstore(repo.dir(), "journal", "install").requireOk();

		Path base = repo.gitDir().resolve("refstore/journal-base");
		List<String> lines = Files.readAllLines(base);
		assertThat(lines.get(0)).startsWith("refstore-journal-base 1 ");
		assertThat(lines.subList(1, lines.size())).containsExactly("ref:refs/heads/main refs/heads/alias",
				c1 + " refs/heads/main", c1 + " refs/tags/v1");
		Optional<JournalBase> read = JournalBase.read(repo.gitDir());
		assertThat(read).isPresent();
		assertThat(read.get().time()).isBetween(before, Instant.now());
		assertThat(read.get().values(Set.of("refs/heads/main", "refs/heads/none")))
			.isEqualTo(Map.of("refs/heads/main", c1));
		// the base is the state the journal starts from: installing again keeps it
		byte[] taken = Files.readAllBytes(base);
		repo.git("update-ref", "-d", "refs/tags/v1");
		refstore(repo.dir(), "journal", "install").requireOk();
		assertThat(Files.readAllBytes(base)).isEqualTo(taken);
	}

	@Test
	void logFiltersByRefAndPatternNewestFirst() throws IOException {
		TempRepo repo = repoWithJournal();
		String c1 = repo.git("rev-parse", "one").strip();
		String c2 = repo.git("rev-parse", "two").strip();
		repo.git("update-ref", "refs/heads/one", c1);
		repo.git("update-ref", "refs/tags/v1", c1);
		repo.git("update-ref", "refs/heads/one", c2, c1);
		GitCli.system().withEnv("GL_USERNAME", "alice").ok(repo.dir(), "update-ref", "refs/heads/topic", c2);

		List<String> main = logged(repo, "--ref", "refs/heads/one");
		List<String> heads = refstore(repo.dir(), "journal", "log", "refs/heads").requireOk().stdout().lines().toList();
		List<String> tags = logged(repo, "refs/tags/*");

		assertThat(main).containsExactly(c1 + " -> " + c2 + "  refs/heads/one",
				ZERO + " -> " + c1 + "  refs/heads/one");
		assertThat(heads).hasSize(3);
		assertThat(heads.get(0)).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} UTC  " + ZERO + " -> " + c2
				+ "  refs/heads/topic  git GL_USERNAME=alice");
		assertThat(tags).containsExactly(ZERO + " -> " + c1 + "  refs/tags/v1");
	}

	/**
	 * refstore runs the repository's hook as git does, so its own writes are journaled
	 * too: the command's as {@code refstore-cli}, unless its caller names another writer.
	 */
	@Test
	void refstoresOwnWritesAreJournaledThroughTheHook() throws IOException {
		TempRepo repo = repoWithJournal();
		String c1 = repo.git("rev-parse", "one").strip();
		String c2 = repo.git("rev-parse", "two").strip();

		// the command as a process names itself the writer
		GitCli command = GitCli.refstore();
		command.run(repo.dir(), "update-ref", "refs/heads/one", c1).requireOk();
		command.run(repo.dir(), "update-ref", "refs/heads/one", c2, c1).requireOk();
		command.run(repo.dir(), "update-ref", "-d", "refs/heads/one", c2).requireOk();
		// unless its caller named another
		command.withEnv("REFSTORE_JOURNAL_WRITER_KIND", "job")
			.run(repo.dir(), "update-ref", "refs/heads/two", c2)
			.requireOk();

		assertThat(logged(repo)).containsExactly(ZERO + " -> " + c2 + "  refs/heads/two",
				c2 + " -> " + ZERO + "  refs/heads/one", c1 + " -> " + c2 + "  refs/heads/one",
				ZERO + " -> " + c1 + "  refs/heads/one");
		assertThat(refstore(repo.dir(), "journal", "log").requireOk().stdout().lines().map((line) -> {
			String rest = line.substring(line.indexOf("UTC  ") + 5);
			return rest.substring(rest.lastIndexOf("  ") + 2).strip();
		})).containsExactly("job", "refstore-cli", "refstore-cli", "refstore-cli");
	}

	@Test
	void deletedListsWhatGitDeletedAndRestoreBringsItBackAllOrNone() throws IOException {
		TempRepo repo = repoWithJournal();
		String c1 = repo.git("rev-parse", "one").strip();
		String c2 = repo.git("rev-parse", "two").strip();
		repo.git("update-ref", "refs/heads/gone", c1);
		repo.git("update-ref", "refs/heads/back", c2);
		// git reports no old value here: the last value is the creation's
		repo.git("update-ref", "-d", "refs/heads/gone");
		repo.git("update-ref", "-d", "refs/heads/back", c2);
		// created again: no longer deleted
		repo.git("update-ref", "refs/heads/back", c1);

		List<String> deleted = refstore(repo.dir(), "journal", "deleted").requireOk().stdout().lines().toList();
		assertThat(deleted).hasSize(1);
		assertThat(deleted.get(0)).endsWith(" UTC  " + c1 + "  refs/heads/gone  git");
		assertThat(refstore(repo.dir(), "journal", "deleted", "refs/tags/").requireOk().stdout()).isEmpty();

		assertThat(refstore(repo.dir(), "journal", "restore", "-n", "refs/heads/gone").requireOk().stdout())
			.isEqualTo("would restore refs/heads/gone at " + c1 + "\n");
		GitCli.Result refused = refstore(repo.dir(), "journal", "restore", "refs/heads/gone", "refs/heads/back");
		assertThat(refused.exitCode()).isEqualTo(128);
		assertThat(refused.stderr()).isEqualTo("fatal: the journal does not show 'refs/heads/back' deleted, or it "
				+ "exists now; nothing was restored\n");
		assertThat(repo.git("for-each-ref", "--format=%(refname)", "refs/heads/")).isEqualTo("refs/heads/back\n");

		assertThat(refstore(repo.dir(), "journal", "restore", "refs/heads/gone").requireOk().stdout())
			.isEqualTo("restored refs/heads/gone at " + c1 + "\n");
		assertThat(repo.git("rev-parse", "refs/heads/gone").strip()).isEqualTo(c1);
		assertThat(refstore(repo.dir(), "journal", "deleted").requireOk().stdout()).isEmpty();
	}

	@Test
	void aRefMadeBeforeTheJournalAndDeletedWithoutItsOldValueIsRestoredAtTheValueItHeld() throws IOException {
		TempRepo repo = repoWithJournal();
		String c2 = repo.git("rev-parse", "two").strip();
		// no entry of the journal set the tag's value, and git reports the deletion with
		// zeros as the old value: the hook read the value git deleted
		repo.git("update-ref", "-d", "refs/tags/two");

		List<String> deleted = refstore(repo.dir(), "journal", "deleted").requireOk().stdout().lines().toList();
		assertThat(deleted).singleElement().asString().endsWith(" UTC  " + c2 + "  refs/tags/two  git");
		assertThat(refstore(repo.dir(), "journal", "restore", "refs/tags/two").requireOk().stdout())
			.isEqualTo("restored refs/tags/two at " + c2 + "\n");
		assertThat(repo.git("rev-parse", "refs/tags/two").strip()).isEqualTo(c2);
	}

	/**
	 * refstore's writers run their transactions side by side in one process, so their
	 * hooks hand old values over through one file: a transaction that finds another's
	 * values there (a ref it deleted, here) takes only those it read itself.
	 */
	@Test
	void transactionsOfOneProcessTakeOnlyTheOldValuesTheyRead() throws IOException {
		TempRepo repo = repoWithJournal();
		String c1 = repo.git("rev-parse", "one").strip();
		String c2 = repo.git("rev-parse", "two").strip();
		// what another transaction of this process left while it still runs: it read
		// refs/heads/new holding c1 (it deletes it)
		String stat = Files.readString(Path.of("/proc/self/stat"));
		String start = stat.substring(stat.lastIndexOf(") ") + 2).split(" ")[19];
		Path handOver = JournalHook.journalFile(repo.gitDir())
			.resolveSibling("journal.old." + ProcessHandle.current().pid() + "." + start);
		Files.writeString(handOver, "+\n? refs/heads/new\n= refs/heads/new " + c1 + "\n");

		// refstore in this process creates it (git reports zeros: no old value checked)
		refstore(repo.dir(), "update-ref", "refs/heads/new", c2).requireOk();

		assertThat(logged(repo)).containsExactly(ZERO + " -> " + c2 + "  refs/heads/new");
		// the other transaction's share stays for it
		assertThat(Files.readString(handOver)).endsWith("\n-\n");
	}

	@Test
	void logWarnsOfDamagedLinesAndIgnoresATornOne() throws IOException {
		TempRepo repo = repoWithJournal();
		String c1 = repo.git("rev-parse", "one").strip();
		repo.git("update-ref", "refs/heads/one", c1);
		Path journal = repo.gitDir().resolve("refstore/journal");
		Files.writeString(journal, "garbage\n" + Files.readString(journal) + "1700000000.0000", StandardCharsets.UTF_8);

		GitCli.Result log = refstore(repo.dir(), "journal", "log").requireOk();

		assertThat(log.stdout().lines()).hasSize(1);
		assertThat(log.stderr()).isEqualTo("warning: skipped 1 damaged line of the journal\n");
	}

	@Test
	void anEmptyOrMissingJournalLogsNothingAndUsageErrorsSaySo() throws IOException {
		TempRepo repo = TempRepo.init(CliHarness.GIT, this.dir.resolve("repo"));

		GitCli.Result log = refstore(repo.dir(), "journal", "log").requireOk();
		GitCli.Result unknown = refstore(repo.dir(), "journal", "rewrite");
		GitCli.Result uninstall = refstore(repo.dir(), "journal", "uninstall").requireOk();
		GitCli.Result badName = refstore(repo.dir(), "journal", "install", "--writer-env=a b");

		assertThat(log.stdout()).isEmpty();
		assertThat(unknown.exitCode()).isEqualTo(129);
		assertThat(unknown.stderr()).startsWith("error: unknown subcommand: `rewrite'");
		assertThat(uninstall.stdout()).startsWith("the journal hook is not installed");
		assertThat(badName.exitCode()).isEqualTo(129);
		assertThat(badName.stderr()).startsWith("error: not an environment variable's name: 'a b'");
		assertThat(Files.exists(repo.gitDir().resolve("hooks/reference-transaction"))).isFalse();
	}

	/**
	 * {@code journal rewind --at} puts the refs under a prefix back as git left them at
	 * that moment (created since: deleted; deleted since: created; moved: set back),
	 * leaves the rest alone, and {@code --undo} of its plan takes them forward again;
	 * judged by git's {@code for-each-ref}. It reads the journal the application set
	 * aside too.
	 */
	@Test
	void rewindPutsAPrefixBackAsGitLeftItAndUndoTakesItForward() throws Exception {
		TempRepo repo = repoWithJournal();
		String c1 = repo.git("rev-parse", "one").strip();
		String c2 = repo.git("rev-parse", "two").strip();
		repo.git("update-ref", "refs/heads/moved", c1);
		repo.git("update-ref", "refs/heads/deleted", c1);
		repo.git("update-ref", "refs/heads/kept", c2);
		// the application ingested and set this much aside: the next entries start a new
		// journal
		JournalHook.setAside(repo.gitDir());
		repo.git("update-ref", "refs/heads/kept", c1, c2);
		Thread.sleep(50);
		Instant moment = Instant.now();
		String then = heads(repo);
		Thread.sleep(50);
		repo.git("update-ref", "refs/heads/moved", c2, c1);
		repo.git("update-ref", "-d", "refs/heads/deleted", c1);
		repo.git("update-ref", "refs/heads/created", c2);
		repo.git("update-ref", "refs/tags/later", c2);
		String now = heads(repo);

		GitCli.Result dryRun = refstore(repo.dir(), "journal", "rewind", "-n", "--at", moment.toString(), "refs/heads/")
			.requireOk();
		assertThat(dryRun.stdout().lines()).containsExactly("delete refs/heads/created " + c2,
				"create refs/heads/deleted " + c1, "move refs/heads/moved " + c2 + " -> " + c1);
		assertThat(heads(repo)).isEqualTo(now);

		GitCli.Result rewound = refstore(repo.dir(), "journal", "rewind", "--at", moment.toString(), "refs/heads/")
			.requireOk();

		assertThat(heads(repo)).isEqualTo(then);
		assertThat(repo.git("rev-parse", "refs/tags/later").strip()).isEqualTo(c2);
		List<String> said = rewound.stdout().lines().toList();
		assertThat(said.get(said.size() - 2)).isEqualTo("rewound 3 refs to " + moment);
		String undo = said.get(said.size() - 1);
		assertThat(undo).matches("undo with: refstore journal rewind --undo rewind-\\d{8}T\\d{6}Z-[0-9a-f]{4}\\.plan");
		assertThat(refstore(repo.dir(), "journal", "rewind", "--at", moment.toString(), "refs/heads/").requireOk()
			.stderr()).startsWith("nothing to rewind: the refs under 'refs/heads/' the journal can tell about hold");

		refstore(repo.dir(), "journal", "rewind", "--undo", undo.substring(undo.lastIndexOf(' ') + 1)).requireOk();

		assertThat(heads(repo)).isEqualTo(now);
	}

	/**
	 * What a restore and a rewind report done must survive a power cut whatever
	 * {@code core.fsync} says (unset here, git's default, which forces nothing), as
	 * {@code restore-refs}' does: each forces its transactions, as the file syncs counted
	 * in its {@code GIT_TRACE2_EVENT} show. Before, they forced nothing but the plans:
	 * cut with a fault-injecting file system after {@code rewind} had printed "rewound
	 * 3000 refs", git found all 3,000 refs at their values before it.
	 */
	@Test
	void restoreAndRewindForceWhatTheyReportWhateverCoreFsyncSays() throws Exception {
		TempRepo repo = repoWithJournal();
		String c1 = repo.git("rev-parse", "one").strip();
		String c2 = repo.git("rev-parse", "two").strip();
		repo.git("update-ref", "refs/heads/gone", c1);
		repo.git("update-ref", "refs/heads/moved", c1);
		Thread.sleep(50);
		Instant moment = Instant.now();
		String then = heads(repo);
		Thread.sleep(50);
		repo.git("update-ref", "-d", "refs/heads/gone", c1);
		repo.git("update-ref", "refs/heads/moved", c2, c1);
		String now = heads(repo);

		Traced restore = traced(repo, "restore", "journal", "restore", "refs/heads/gone");
		assertThat(restore.out()).isEqualTo("restored refs/heads/gone at " + c1 + "\n");
		assertThat(restore.flushes()).isGreaterThanOrEqualTo(1);
		repo.git("update-ref", "-d", "refs/heads/gone", c1);

		Traced rewind = traced(repo, "rewind", "journal", "rewind", "--at", moment.toString(), "refs/heads/");
		assertThat(heads(repo)).isEqualTo(then);
		// the plan and its undo plan, then the chunk
		assertThat(rewind.flushes()).isGreaterThanOrEqualTo(3);
		String undo = rewind.out().lines().reduce((first, second) -> second).orElseThrow();
		Traced undone = traced(repo, "undo", "journal", "rewind", "--undo", undo.substring(undo.lastIndexOf(' ') + 1));
		assertThat(heads(repo)).isEqualTo(now);
		assertThat(undone.flushes()).isGreaterThanOrEqualTo(1);
	}

	@Test
	void aRewindForcesTheNameOfItsLockOwnerBeforeItsFirstLockWhateverCoreFsyncSays() throws Exception {
		TempRepo repo = repoWithJournal();
		String c1 = repo.git("rev-parse", "one").strip();
		String c2 = repo.git("rev-parse", "two").strip();
		repo.git("update-ref", "refs/heads/moved", c1);
		repo.git("pack-refs", "--all");
		Thread.sleep(50);
		Instant moment = Instant.now();
		Thread.sleep(50);
		repo.git("update-ref", "refs/heads/moved", c2, c1);
		Path owners = repo.gitDir().toRealPath().resolve("refstore-owners");
		List<String> calls = SystemCalls.traced(this.dir, "fdatasync,link,linkat",
				() -> refstore(repo.dir(), "journal", "rewind", "--at", moment.toString(), "refs/heads/").requireOk());
		assertThat(repo.git("rev-parse", "refs/heads/moved").strip()).isEqualTo(c1);
		int firstLock = -1;
		for (int i = 0; i < calls.size() && firstLock < 0; i++) {
			if (calls.get(i).matches(".*\\blink(at)?\\(.*refstore-owners/.*\\.lock\".*= 0$")) {
				firstLock = i;
			}
		}
		assertThat(firstLock).as("a lock linked to the rewind's owner record in %s", calls).isNotNegative();
		// without it a power cut could leave a durable lock linked to no record known,
		// which the rerun refuses to clear (a fault-injecting file system, issue 39)
		assertThat(calls.subList(0, firstLock))
			.as("the directory of the owner record forced before the first lock in %s", calls)
			.anyMatch((call) -> call.matches(".*\\b(fsync|fdatasync)\\(\\d+<"
					+ java.util.regex.Pattern.quote(owners.toString()) + ">\\) += 0$"));
	}

	/** What a traced run printed, and how many files it forced to the disk. */
	private record Traced(String out, long flushes) {

	}

	/**
	 * Runs refstore with {@code GIT_TRACE2_EVENT}, requires exit 0, and counts the
	 * {@code fsync/hardware-flush} the trace reports.
	 */
	private Traced traced(TempRepo repo, String name, String... args) throws IOException {
		Path trace = this.dir.resolve(name + ".trace");
		Map<String, String> env = new HashMap<>(CliHarness.ENV);
		env.put("GIT_TRACE2_EVENT", trace.toString());
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int code = Refstore.run(repo.dir(), env, new ByteArrayInputStream(new byte[0]), out, err, args);
		assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
		String counter = "\"category\":\"fsync\",\"name\":\"hardware-flush\",\"count\":";
		long flushes = 0;
		for (String line : Files.exists(trace) ? Files.readAllLines(trace) : List.<String>of()) {
			int at = line.indexOf(counter);
			if (at >= 0) {
				flushes += Long.parseLong(line.substring(at + counter.length(), line.length() - 1));
			}
		}
		return new Traced(out.toString(StandardCharsets.UTF_8), flushes);
	}

	@Test
	void rewindRefusesAMomentToComeOrNoneAndAPlanThatIsNotOne() throws IOException {
		TempRepo repo = repoWithJournal();
		Files.createDirectories(repo.gitDir().resolve("refstore-plans"));
		Files.createSymbolicLink(repo.gitDir().resolve("refstore-plans/rewind-20260101T000000Z-abcd.undo.plan"),
				Path.of("/etc/passwd"));

		GitCli.Result future = refstore(repo.dir(), "journal", "rewind", "--at", "2999-01-01T00:00:00Z");
		GitCli.Result garbled = refstore(repo.dir(), "journal", "rewind", "--at", "yesterday");
		GitCli.Result none = refstore(repo.dir(), "journal", "rewind", "refs/heads/");
		GitCli.Result notAPlan = refstore(repo.dir(), "journal", "rewind", "--undo", "../../config");
		GitCli.Result link = refstore(repo.dir(), "journal", "rewind", "--undo", "rewind-20260101T000000Z-abcd.plan");

		assertThat(future.exitCode()).isEqualTo(129);
		assertThat(future.stderr()).startsWith("error: --at '2999-01-01T00:00:00Z' is still to come\n");
		assertThat(garbled.exitCode()).isEqualTo(129);
		assertThat(garbled.stderr()).startsWith("error: --at 'yesterday' is not a moment");
		assertThat(none.exitCode()).isEqualTo(129);
		assertThat(none.stderr()).startsWith("error: name the moment to rewind to with --at\n");
		assertThat(notAPlan.exitCode()).isEqualTo(129);
		assertThat(notAPlan.stderr()).startsWith("error: '../../config' is not the name of a rewind's plan");
		assertThat(link.exitCode()).isEqualTo(128);
		assertThat(link.stderr()).startsWith("fatal: ").doesNotContain("Exception");
		assertThat(repo.git("for-each-ref", "--format=%(refname)")).isEqualTo("refs/tags/one\nrefs/tags/two\n");
	}

	private static String heads(TempRepo repo) {
		return repo.git("for-each-ref", "--format=%(objectname) %(refname)", "refs/heads/");
	}

	/**
	 * A repository (git 2.39, files) with commits tagged {@code one} and {@code two}, and
	 * the journal hook.
	 */
	private TempRepo repoWithJournal() {
		TempRepo repo = TempRepo.init(CliHarness.GIT, this.dir.resolve("repo"));
		String c1 = repo.commit("one", null);
		repo.git("tag", "one", c1);
		repo.git("tag", "two", repo.commit("two", c1));
		refstore(repo.dir(), "journal", "install").requireOk();
		return repo;
	}

	/** {@code refstore journal log <args>}, each line as {@link #change}. */
	private static List<String> logged(TempRepo repo, String... args) {
		String[] all = new String[args.length + 2];
		all[0] = "journal";
		all[1] = "log";
		System.arraycopy(args, 0, all, 2, args.length);
		return refstore(repo.dir(), all).requireOk().stdout().lines().map(JournalCommandIT::change).toList();
	}

	/** A log line without its time: {@code <old> -> <new>  <ref>}. */
	private static String change(String line) {
		String rest = line.substring(line.indexOf("UTC  ") + 5);
		int writer = rest.lastIndexOf("  ");
		return rest.substring(0, writer);
	}

}
