package io.refstore.core.reftable.format;

import static io.refstore.core.reftable.format.Tables.hex;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.ReflogEntry;

class LogAndObjTest {

	private static final ObjectId ONE = Tables.id(HashAlgorithm.SHA1, 1);

	private static final ObjectId TWO = Tables.id(HashAlgorithm.SHA1, 2);

	@Test
	void timeZonesAreStoredAsDecimalHhmmAsGitDoes() throws IOException {
		PersonIdent india = new PersonIdent("Ann", "ann@example.com", 1700000000L, PersonIdent.parseTz("+0530"));
		PersonIdent pacific = new PersonIdent("Bob", "bob@example.com", 1700000001L, PersonIdent.parseTz("-0800"));
		byte[] table = Tables.write(WriteOptions.defaults(), 1, 2, List.of(), List.of(
				LogRecord.update("refs/heads/a", 2, ONE, TWO, india, "to two"),
				LogRecord.update("refs/heads/a", 1, ObjectId.zero(HashAlgorithm.SHA1), ONE, pacific, "created")));

		byte[] image = Tables.inflateLogBlock(table, 0, 24);
		assertThat(indexOf(image, hex("85a9cee100 0212"))).as("+0530 as 530").isPositive();
		assertThat(indexOf(image, hex("85a9cee101 fce0"))).as("-0800 as -800").isPositive();
		try (ReftableReader reader = Tables.open(table)) {
			List<LogRecord> logs = Tables.drainLogs(reader.logsFor("refs/heads/a"));
			assertThat(logs).extracting(LogRecord::tzOffset).containsExactly(530, -800);
			ReflogEntry newest = logs.get(0).toEntry(HashAlgorithm.SHA1);
			assertThat(newest.who().tzText()).isEqualTo("+0530");
			assertThat(newest.who().tzMinutes()).isEqualTo(330);
			assertThat(newest.message()).isEqualTo("to two");
			assertThat(newest.oldId()).isEqualTo(ONE);
			assertThat(logs.get(1).toEntry(HashAlgorithm.SHA1).who().tzText()).isEqualTo("-0800");
		}
	}

	@Test
	void logsRoundTripAndSeekByRefAndUpdateIndex() throws IOException {
		List<LogRecord> logs = LogFixtures.logs(3000, 4);
		for (int blockSize : new int[] { 256, 1024, 4096 }) {
			byte[] table = Tables.write(WriteOptions.defaults().withBlockSize(blockSize), 1, 4, List.of(), logs);
			TableLayout layout = new TableLayout(table);
			try (ReftableReader reader = Tables.open(table)) {
				assertThat(LogFixtures.describe(Tables.drainLogs(reader.allLogs())))
					.containsExactlyElementsOf(LogFixtures.describe(logs));
				for (int i = 0; i < logs.size(); i += 7) {
					LogRecord want = logs.get(i);
					List<LogRecord> ofRef = logs.stream().filter(l -> l.refName().equals(want.refName())).toList();
					assertThat(LogFixtures.describe(Tables.drainLogs(reader.logsFor(want.refName()))))
						.containsExactlyElementsOf(LogFixtures.describe(ofRef));
					try (RecordCursor<LogRecord> cursor = reader.seekLog(want.refName(), want.updateIndex())) {
						assertThat(cursor.next()).isTrue();
						assertThat(LogFixtures.describe(cursor.record())).isEqualTo(LogFixtures.describe(want));
					}
				}
				assertThat(Tables.drainLogs(reader.logsFor("refs/heads/branch-"))).isEmpty();
			}
			if (blockSize == 256) {
				assertThat(layout.logIndexPosition()).as("3000 logs in 256-byte blocks get a log index").isPositive();
			}
		}
	}

	@Test
	void logIndexIsWrittenFromFourLogBlocksOnly() throws IOException {
		boolean sawThree = false;
		for (int n = 1; n < 200; n++) {
			List<LogRecord> logs = LogFixtures.logs(n, 1);
			TableLayout layout = new TableLayout(
					Tables.write(WriteOptions.defaults().withBlockSize(256), 1, 1, List.of(), logs));
			int logBlocks = layout.ofType(ReftableConstants.BLOCK_TYPE_LOG).size();
			assertThat(layout.logIndexPosition() > 0).as("%d log blocks", logBlocks).isEqualTo(logBlocks > 3);
			sawThree |= logBlocks == 3;
			if (logBlocks > 4) {
				break;
			}
		}
		assertThat(sawThree).isTrue();
	}

	/**
	 * The log section is not aligned, so an index block that fills the block size exactly
	 * is followed directly by the next index block. The reader took such a block for a
	 * padded one and looked for the next at the following multiple of the block size: a
	 * 20,000-ref migration with reflogs (git's table or ours) then failed with "unknown
	 * block type".
	 */
	@Test
	void aFullLogIndexBlockIsFollowedDirectlyByTheNext() throws IOException {
		int blockSize = 256;
		for (int n = 20; n < 4000; n++) {
			List<LogRecord> logs = LogFixtures.logs(n, 4);
			byte[] table = Tables.write(WriteOptions.defaults().withBlockSize(blockSize), 1, 4, List.of(), logs);
			TableLayout layout = new TableLayout(table);
			List<TableLayout.Block> index = (layout.logIndexPosition() > 0) ? layout.runAt(layout.logIndexPosition())
					: List.of();
			boolean fullThenMore = index.size() > 1 && index.get(0).blockLen() == blockSize
					&& index.get(0).offset() % blockSize != 0;
			if (!fullThenMore) {
				continue;
			}
			try (ReftableReader reader = Tables.open(table)) {
				assertThat(LogFixtures.describe(Tables.drainLogs(reader.allLogs())))
					.containsExactlyElementsOf(LogFixtures.describe(logs));
				for (LogRecord want : logs) {
					try (RecordCursor<LogRecord> cursor = reader.seekLog(want.refName(), want.updateIndex())) {
						assertThat(cursor.next()).as(want.refName()).isTrue();
						assertThat(LogFixtures.describe(cursor.record())).isEqualTo(LogFixtures.describe(want));
					}
				}
			}
			return;
		}
		throw new AssertionError("no table up to 4000 logs has a full, unaligned log index block before another");
	}

	@Test
	void existenceMarkerIsRecognised() throws IOException {
		byte[] table = Tables.write(WriteOptions.defaults().withExactLogMessage(true), 1, 1, List.of(),
				List.of(LogRecord.update("refs/heads/a", 1, ObjectId.zero(HashAlgorithm.SHA1),
						ObjectId.zero(HashAlgorithm.SHA1), new PersonIdent("", "", 0, 0), "")));
		try (ReftableReader reader = Tables.open(table)) {
			assertThat(Tables.drainLogs(reader.allLogs()).get(0).isExistenceMarker()).isTrue();
		}
	}

	@Test
	void objIndexFindsEveryRefPointingAtAnId() throws IOException {
		byte[] table = ReftableReaderTest.sequentialTable(2000, 256, false);
		TableLayout layout = new TableLayout(table);
		assertThat(layout.objPosition()).isPositive();
		assertThat(layout.objIdLength()).isBetween(2, 8);
		try (ReftableReader reader = Tables.open(table)) {
			assertThat(reader.hasObjectIndex()).isTrue();
			List<RefRecord> all = Tables.refs(reader);
			for (int i = 0; i < 2000; i += 13) {
				ObjectId id = Tables.id(HashAlgorithm.SHA1, i);
				assertThat(names(reader.refsFor(id))).as("refs for %s", id)
					.containsExactlyElementsOf(bruteForce(all, id));
			}
			ObjectId tag = Tables.id(HashAlgorithm.SHA1, -11);
			assertThat(names(reader.refsFor(tag))).containsExactly("refs/heads/branch-00010");
			assertThat(names(reader.refsFor(Tables.id(HashAlgorithm.SHA1, 99999)))).isEmpty();
		}
	}

	@Test
	void objRecordWithoutPositionsFallsBackToAFullScan() throws IOException {
		// one commit in many blocks: its positions no longer fit one 256-byte obj block
		// (fact sheet 4.10)
		List<RefRecord> refs = new ArrayList<>();
		for (int i = 0; i < 3000; i++) {
			refs.add(RefRecord.direct(String.format("refs/heads/same-%05d", i), 1, ONE));
		}
		byte[] table = Tables.write(WriteOptions.defaults().withBlockSize(256), 1, 1, refs, List.of());
		try (ReftableReader reader = Tables.open(table)) {
			try (TableCursor<ObjRecord> objs = reader.objCursor().seekToStart()) {
				assertThat(objs.next()).isTrue();
				assertThat(objs.record().count).isZero();
				assertThat(objs.next()).isFalse();
			}
			assertThat(names(reader.refsFor(ONE))).hasSize(3000);
			assertThat(names(reader.refsFor(TWO))).isEmpty();
		}
	}

	@Test
	void tablesWithoutObjIndexScanForIds() throws IOException {
		List<RefRecord> refs = RandomRefs.generate(11, 500, 1, 1, HashAlgorithm.SHA1);
		byte[] table = Tables.write(WriteOptions.defaults().withIndexObjects(false).withBlockSize(256), 1, 1, refs,
				List.of());
		assertThat(new TableLayout(table).objPosition()).isZero();
		try (ReftableReader reader = Tables.open(table)) {
			assertThat(reader.hasObjectIndex()).isFalse();
			ObjectId id = Tables.id(HashAlgorithm.SHA1, 3);
			assertThat(names(reader.refsFor(id))).containsExactlyElementsOf(bruteForce(refs, id)).isNotEmpty();
		}
	}

	@Test
	void tombstoneOnlyTableWithARefIndexStillDeclaresAnObjIdLength() throws IOException {
		// git dumps an (empty) object index whenever the refs got an index: footer obj
		// field = 0 << 5 | 2
		List<RefRecord> refs = new ArrayList<>();
		for (int i = 0; i < 400; i++) {
			refs.add(RefRecord.deletion(String.format("refs/heads/gone-%05d", i), 1));
		}
		TableLayout layout = new TableLayout(
				Tables.write(WriteOptions.defaults().withBlockSize(256), 1, 1, refs, List.of()));
		assertThat(layout.refIndexPosition()).isPositive();
		assertThat(layout.footer(1)).isEqualTo(2);
	}

	private static List<String> bruteForce(List<RefRecord> refs, ObjectId id) {
		byte[] raw = id.toRaw();
		return refs.stream()
			.filter(r -> r.hasId()
					&& (Arrays.equals(Arrays.copyOf(r.idBuffer(), 20), raw) || (r.valueType() == RefRecord.VALUE_PEELED
							&& Arrays.equals(Arrays.copyOf(r.peeledBuffer(), 20), raw))))
			.map(RefRecord::name)
			.toList();
	}

	private static List<String> names(RecordCursor<RefRecord> cursor) throws IOException {
		return Tables.drainRefs(cursor).stream().map(RefRecord::name).toList();
	}

	private static int indexOf(byte[] haystack, byte[] needle) {
		for (int i = 0; i + needle.length <= haystack.length; i++) {
			if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
				return i;
			}
		}
		return -1;
	}

}
