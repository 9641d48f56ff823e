package io.refstore.core.reftable;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.reftable.format.ReftableReader;
import io.refstore.core.reftable.format.TableLayout;
import io.refstore.core.reftable.format.Tables;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.core.testing.TestFiles;

/**
 * A stack of 20+ tables written by refstore transactions (auto-compaction off), with
 * deletions, re-creations across a directory/file change, symbolic refs, peeled tags and
 * reflogs in two time zones, read by git exactly as refstore reads it
 * ({@code for-each-ref}, {@code show-ref -d}, {@code reflog list}, {@code reflog show})
 * and passing {@code git refs verify}. Then the same stack is compacted twice, by
 * refstore and (restored) by git: both read as before, and the two compacted tables are
 * the same, byte for byte outside the zlib streams.
 */
class DeepStackIT {

	@ParameterizedTest
	@ValueSource(strings = { "sha1", "sha256" })
	void deepStackReadsAsGitReadsItBeforeAndAfterEitherCompaction(String hash, @TempDir Path dir) throws IOException {
		GitCli git = GitCli.reftable().withEnv("GIT_TEST_REFTABLE_AUTOCOMPACTION", "false");
		TempRepo repo = TempRepo.init(git, dir.resolve("repo"), "--ref-format=reftable", "--object-format=" + hash);
		repo.git("config", "reftable.autoCompaction", "false");
		List<String> commits = repo.commits(10, "c");
		String tag = repo.tagObject("v1", commits.get(0), "commit");
		String tagOfTag = repo.tagObject("v1-signed", tag, "tag");
		List<String> views;
		try (OpenedStore opened = OpenedStore.open(repo.dir(), "@1700000000 +0530")) {
			writeHistory(opened, commits, tag, tagOfTag);
			assertThat(tables(repo)).hasSizeGreaterThanOrEqualTo(20);
			views = assertGitReadsAsRefstore(repo, opened);
		}
		Path stackDir = repo.gitDir().resolve("reftable");
		TestFiles.copyTree(stackDir, dir.resolve("saved"), false);

		try (OpenedStore opened = OpenedStore.open(repo.dir(), GitCli.FIXED_DATE)) {
			opened.store.packRefs(RefStore.PackOptions.DEFAULT);
			assertThat(tables(repo)).hasSize(1);
			assertThat(assertGitReadsAsRefstore(repo, opened)).containsExactlyElementsOf(views);
		}
		byte[] compactedByRefstore = Files.readAllBytes(stackDir.resolve(tables(repo).get(0)));

		deleteTree(stackDir);
		TestFiles.copyTree(dir.resolve("saved"), stackDir, false);
		assertThat(tables(repo)).hasSizeGreaterThanOrEqualTo(20);
		repo.git("pack-refs");
		assertThat(tables(repo)).hasSize(1);
		try (OpenedStore opened = OpenedStore.open(repo.dir(), GitCli.FIXED_DATE)) {
			assertThat(assertGitReadsAsRefstore(repo, opened)).containsExactlyElementsOf(views);
		}
		assertSameTable(compactedByRefstore, Files.readAllBytes(stackDir.resolve(tables(repo).get(0))));
	}

	/** At least 20 transactions, one table each. */
	private static void writeHistory(OpenedStore opened, List<String> commits, String tag, String tagOfTag)
			throws IOException {
		opened.apply("commit (initial): one", RefUpdate.update("HEAD", opened.id(commits.get(0)), null));
		for (int i = 1; i <= 8; i++) {
			opened.apply("branch: Created from HEAD", RefUpdate.create("refs/heads/b" + i, opened.id(commits.get(i))));
		}
		opened.apply("tags", RefUpdate.create("refs/tags/v1", opened.id(tag)),
				RefUpdate.create("refs/tags/v1-signed", opened.id(tagOfTag)),
				RefUpdate.create("refs/tags/light", opened.id(commits.get(2))));
		opened.apply("link", RefUpdate.symref("refs/remotes/origin/HEAD", "refs/heads/main"));
		for (int i = 1; i <= 8; i += 2) {
			opened.apply("drop", RefUpdate.delete("refs/heads/b" + i, opened.id(commits.get(i))));
		}
		opened.apply("df: file", RefUpdate.create("refs/heads/df", opened.id(commits.get(3))));
		opened.apply("df: gone", RefUpdate.delete("refs/heads/df", null));
		opened.apply("df: directory", RefUpdate.create("refs/heads/df/child", opened.id(commits.get(4))));
		opened.apply("recreate", RefUpdate.create("refs/heads/b1", opened.id(commits.get(9))));
		for (int i = 1; i <= 3; i++) {
			opened.apply("commit: step " + i,
					RefUpdate.update("HEAD", opened.id(commits.get(i)), opened.id(commits.get(i - 1))));
		}
		try (RefTransaction transaction = opened.store.newTransaction()) {
			transaction.committer(new PersonIdent("P a c", "pacific@example.com", 1700000123, -800));
			transaction.message("reset: moving to HEAD~2");
			transaction.add(RefUpdate.update("HEAD", opened.id(commits.get(1)), opened.id(commits.get(3))));
			transaction.add(RefUpdate.update("refs/heads/b2", opened.id(commits.get(5)), null));
			assertThat(transaction.commit().committed()).isTrue();
		}
		opened.apply("gone again", RefUpdate.delete("refs/tags/light", null));
	}

	/**
	 * git's views of the repository equal the ones computed from refstore; returns git's,
	 * to compare across compactions.
	 */
	private static List<String> assertGitReadsAsRefstore(TempRepo repo, OpenedStore opened) throws IOException {
		List<String> views = new ArrayList<>();
		String forEachRef = repo.git("for-each-ref", "--format=%(refname) %(objectname) %(symref)");
		assertThat(forEachRef).isEqualTo(forEachRefOf(opened));
		views.add(forEachRef);
		String showRef = repo.git("show-ref", "-d", "--head");
		assertThat(showRef).isEqualTo(StackViews.showRef(opened.store));
		assertThat(showRef).contains("^{}");
		views.add(showRef);
		String logged = repo.git("reflog", "list");
		assertThat(StackViews.lines(logged)).containsExactlyElementsOf(opened.store.reflogNames());
		views.add(logged);
		for (String name : opened.store.reflogNames()) {
			if (name.equals("HEAD") || opened.store.exactRef(name).filter(DirectRef.class::isInstance).isPresent()
					&& name.startsWith("refs/heads/")) {
				String log = repo.git("reflog", "show", "--date=raw", StackViews.REFLOG_FORMAT, name, "--");
				assertThat(StackViews.lines(log)).as("reflog of %s", name)
					.isNotEmpty()
					.containsExactlyElementsOf(StackViews.reflog(opened.store, name));
				views.add(log);
			}
		}
		assertThat(String.join("", views)).contains("+0530", "-0800");
		GitCli.Result verify = repo.run(new byte[0], "refs", "verify", "--strict");
		assertThat(verify.exitCode()).as(verify.stderr()).isZero();
		assertThat(verify.stderr()).isEmpty();
		assertThat(opened.store.verify()).isEmpty();
		return views;
	}

	private static String forEachRefOf(OpenedStore opened) throws IOException {
		StringBuilder out = new StringBuilder();
		for (String line : StackViews.refs(opened.store)) {
			String name = line.substring(0, line.indexOf(' '));
			if (!name.startsWith("refs/")) {
				continue;
			}
			String symref = line.contains(" -> ") ? line.substring(line.indexOf(" -> ") + 4) : "";
			String id = opened.store.resolve(name).map((ref) -> ref.id().name()).orElse("");
			out.append(name).append(' ').append(id).append(' ').append(symref).append('\n');
		}
		return out.toString();
	}

	/**
	 * The single tables of both stacks: the same records, the same bytes outside the log
	 * blocks' zlib streams.
	 */
	private static void assertSameTable(byte[] ours, byte[] theirs) throws IOException {
		try (ReftableReader a = Tables.open(ours); ReftableReader b = Tables.open(theirs)) {
			assertThat(StackViews.refRecords(a.allRefs(), a.hashAlgorithm()))
				.containsExactlyElementsOf(StackViews.refRecords(b.allRefs(), b.hashAlgorithm()));
			assertThat(StackViews.logRecords(a.allLogs(), a.hashAlgorithm()))
				.containsExactlyElementsOf(StackViews.logRecords(b.allLogs(), b.hashAlgorithm()));
		}
		TableLayout ourLayout = new TableLayout(ours);
		TableLayout theirLayout = new TableLayout(theirs);
		assertThat(ourLayout.blocks).containsExactlyElementsOf(theirLayout.blocks);
		for (TableLayout.Block block : theirLayout.blocks) {
			if (block.type() == TableLayout.LOG_BLOCK) {
				int headerSize = (block.offset() == 0) ? theirLayout.headerSize : 0;
				assertThat(Tables.inflateLogBlock(ours, block.offset(), headerSize))
					.isEqualTo(Tables.inflateLogBlock(theirs, block.offset(), headerSize));
			}
			else {
				assertThat(Arrays.copyOfRange(ours, block.offset(), block.end()))
					.isEqualTo(Arrays.copyOfRange(theirs, block.offset(), block.end()));
			}
		}
		assertThat(Arrays.copyOfRange(ours, ourLayout.dataEnd, ours.length))
			.isEqualTo(Arrays.copyOfRange(theirs, theirLayout.dataEnd, theirs.length));
	}

	private static List<String> tables(TempRepo repo) throws IOException {
		return StackViews.lines(Files.readString(repo.gitDir().resolve("reftable/tables.list")));
	}

	private static void deleteTree(Path dir) throws IOException {
		try (Stream<Path> files = Files.walk(dir)) {
			for (Path path : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
				Files.delete(path);
			}
		}
	}

}
