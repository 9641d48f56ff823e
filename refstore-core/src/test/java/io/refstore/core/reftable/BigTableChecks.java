package io.refstore.core.reftable;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.eclipse.jgit.internal.storage.io.BlockSource;
import org.eclipse.jgit.lib.Ref;

import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.reftable.format.TableLayout;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Test tool of {@link BigTablesIT}: the biggest table of a repository's stack, its
 * layout, and git's listing of the repository, with the comparisons the big tests share.
 * Works on byte arrays: a million-line failure is reported as the first line that
 * differs, never as the whole text.
 */
final class BigTableChecks {

	private final TempRepo repo;

	private final byte[] table;

	private final TableLayout layout;

	private byte[] gitListing;

	private byte[][] names;

	private String[] ids;

	private BigTableChecks(TempRepo repo, byte[] table) {
		this.repo = repo;
		this.table = table;
		this.layout = new TableLayout(table);
	}

	/** Reads the biggest table of the repository's stack. */
	static BigTableChecks of(TempRepo repo) throws IOException {
		Path stackDir = repo.gitDir().resolve("reftable");
		Path biggest = null;
		for (String name : StackViews.lines(Files.readString(stackDir.resolve("tables.list")))) {
			Path file = stackDir.resolve(name);
			if (biggest == null || Files.size(file) > Files.size(biggest)) {
				biggest = file;
			}
		}
		return new BigTableChecks(repo, Files.readAllBytes(biggest));
	}

	/** {@code git for-each-ref --format='%(objectname) %(refname)'}, run once. */
	String gitRefs() {
		return new String(gitListing(), StandardCharsets.UTF_8);
	}

	private byte[] gitListing() {
		if (this.gitListing == null) {
			this.gitListing = this.repo.run(new byte[0], "for-each-ref", "--format=%(objectname) %(refname)")
				.requireOk()
				.out();
			parseListing();
		}
		return this.gitListing;
	}

	private void parseListing() {
		List<byte[]> names = new ArrayList<>();
		List<String> ids = new ArrayList<>();
		for (String line : gitRefs().split("\n")) {
			int space = line.indexOf(' ');
			ids.add(line.substring(0, space));
			names.add(line.substring(space + 1).getBytes(StandardCharsets.UTF_8));
		}
		this.names = names.toArray(byte[][]::new);
		this.ids = ids.toArray(String[]::new);
	}

	/** git's listing equals {@code expected} byte for byte. */
	void assertListingIs(byte[] expected) {
		assertSameText("git for-each-ref of the refs written", expected, gitListing());
	}

	/**
	 * git's 100,000-ref shape: 2-3 top-level ref index blocks, each indexing ref blocks,
	 * no root above them.
	 */
	void assertTopLevelWithoutRoot() {
		List<TableLayout.Block> top = this.layout.runAt(this.layout.refIndexPosition());
		assertThat(top.size()).as("top-level index blocks").isBetween(2, 3);
		for (TableLayout.Block block : top) {
			assertThat(this.layout.blockAt(this.layout.firstIndexTarget(block)).type())
				.isEqualTo(TableLayout.REF_BLOCK);
		}
	}

	/**
	 * git's 1,000,000-ref shape: one root indexing index blocks that index ref blocks.
	 */
	void assertTwoLevelIndex() {
		List<TableLayout.Block> top = this.layout.runAt(this.layout.refIndexPosition());
		assertThat(top).as("the root").hasSize(1);
		TableLayout.Block level1 = this.layout.blockAt(this.layout.firstIndexTarget(top.get(0)));
		assertThat(level1.type()).isEqualTo(TableLayout.INDEX_BLOCK);
		assertThat(this.layout.blockAt(this.layout.firstIndexTarget(level1)).type()).isEqualTo(TableLayout.REF_BLOCK);
		int level1Blocks = this.layout.runAt(level1.offset()).size() - 1;
		assertThat(level1Blocks).as("level-1 index blocks (more than 3 get a root)").isGreaterThan(3);
		System.out.printf("%d ref blocks, %d + 1 index blocks%n", this.layout.ofType(TableLayout.REF_BLOCK).size(),
				level1Blocks);
	}

	/**
	 * refstore's iteration prints git's {@code for-each-ref} and {@code show-ref -d}
	 * bytes; exact lookups at, before and after the first key of every ref block agree
	 * with git's listing (and with {@code git show-ref --verify} for a sample); prefix
	 * seeks, some straddling block boundaries, give git's refs.
	 */
	void assertRefstoreReadsAsGit(int count) throws IOException {
		byte[] git = gitListing();
		assertThat(this.names.length).as("refs git lists").isEqualTo(count);
		try (OpenedStore opened = OpenedStore.open(this.repo.dir(), GitCli.FIXED_DATE)) {
			assertSameText("for-each-ref", git, listing(opened));
			assertSameText("show-ref -d", this.repo.run(new byte[0], "show-ref", "-d").requireOk().out(),
					StackViews.showRef(opened.store).getBytes(StandardCharsets.UTF_8));
			List<String> sample = assertBoundaryLookups(opened);
			String verified = this.repo.git(verifyArgs(sample));
			StringBuilder mine = new StringBuilder();
			for (String name : sample) {
				mine.append(opened.store.exactRef(name).map((ref) -> ((DirectRef) ref).id().name()).orElseThrow())
					.append(' ')
					.append(name)
					.append('\n');
			}
			assertThat(mine.toString()).isEqualTo(verified);
			assertPrefixSeeks(opened);
		}
	}

	private static String[] verifyArgs(List<String> names) {
		List<String> args = new ArrayList<>(List.of("show-ref", "--verify"));
		args.addAll(names);
		return args.toArray(String[]::new);
	}

	private static byte[] listing(OpenedStore opened) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 20);
		int hexLength = opened.store.hashAlgorithm().hexLength();
		byte[] hex = new byte[hexLength];
		try (RefCursor cursor = opened.store.refs(RefQuery.ALL)) {
			while (cursor.next()) {
				ObjectId.encodeHex(cursor.idBuffer(), 0, opened.store.hashAlgorithm().rawLength(), hex, 0);
				out.write(hex, 0, hexLength);
				out.write(' ');
				out.write(cursor.nameBuffer(), 0, cursor.nameLength());
				out.write('\n');
			}
		}
		return out.toByteArray();
	}

	/** Returns a sample of the existing names looked up, for git to confirm. */
	private List<String> assertBoundaryLookups(OpenedStore opened) throws IOException {
		List<String> sample = new ArrayList<>();
		List<TableLayout.Block> blocks = this.layout.ofType(TableLayout.REF_BLOCK);
		for (int b = 1; b < blocks.size(); b++) {
			byte[] first = this.layout.firstKey(blocks.get(b));
			int at = Arrays.binarySearch(this.names, first, Arrays::compareUnsigned);
			assertThat(at).as("first key of ref block %d is listed by git", b).isPositive();
			assertFound(opened, at);
			assertFound(opened, at - 1);
			String name = new String(first, StandardCharsets.UTF_8);
			assertProbe(opened, name + "x");
			assertProbe(opened, name.substring(0, name.length() - 1));
			if (b % Math.max(1, blocks.size() / 100) == 0) {
				sample.add(name);
				sample.add(new String(this.names[at - 1], StandardCharsets.UTF_8));
			}
		}
		return sample;
	}

	private void assertFound(OpenedStore opened, int at) throws IOException {
		String name = new String(this.names[at], StandardCharsets.UTF_8);
		Optional<io.refstore.core.ref.Ref> ref = opened.store.exactRef(name);
		assertThat(ref).as(name).isPresent();
		assertThat(((DirectRef) ref.get()).id().name()).as(name).isEqualTo(this.ids[at]);
	}

	/** A name that may or may not exist is found exactly when git lists it. */
	private void assertProbe(OpenedStore opened, String name) throws IOException {
		int at = Arrays.binarySearch(this.names, name.getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned);
		if (at >= 0) {
			assertFound(opened, at);
		}
		else {
			assertThat(opened.store.exactRef(name)).as(name).isEmpty();
		}
	}

	private void assertPrefixSeeks(OpenedStore opened) throws IOException {
		List<String> prefixes = new ArrayList<>(
				List.of("refs/pull/", "refs/tags/", "refs/heads/feature/b00123", "refs/pull/99", "refs/nothing/"));
		List<TableLayout.Block> blocks = this.layout.ofType(TableLayout.REF_BLOCK);
		for (int b = 1; b < blocks.size(); b += Math.max(1, blocks.size() / 20)) {
			byte[] first = this.layout.firstKey(blocks.get(b));
			prefixes.add(new String(first, 0, first.length - 2, StandardCharsets.UTF_8));
		}
		for (String prefix : prefixes) {
			List<String> mine = new ArrayList<>();
			try (RefCursor cursor = opened.store.refs(RefQuery.prefix(prefix))) {
				while (cursor.next()) {
					mine.add(cursor.name());
				}
			}
			assertThat(mine).as("prefix %s", prefix).containsExactlyElementsOf(gitNamesWithPrefix(prefix));
		}
	}

	private List<String> gitNamesWithPrefix(String prefix) {
		byte[] key = prefix.getBytes(StandardCharsets.UTF_8);
		int at = Arrays.binarySearch(this.names, key, Arrays::compareUnsigned);
		List<String> out = new ArrayList<>();
		for (int i = (at >= 0) ? at : -at - 1; i < this.names.length && startsWith(this.names[i], key); i++) {
			out.add(new String(this.names[i], StandardCharsets.UTF_8));
		}
		return out;
	}

	private static boolean startsWith(byte[] name, byte[] prefix) {
		return name.length >= prefix.length && Arrays.equals(name, 0, prefix.length, prefix, 0, prefix.length);
	}

	/**
	 * JGit 7.8's flaw, git deciding: JGit's exact lookups find exactly the refs before
	 * the first key of the block the second top-level index block starts with, and none
	 * from there on; its prefix seek for tags finds nothing; a full scan finds
	 * everything. git's listing (which refstore matches) has them all.
	 */
	void assertJGitMissesRefsAfterTheFirstTopLevelBlock() throws IOException {
		gitListing();
		List<TableLayout.Block> top = this.layout.runAt(this.layout.refIndexPosition());
		byte[] boundary = this.layout.firstKey(this.layout.blockAt(this.layout.firstIndexTarget(top.get(1))));
		int missed = 0;
		try (org.eclipse.jgit.internal.storage.reftable.ReftableReader jgit = new org.eclipse.jgit.internal.storage.reftable.ReftableReader(
				BlockSource.from(this.table))) {
			for (int i = 0; i < this.names.length; i++) {
				String name = new String(this.names[i], StandardCharsets.UTF_8);
				Ref ref = jgit.exactRef(name);
				if (Arrays.compareUnsigned(this.names[i], boundary) < 0) {
					assertThat(ref).as("JGit finds %s", name).isNotNull();
					assertThat(ref.getObjectId().name()).isEqualTo(this.ids[i]);
				}
				else {
					assertThat(ref).as("JGit misses %s", name).isNull();
					missed++;
				}
			}
			assertThat(missed).isPositive();
			try (var tags = jgit.seekRefsWithPrefix("refs/tags/")) {
				assertThat(tags.next()).as("JGit's prefix seek").isFalse();
			}
			int scanned = 0;
			try (var all = jgit.allRefs()) {
				while (all.next()) {
					scanned++;
				}
			}
			assertThat(scanned).isEqualTo(this.names.length);
		}
		assertThat(gitNamesWithPrefix("refs/tags/")).hasSize(50);
		System.out.printf("JGit missed %d of %d refs%n", missed, this.names.length);
	}

	/** Equal bytes, or a failure naming the first line that differs. */
	static void assertSameText(String what, byte[] expected, byte[] actual) {
		if (Arrays.equals(expected, actual)) {
			return;
		}
		String[] want = new String(expected, StandardCharsets.UTF_8).split("\n", -1);
		String[] got = new String(actual, StandardCharsets.UTF_8).split("\n", -1);
		for (int i = 0; i < Math.max(want.length, got.length); i++) {
			String a = (i < want.length) ? want[i] : "<end>";
			String b = (i < got.length) ? got[i] : "<end>";
			if (!a.equals(b)) {
				throw new AssertionError(what + ": line " + (i + 1) + " differs (" + want.length + " vs " + got.length
						+ " lines):\n expected: " + a + "\n actual:   " + b);
			}
		}
		throw new AssertionError(what + ": bytes differ");
	}

}
