package io.refstore.core.reftable;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.reftable.format.LogRecord;
import io.refstore.core.reftable.format.MergedTable;
import io.refstore.core.reftable.format.RecordCursor;
import io.refstore.core.reftable.format.RefRecord;
import io.refstore.core.reftable.format.ReftableReader;
import io.refstore.core.reftable.format.ReftableWriter;
import io.refstore.core.reftable.format.TableLayout;
import io.refstore.core.reftable.format.Tables;
import io.refstore.core.reftable.format.WriteOptions;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Tables written by a real reftable git are read exactly as git reads them, and rewriting
 * their records with {@link ReftableWriter} reproduces git's bytes (log blocks compared
 * inflated).
 */
class ReftableInteropIT {

	private static GitCli git() {
		return GitCli.reftable().withEnv("GIT_COMMITTER_DATE", "@1700000000 +0530");
	}

	@Test
	void refsSymrefsTagsTombstonesAndReflogsReadAsGitReadsThem(@TempDir Path dir) throws IOException {
		TempRepo repo = TempRepo.init(git(), dir.resolve("repo"), "--ref-format=reftable");
		repo.git("commit", "-q", "--allow-empty", "-m", "one");
		repo.git("commit", "-q", "--allow-empty", "-m", "two");
		repo.git("branch", "feature", "HEAD~1");
		repo.git("tag", "v1", "HEAD~1");
		repo.git("tag", "-a", "-m", "annotated", "v2");
		String tagOfTag = repo.tagObject("v3", repo.git("rev-parse", "refs/tags/v2").trim(), "tag");
		repo.git("update-ref", "refs/custom/tag-of-tag", tagOfTag);
		repo.git("symbolic-ref", "refs/heads/alias", "refs/heads/main");
		repo.git("branch", "-m", "feature", "renamed");
		repo.git("branch", "gone");
		repo.git("branch", "-D", "-q", "gone");
		GitCli pacific = GitCli.reftable().withEnv("GIT_COMMITTER_DATE", "@1700000123 -0800");
		pacific.ok(repo.dir(), "update-ref", "-m", "moved  by\thand", "refs/heads/renamed", "HEAD");
		repo.git("commit", "-q", "--allow-empty", "-m", "three");

		assertStackReadsAsGit(repo);
		assertTablesReencodeIdentically(repo, 16);
	}

	@Test
	void recordsAtTheLimitsOfABlockReadAsGitReadsThemAndReencodeToGitsBytes(@TempDir Path dir) throws IOException {
		TempRepo repo = TempRepo.init(git(), dir.resolve("repo"), "--ref-format=reftable");
		repo.git("commit", "-q", "--allow-empty", "-m", "one");
		Path message = dir.resolve("message");
		Files.writeString(message, "m".repeat(900_000) + "\n", StandardCharsets.US_ASCII);
		repo.git("commit", "-q", "--allow-empty", "-F", message.toString());
		repo.git("update-ref", "-m", "c".repeat(2047) + " x", "refs/heads/cut", "HEAD");
		StringBuilder name = new StringBuilder("refs/heads");
		for (int i = 0; name.length() < 4000; i++) {
			name.append('/').append(String.format("%02d", i)).append("x".repeat(Math.min(248, 4000 - name.length())));
		}
		assertThat(name).hasSize(4000);
		// its log record fits a block with a short identity and message only
		git().withEnv("GIT_COMMITTER_NAME", "A")
			.withEnv("GIT_COMMITTER_EMAIL", "a@b")
			.ok(repo.dir(), "update-ref", "-m", "long one", name.toString(), "HEAD");

		assertStackReadsAsGit(repo);
		assertTablesReencodeIdentically(repo, 16);
		repo.git("pack-refs", "--all");
		assertThat(tableFiles(repo)).hasSize(1);
		assertStackReadsAsGit(repo);
		assertTablesReencodeIdentically(repo, 16);
	}

	@Test
	void gitReadsTablesWrittenByTheWriter(@TempDir Path dir) throws IOException {
		TempRepo repo = TempRepo.init(git(), dir.resolve("repo"), "--ref-format=reftable");
		repo.git("commit", "-q", "--allow-empty", "-m", "one");
		repo.git("tag", "-a", "-m", "annotated", "v1");
		repo.git("branch", "side");
		repo.git("branch", "-D", "-q", "side");
		repo.git("branch", "kept");
		String refsBefore = repo.git("show-ref", "-d", "--head");
		String logBefore = repo.git("reflog", "show", "--date=raw", "--format=%gD %H %gn %ge %gs", "HEAD");
		for (Path file : tableFiles(repo)) {
			Files.write(file, reencode(Files.readAllBytes(file), 16));
		}

		assertThat(repo.git("show-ref", "-d", "--head")).isEqualTo(refsBefore);
		assertThat(repo.git("reflog", "show", "--date=raw", "--format=%gD %H %gn %ge %gs", "HEAD"))
			.isEqualTo(logBefore);
		repo.git("branch", "after-rewrite");
		assertThat(repo.git("rev-parse", "after-rewrite")).isEqualTo(repo.git("rev-parse", "kept"));
	}

	@Test
	void manyTablesWithoutAutoCompaction(@TempDir Path dir) throws IOException {
		GitCli noCompaction = git().withEnv("GIT_TEST_REFTABLE_AUTOCOMPACTION", "false");
		TempRepo repo = TempRepo.init(noCompaction, dir.resolve("repo"), "--ref-format=reftable");
		List<String> commits = repo.commits(5, "c");
		for (int i = 0; i < 30; i++) {
			repo.git("update-ref", "refs/heads/b" + (i % 7), commits.get(i % 5));
			if (i % 4 == 3) {
				repo.git("update-ref", "-d", "refs/heads/b" + (i % 7));
			}
		}
		assertThat(tableFiles(repo)).hasSizeGreaterThan(20);

		assertStackReadsAsGit(repo);
		assertTablesReencodeIdentically(repo, 16);
	}

	@Test
	void smallBlocksGiveMultiLevelIndexesThatReadAsGitReadsThem(@TempDir Path dir) throws IOException {
		for (int blockSize : new int[] { 256, 512 }) {
			TempRepo repo = TempRepo.init(git(), dir.resolve("repo" + blockSize), "--ref-format=reftable");
			repo.git("config", "reftable.blockSize", Integer.toString(blockSize));
			repo.git("config", "reftable.restartInterval", "5");
			List<String> commits = repo.commits(50, "c");
			StringBuilder stdin = new StringBuilder();
			for (int i = 0; i < 3000; i++) {
				stdin.append("create refs/heads/topic/")
					.append(i % 10)
					.append("/branch-")
					.append(i)
					.append(' ')
					.append(commits.get(i % commits.size()))
					.append('\n');
			}
			repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
			repo.git("pack-refs");
			assertThat(tableFiles(repo)).hasSize(1);
			TableLayout layout = new TableLayout(Files.readAllBytes(tableFiles(repo).get(0)));
			assertThat(layout.refIndexPosition()).isPositive();
			assertThat(layout.objPosition()).isPositive();
			assertThat(layout.logIndexPosition()).isPositive();

			assertStackReadsAsGit(repo);
			assertTablesReencodeIdentically(repo, 5);
			assertPointsAtMatchesGit(repo, commits.subList(0, 5));
		}
	}

	@Test
	void hundredThousandRefs(@TempDir Path dir) throws IOException {
		TempRepo repo = TempRepo.init(git(), dir.resolve("repo"), "--ref-format=reftable");
		List<String> commits = repo.commits(100, "c");
		StringBuilder stdin = new StringBuilder();
		for (int i = 0; i < 100_000; i++) {
			stdin.append("create refs/heads/b")
				.append(String.format("%06d", i))
				.append(' ')
				.append(commits.get(i % commits.size()))
				.append('\n');
		}
		for (int i = 0; i < 50; i++) {
			stdin.append("create refs/tags/t")
				.append(i)
				.append(' ')
				.append(repo.tagObject("t" + i, commits.get(i), "commit"))
				.append('\n');
		}
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		repo.git("pack-refs");

		assertStackReadsAsGit(repo);
		assertTablesReencodeIdentically(repo, 16);
		assertPointsAtMatchesGit(repo, List.of(commits.get(3), commits.get(42)));
	}

	@Test
	void sha256TablesReadAndReencode(@TempDir Path dir) throws IOException {
		TempRepo repo = TempRepo.init(git(), dir.resolve("repo"), "--ref-format=reftable", "--object-format=sha256");
		repo.git("commit", "-q", "--allow-empty", "-m", "one");
		repo.git("tag", "-a", "-m", "annotated", "v1");
		repo.git("branch", "side");
		assertThat(Files.readAllBytes(tableFiles(repo).get(0))[4]).isEqualTo((byte) 2);

		assertStackReadsAsGit(repo);
		assertTablesReencodeIdentically(repo, 16);
	}

	private static List<Path> tableFiles(TempRepo repo) throws IOException {
		Path dir = repo.gitDir().resolve("reftable");
		List<Path> out = new ArrayList<>();
		for (String line : Files.readAllLines(dir.resolve("tables.list"))) {
			if (!line.isEmpty()) {
				out.add(dir.resolve(line));
			}
		}
		return out;
	}

	private static MergedTable openStack(TempRepo repo) throws IOException {
		List<ReftableReader> readers = new ArrayList<>();
		for (Path file : tableFiles(repo)) {
			readers.add(ReftableReader.open(FileBlockSource.open(file)));
		}
		return new MergedTable(readers);
	}

	private static void closeStack(MergedTable merged) throws IOException {
		for (ReftableReader reader : merged.tables()) {
			reader.close();
		}
	}

	/**
	 * for-each-ref, symbolic-ref HEAD and every reflog, as git prints them and as the
	 * stack holds them.
	 */
	private static void assertStackReadsAsGit(TempRepo repo) throws IOException {
		MergedTable merged = openStack(repo);
		try {
			HashAlgorithm hash = merged.hashAlgorithm();
			List<String> refs = new ArrayList<>();
			try (RecordCursor<RefRecord> cursor = merged.refsWithPrefix("refs/")) {
				while (cursor.next()) {
					refs.add(forEachRefLine(merged, cursor.record().copy(), hash));
				}
			}
			assertThat(refs).containsExactlyElementsOf(lines(
					repo.git("for-each-ref", "--format=%(refname)%09%(objectname)%09%(*objectname)%09%(symref)")));
			RefRecord head = merged.exactRef("HEAD");
			assertThat(new String(head.targetBuffer(), 0, head.targetLength(), StandardCharsets.UTF_8))
				.isEqualTo(repo.git("symbolic-ref", "HEAD").trim());
			Set<String> logged = new LinkedHashSet<>();
			try (RecordCursor<LogRecord> logs = merged.allLogs(false)) {
				while (logs.next()) {
					logged.add(logs.record().refName());
				}
			}
			int compared = 0;
			for (String ref : logged) {
				if (compared++ > 50) {
					break;
				}
				List<String> mine = reflogLines(merged, ref, hash);
				List<String> gits = lines(
						repo.git("reflog", "show", "--date=raw", "--format=%gD%x09%H%x09%gn%x09%ge%x09%gs", ref, "--"));
				assertThat(mine).as("reflog of %s", ref).containsExactlyElementsOf(gits);
			}
		}
		finally {
			closeStack(merged);
		}
	}

	private static String forEachRefLine(MergedTable merged, RefRecord rec, HashAlgorithm hash) throws IOException {
		String symref = "";
		RefRecord target = rec;
		for (int depth = 0; target != null && target.valueType() == RefRecord.SYMREF && depth < 5; depth++) {
			symref = (depth == 0) ? string(target.targetBuffer(), target.targetLength()) : symref;
			target = merged.exactRef(string(target.targetBuffer(), target.targetLength()));
		}
		String object = hex(target.idBuffer(), hash);
		String peeled = (target.valueType() == RefRecord.VALUE_PEELED) ? hex(target.peeledBuffer(), hash) : "";
		return rec.name() + "\t" + object + "\t" + peeled + "\t" + symref;
	}

	private static List<String> reflogLines(MergedTable merged, String ref, HashAlgorithm hash) throws IOException {
		List<String> out = new ArrayList<>();
		try (RecordCursor<LogRecord> logs = merged.logsFor(ref)) {
			while (logs.next()) {
				LogRecord log = logs.record();
				// git's reflog walk shows neither the existence marker nor entries whose
				// new value is null (the
				// deletion half of a rename); both are stored
				if (log.isExistenceMarker() || isZero(log.newIdBuffer(), hash)) {
					continue;
				}
				String message = log.message().endsWith("\n") ? log.message().substring(0, log.message().length() - 1)
						: log.message();
				String tz = new io.refstore.core.ref.PersonIdent("", "", 0, log.tzOffset()).tzText();
				out.add(ref + "@{" + log.time() + " " + tz + "}\t" + hex(log.newIdBuffer(), hash) + "\t"
						+ log.committerName() + "\t" + log.email() + "\t" + message);
			}
		}
		return out;
	}

	/** {@code for-each-ref --points-at} against the object index of the single table. */
	private static void assertPointsAtMatchesGit(TempRepo repo, List<String> commits) throws IOException {
		assertThat(tableFiles(repo)).hasSize(1);
		try (ReftableReader reader = ReftableReader.open(FileBlockSource.open(tableFiles(repo).get(0)))) {
			assertThat(reader.hasObjectIndex()).isTrue();
			for (String commit : commits) {
				List<String> mine = new ArrayList<>();
				try (RecordCursor<RefRecord> cursor = reader
					.refsFor(ObjectId.fromHex(reader.hashAlgorithm(), commit))) {
					while (cursor.next()) {
						if (cursor.record().name().startsWith("refs/")) {
							mine.add(cursor.record().name());
						}
					}
				}
				assertThat(mine).isNotEmpty()
					.containsExactlyElementsOf(
							lines(repo.git("for-each-ref", "--format=%(refname)", "--points-at=" + commit)));
			}
		}
	}

	/**
	 * Every table of the stack, rewritten from its records with git's options, equals
	 * git's bytes.
	 */
	private static void assertTablesReencodeIdentically(TempRepo repo, int restartInterval) throws IOException {
		for (Path file : tableFiles(repo)) {
			byte[] original = Files.readAllBytes(file);
			byte[] mine = reencode(original, restartInterval);
			TableLayout theirs = new TableLayout(original);
			TableLayout ours = new TableLayout(mine);
			assertThat(ours.blocks).as(file.getFileName().toString()).containsExactlyElementsOf(theirs.blocks);
			for (TableLayout.Block block : theirs.blocks) {
				if (block.type() == TableLayout.LOG_BLOCK) {
					int headerOff = (block.offset() == 0) ? theirs.headerSize : 0;
					assertThat(Tables.inflateLogBlock(mine, block.offset(), headerOff))
						.isEqualTo(Tables.inflateLogBlock(original, block.offset(), headerOff));
				}
				else {
					assertThat(Arrays.copyOfRange(mine, block.offset(), block.end()))
						.as("%s block at %x", (char) block.type(), block.offset())
						.isEqualTo(Arrays.copyOfRange(original, block.offset(), block.end()));
				}
			}
			assertThat(Arrays.copyOfRange(mine, ours.dataEnd, mine.length))
				.isEqualTo(Arrays.copyOfRange(original, theirs.dataEnd, original.length));
		}
	}

	private static byte[] reencode(byte[] table, int restartInterval) throws IOException {
		try (ReftableReader reader = Tables.open(table)) {
			WriteOptions options = new WriteOptions(reader.hashAlgorithm(), reader.blockSize(), restartInterval, true,
					true);
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			ReftableWriter writer = new ReftableWriter(out, options).setLimits(reader.minUpdateIndex(),
					reader.maxUpdateIndex());
			try (RecordCursor<RefRecord> refs = reader.allRefs()) {
				while (refs.next()) {
					writer.addRef(refs.record());
				}
			}
			try (RecordCursor<LogRecord> logs = reader.allLogs()) {
				while (logs.next()) {
					writer.addLog(logs.record());
				}
			}
			writer.finish();
			return out.toByteArray();
		}
	}

	private static boolean isZero(byte[] raw, HashAlgorithm hash) {
		for (int i = 0; i < hash.rawLength(); i++) {
			if (raw[i] != 0) {
				return false;
			}
		}
		return true;
	}

	private static List<String> lines(String text) {
		return text.isEmpty() ? List.of() : List.of(text.split("\n"));
	}

	private static String string(byte[] bytes, int length) {
		return new String(bytes, 0, length, StandardCharsets.UTF_8);
	}

	private static String hex(byte[] raw, HashAlgorithm hash) {
		return HexFormat.of().formatHex(raw, 0, hash.rawLength());
	}

}
