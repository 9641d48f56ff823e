package io.refstore.core.reftable.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import io.refstore.core.ref.HashAlgorithm;

class ReftableReaderTest {

	@ParameterizedTest
	@ValueSource(ints = { 256, 512, 4096 })
	void roundTripsThousandsOfRandomRefsOfAllFourTypes(int blockSize) throws IOException {
		for (HashAlgorithm hash : HashAlgorithm.values()) {
			List<RefRecord> refs = RandomRefs.generate(blockSize, 3000, 10, 20, hash);
			byte[] table = Tables.write(WriteOptions.defaults().withHash(hash).withBlockSize(blockSize), 10, 20, refs,
					List.of());
			try (ReftableReader reader = Tables.open(table)) {
				assertThat(RandomRefs.describe(Tables.refs(reader)))
					.containsExactlyElementsOf(RandomRefs.describe(refs));
				assertThat(refs).extracting(RefRecord::valueType).contains(0, 1, 2, 3);
			}
		}
	}

	static List<Arguments> restartIntervalsAndBlockSizes() {
		List<Arguments> out = new ArrayList<>();
		for (int blockSize : new int[] { 256, 512, 4096 }) {
			for (int interval = 1; interval <= 17; interval++) {
				out.add(Arguments.of(interval, blockSize));
			}
		}
		return out;
	}

	@ParameterizedTest
	@MethodSource("restartIntervalsAndBlockSizes")
	void seekFindsEveryKeyAndLandsRightBeforeAndAfterIt(int restartInterval, int blockSize) throws IOException {
		List<RefRecord> refs = RandomRefs.generate(restartInterval * 31L + blockSize, 400, 1, 1, HashAlgorithm.SHA1);
		byte[] table = Tables.write(
				WriteOptions.defaults().withBlockSize(blockSize).withRestartInterval(restartInterval), 1, 1, refs,
				List.of());
		List<byte[]> keys = refs.stream().map(r -> r.name().getBytes(StandardCharsets.UTF_8)).toList();
		try (ReftableReader reader = Tables.open(table)) {
			for (byte[] key : keys) {
				assertSeek(reader, keys, key);
				assertSeek(reader, keys, Arrays.copyOf(key, key.length + 1));
				byte[] before = key.clone();
				before[before.length - 1]--;
				assertSeek(reader, keys, before);
				assertSeek(reader, keys, Arrays.copyOf(key, key.length / 2));
				assertThat(reader.exactRef(new String(key, StandardCharsets.UTF_8))).isNotNull();
			}
			assertSeek(reader, keys, new byte[] { (byte) 0xff });
			assertThat(reader.exactRef("refs/heads/absent")).isNull();
		}
	}

	/**
	 * The first record at or after {@code probe} is the smallest key {@code >= probe}.
	 */
	private static void assertSeek(ReftableReader reader, List<byte[]> sortedKeys, byte[] probe) throws IOException {
		byte[] expected = sortedKeys.stream()
			.filter(k -> Arrays.compareUnsigned(k, probe) >= 0)
			.findFirst()
			.orElse(null);
		try (TableCursor<RefRecord> cursor = reader.refCursor().seek(probe, probe.length)) {
			if (expected == null) {
				assertThat(cursor.next()).as("seek past the last key").isFalse();
			}
			else {
				assertThat(cursor.next()).isTrue();
				RefRecord rec = cursor.record();
				assertThat(Arrays.copyOf(rec.nameBuffer(), rec.nameLength()))
					.as("seek %s", new String(probe, StandardCharsets.UTF_8))
					.isEqualTo(expected);
			}
		}
	}

	@ParameterizedTest
	@ValueSource(ints = { 256, 4096 })
	void prefixIterationYieldsExactlyTheRefsUnderThePrefix(int blockSize) throws IOException {
		List<RefRecord> refs = RandomRefs.generate(99, 2000, 1, 1, HashAlgorithm.SHA1);
		byte[] table = Tables.write(WriteOptions.defaults().withBlockSize(blockSize), 1, 1, refs, List.of());
		try (ReftableReader reader = Tables.open(table)) {
			for (String prefix : List.of("refs/", "refs/heads/", "refs/heads/a", "refs/heads/a/", "refs/tags/v",
					"refs/pull/", "refs/heads/\u00fcn\u00ef/", "refs/zzz", "H", "")) {
				List<String> expected = RandomRefs
					.describe(refs.stream().filter(r -> r.name().startsWith(prefix)).toList());
				assertThat(RandomRefs.describe(Tables.drainRefs(reader.refsWithPrefix(prefix)))).as(prefix)
					.containsExactlyElementsOf(expected);
			}
		}
	}

	@Test
	void restartsFollowTheCadenceAndEveryZeroPrefixRecord() throws IOException {
		List<RefRecord> refs = new ArrayList<>();
		refs.add(RefRecord.symbolic("HEAD", 1, "refs/heads/main"));
		for (int i = 0; i < 156; i++) {
			refs.add(RefRecord.direct(String.format("refs/heads/b%03d", i), 1, Tables.id(HashAlgorithm.SHA1, i)));
		}
		byte[] table = Tables.write(WriteOptions.defaults(), 1, 1, refs, List.of());
		TableLayout layout = new TableLayout(table);

		assertThat(layout.blocks).hasSize(1);
		int blockLen = layout.blocks.get(0).blockLen();
		int restarts = ReftableConstants.getU16(table, blockLen - 2);
		// entries 0, 16, ..., 144 by cadence, plus entry 1 (refs/... shares nothing with
		// HEAD): fact sheet 4.7
		assertThat(restarts).isEqualTo(11);
		assertThat(ReftableConstants.getU24(table, blockLen - 2 - 3 * restarts)).isEqualTo(24 + 4);
		try (ReftableReader reader = Tables.open(table)) {
			assertThat(RandomRefs.describe(Tables.refs(reader))).containsExactlyElementsOf(RandomRefs.describe(refs));
		}
	}

	@Test
	void indexIsWrittenFromFourBlocksOnNotForThree() throws IOException {
		int three = -1;
		int four = -1;
		for (int n = 1; four < 0; n++) {
			TableLayout layout = new TableLayout(sequentialTable(n, 256, false));
			int refBlocks = layout.ofType(ReftableConstants.BLOCK_TYPE_REF).size();
			if (refBlocks == 3) {
				three = n;
				assertThat(layout.refIndexPosition()).isZero();
				assertThat(layout.ofType(ReftableConstants.BLOCK_TYPE_INDEX)).isEmpty();
				assertThat(layout.objPosition()).as("no obj blocks without a ref index").isZero();
			}
			if (refBlocks == 4) {
				four = n;
				assertThat(layout.refIndexPosition()).isEqualTo(4 * 256);
				assertThat(layout.ofType(ReftableConstants.BLOCK_TYPE_INDEX)).hasSize(1);
				assertThat(layout.objPosition()).isGreaterThan(layout.refIndexPosition());
			}
		}
		assertThat(three).isPositive();
		for (int n : new int[] { three, four }) {
			assertAllLookupsWork(sequentialTable(n, 256, false), n);
		}
	}

	@Test
	void multiLevelIndexIsDescendedLevelByLevel() throws IOException {
		byte[] table = sequentialTable(3000, 256, false);
		TableLayout layout = new TableLayout(table);
		List<TableLayout.Block> top = layout.runAt(layout.refIndexPosition());
		assertThat(top).isNotEmpty()
			.hasSizeLessThanOrEqualTo(3)
			.allMatch(b -> b.type() == ReftableConstants.BLOCK_TYPE_INDEX);
		// the top level points at index blocks, which point at ref blocks: at least two
		// levels
		TableLayout.Block middle = layout.blockAt(layout.firstIndexTarget(top.get(0)));
		assertThat(middle.type()).isEqualTo(ReftableConstants.BLOCK_TYPE_INDEX);
		assertThat(layout.blockAt(layout.firstIndexTarget(middle)).type()).isEqualTo(ReftableConstants.BLOCK_TYPE_REF);
		assertAllLookupsWork(table, 3000);
	}

	@Test
	void twoAndThreeTopLevelIndexBlocksWithoutARootAreAllScanned() throws IOException {
		boolean sawTwo = false;
		boolean sawThree = false;
		for (int n = 100; !(sawTwo && sawThree); n += 10) {
			byte[] table = sequentialTable(n, 256, false);
			TableLayout layout = new TableLayout(table);
			int topBlocks = layout.runAt(layout.refIndexPosition()).size();
			if ((topBlocks == 2 && !sawTwo) || (topBlocks == 3 && !sawThree)) {
				sawTwo |= topBlocks == 2;
				sawThree |= topBlocks == 3;
				// every top-level block points at ref blocks: one level, no root above it
				assertThat(layout.runAt(layout.refIndexPosition()))
					.allSatisfy(block -> assertThat(layout.blockAt(layout.firstIndexTarget(block)).type())
						.isEqualTo(ReftableConstants.BLOCK_TYPE_REF));
				assertAllLookupsWork(table, n);
			}
		}
	}

	@Test
	void blockFilledToExactlyTheBlockSizeIsFollowedCorrectly() throws IOException {
		boolean found = false;
		for (int extra = 0; extra < 120 && !found; extra++) {
			List<RefRecord> refs = new ArrayList<>();
			for (int i = 0; i < 12; i++) {
				String name = String.format("refs/heads/n%02d", i) + "x".repeat((i == 5) ? extra : 0);
				refs.add(RefRecord.direct(name, 1, Tables.id(HashAlgorithm.SHA1, i)));
			}
			refs.sort((a, b) -> Arrays.compareUnsigned(a.name().getBytes(StandardCharsets.UTF_8),
					b.name().getBytes(StandardCharsets.UTF_8)));
			byte[] table = Tables.write(WriteOptions.defaults().withBlockSize(256), 1, 1, refs, List.of());
			TableLayout layout = new TableLayout(table);
			if (layout.blocks.size() > 1 && layout.blocks.get(0).blockLen() == 256) {
				found = true;
				try (ReftableReader reader = Tables.open(table)) {
					assertThat(RandomRefs.describe(Tables.refs(reader)))
						.containsExactlyElementsOf(RandomRefs.describe(refs));
					for (RefRecord ref : refs) {
						assertThat(reader.exactRef(ref.name())).isNotNull();
					}
				}
			}
		}
		assertThat(found).as("some name length fills the first block exactly").isTrue();
	}

	@Test
	void refBlocksArePaddedExceptTheLastBeforeLogsAndTheFooter() throws IOException {
		List<RefRecord> refs = RandomRefs.generate(5, 600, 1, 9, HashAlgorithm.SHA1);
		List<LogRecord> logs = LogFixtures.logs(600, 9);
		byte[] table = Tables.write(WriteOptions.defaults().withBlockSize(512), 1, 9, refs, logs);
		TableLayout layout = new TableLayout(table);

		List<TableLayout.Block> refIsh = layout.blocks.stream().filter(b -> b.offset() < layout.logPosition()).toList();
		for (int i = 0; i < refIsh.size(); i++) {
			TableLayout.Block block = refIsh.get(i);
			assertThat(block.offset() % 512).as("ref-ish blocks are aligned").isZero();
			assertThat(layout.paddingIsZero(block)).isTrue();
			boolean last = i == refIsh.size() - 1;
			assertThat(block.span()).as("block at %x", block.offset()).isEqualTo(last ? block.blockLen() : 512);
		}
		assertThat(refIsh).extracting(TableLayout.Block::type)
			.contains(ReftableConstants.BLOCK_TYPE_REF, ReftableConstants.BLOCK_TYPE_INDEX,
					ReftableConstants.BLOCK_TYPE_OBJ);
		assertThat(layout.logPosition()).isEqualTo(refIsh.get(refIsh.size() - 1).end());
		List<TableLayout.Block> logIndex = layout.runAt(layout.logIndexPosition());
		assertThat(layout.logIndexPosition()).isPositive();
		TableLayout.Block lastBlock = layout.blocks.get(layout.blocks.size() - 1);
		assertThat(lastBlock.type()).isEqualTo(ReftableConstants.BLOCK_TYPE_INDEX);
		assertThat(lastBlock.span()).as("the last block before the footer is not padded")
			.isEqualTo(lastBlock.blockLen());
		assertThat(logIndex).contains(lastBlock);
		try (ReftableReader reader = Tables.open(table)) {
			assertThat(RandomRefs.describe(Tables.refs(reader))).containsExactlyElementsOf(RandomRefs.describe(refs));
			assertThat(LogFixtures.describe(Tables.drainLogs(reader.allLogs())))
				.containsExactlyElementsOf(LogFixtures.describe(logs));
		}
	}

	/**
	 * Refs {@code refs/heads/branch-00000..} pointing at distinct commits, every fifth an
	 * annotated tag.
	 */
	static byte[] sequentialTable(int count, int blockSize, boolean withLogs) {
		List<RefRecord> refs = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			String name = String.format("refs/heads/branch-%05d", i);
			refs.add((i % 5 == 0)
					? RefRecord.peeled(name, 1, Tables.id(HashAlgorithm.SHA1, -i - 1), Tables.id(HashAlgorithm.SHA1, i))
					: RefRecord.direct(name, 1, Tables.id(HashAlgorithm.SHA1, i)));
		}
		return Tables.write(WriteOptions.defaults().withBlockSize(blockSize), 1, 1, refs,
				withLogs ? LogFixtures.logs(count, 1) : List.of());
	}

	private static void assertAllLookupsWork(byte[] table, int count) throws IOException {
		try (ReftableReader reader = Tables.open(table)) {
			assertThat(Tables.refs(reader)).hasSize(count);
			for (int i = 0; i < count; i++) {
				String name = String.format("refs/heads/branch-%05d", i);
				assertThat(reader.exactRef(name)).as(name).isNotNull();
				try (RecordCursor<RefRecord> cursor = reader.seekRef(name + "\0")) {
					if (i + 1 < count) {
						assertThat(cursor.next()).isTrue();
						assertThat(cursor.record().name()).isEqualTo(String.format("refs/heads/branch-%05d", i + 1));
					}
					else {
						assertThat(cursor.next()).isFalse();
					}
				}
			}
			assertThat(reader.exactRef("refs/heads/branch-")).isNull();
			assertThat(reader.exactRef("refs/heads/zzz")).isNull();
			assertThat(Tables.drainRefs(reader.refsWithPrefix("refs/heads/branch-0001")))
				.hasSize(Math.max(0, Math.min(count, 20) - 10));
		}
	}

}
