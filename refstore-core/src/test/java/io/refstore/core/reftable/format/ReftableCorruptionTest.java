package io.refstore.core.reftable.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

import org.junit.jupiter.api.Test;

import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;

/**
 * Each kind of damage is reported as corruption naming the place, never read as an empty
 * or different table.
 */
class ReftableCorruptionTest {

	private static final ObjectId COMMIT = Tables.id("a28d4bcf6dfedeea55e8e7696373e3b8b199c2af");

	private static final PersonIdent ANN = new PersonIdent("Ann", "ann@example.com", 1700000000L, 530);

	/**
	 * The table of fact sheet 11.2: ref block at 0 (records at 0x1c, 0x33, 0x5d), log
	 * block at 0x80.
	 */
	private static byte[] compacted() {
		return Tables.write(WriteOptions.defaults(), 1, 3, List.of(RefRecord.symbolic("HEAD", 1, "refs/heads/main"),
				RefRecord.direct("refs/heads/feature", 3, COMMIT), RefRecord.direct("refs/heads/main", 2, COMMIT)),
				List.of(LogRecord.update("HEAD", 2, ObjectId.zero(HashAlgorithm.SHA1), COMMIT, ANN,
						"commit (initial): first"),
						LogRecord.update("refs/heads/feature", 3, ObjectId.zero(HashAlgorithm.SHA1), COMMIT, ANN,
								"branch: Created from main"),
						LogRecord.update("refs/heads/main", 2, ObjectId.zero(HashAlgorithm.SHA1), COMMIT, ANN,
								"commit (initial): first")));
	}

	/** Reads everything and returns the corruption reported. */
	private static CorruptRefStoreException readAll(byte[] table) {
		return catchThrowableOfType(() -> {
			try (ReftableReader reader = Tables.open(table)) {
				Tables.refs(reader);
				Tables.drainLogs(reader.allLogs());
			}
		}, CorruptRefStoreException.class);
	}

	private static void repairCrc(byte[] table, int footerSize) {
		CRC32 crc = new CRC32();
		crc.update(table, table.length - footerSize, footerSize - 4);
		ReftableConstants.putI32(table, table.length - 4, (int) crc.getValue());
	}

	@Test
	void badMagic() {
		byte[] table = compacted();
		table[0] = 'X';
		CorruptRefStoreException ex = readAll(table);
		assertThat(ex).hasMessageContaining("(memory)").hasMessageContaining("no REFT magic");
		assertThat(ex.position()).isZero();
	}

	@Test
	void unknownVersion() {
		byte[] table = compacted();
		table[4] = 3;
		assertThat(readAll(table)).hasMessageContaining("unsupported reftable version 3");
	}

	@Test
	void badCrc() {
		byte[] table = compacted();
		table[table.length - 1] ^= 1;
		CorruptRefStoreException ex = readAll(table);
		assertThat(ex).hasMessageContaining("CRC-32");
		assertThat(ex.position()).isEqualTo(table.length - 4);
	}

	@Test
	void footerDifferentFromHeader() {
		byte[] table = compacted();
		int footer = table.length - 68;
		table[footer + 23] = 9;
		repairCrc(table, 68);
		CorruptRefStoreException ex = readAll(table);
		assertThat(ex).hasMessageContaining("footer does not repeat the header");
		assertThat(ex.position()).isEqualTo(footer + 23);
	}

	@Test
	void unknownHashId() {
		byte[] table = Tables.write(WriteOptions.defaults().withHash(HashAlgorithm.SHA256), 1, 1,
				List.of(RefRecord.symbolic("HEAD", 1, "refs/heads/main")), List.of());
		byte[] bogus = "md5!".getBytes(StandardCharsets.US_ASCII);
		System.arraycopy(bogus, 0, table, 24, 4);
		System.arraycopy(bogus, 0, table, table.length - 72 + 24, 4);
		repairCrc(table, 72);
		assertThat(readAll(table)).hasMessageContaining("unknown hash id 0x6d643521");
	}

	@Test
	void truncatedTable() {
		byte[] table = compacted();
		assertThat(readAll(Arrays.copyOf(table, 200))).hasMessageContaining("footer has no REFT magic");
		assertThat(readAll(Arrays.copyOf(table, 50))).hasMessageContaining("truncated table of 50 bytes");
		assertThat(readAll(Arrays.copyOf(table, 3))).hasMessageContaining("no REFT magic");
	}

	@Test
	void blockLengthPastTheEnd() {
		byte[] table = compacted();
		ReftableConstants.putU24(table, 0x19, 0x1000);
		CorruptRefStoreException ex = readAll(table);
		assertThat(ex).hasMessageContaining("block length 4096 runs past the end of the blocks");
		assertThat(ex.position()).isEqualTo(0x18);
	}

	@Test
	void unknownFirstBlockType() {
		byte[] table = compacted();
		table[0x18] = 'x';
		assertThat(readAll(table)).hasMessageContaining("the first block must be a ref or log block");
	}

	@Test
	void restartCountTooLargeForTheBlock() {
		byte[] table = compacted();
		ReftableConstants.putU16(table, 0x7e, 40);
		assertThat(readAll(table)).hasMessageContaining("restart count 40 does not fit a block of length 128");
	}

	@Test
	void restartPointingAtAPrefixCompressedRecord() throws IOException {
		byte[] table = compacted();
		// second restart 0x33 -> 0x5d, the record of refs/heads/main written with prefix
		// 11
		ReftableConstants.putU24(table, 0x7b, 0x5d);
		assertThat(readAll(table)).hasMessageContaining("restart point at a record with prefix length 11");
		CorruptRefStoreException seek = catchThrowableOfType(() -> {
			try (ReftableReader reader = Tables.open(table)) {
				reader.exactRef("refs/heads/main");
			}
		}, CorruptRefStoreException.class);
		assertThat(seek).hasMessageContaining("points at a prefix-compressed record");
	}

	@Test
	void restartInsideARecord() {
		byte[] table = compacted();
		ReftableConstants.putU24(table, 0x7b, 0x40);
		assertThat(readAll(table)).hasMessageContaining("restart offset 0x40 points inside a record");
	}

	@Test
	void varintLongerThan64Bits() {
		byte[] table = compacted();
		Arrays.fill(table, 0x34, 0x3f, (byte) 0xff);
		CorruptRefStoreException ex = readAll(table);
		assertThat(ex).hasMessageContaining("varint does not fit 64 bits");
		assertThat(ex.position()).isBetween(0x34L, 0x3fL);
	}

	@Test
	void keysNotIncreasing() {
		byte[] table = compacted();
		System.arraycopy("aaaa".getBytes(StandardCharsets.US_ASCII), 0, table, 0x5f, 4);
		CorruptRefStoreException ex = readAll(table);
		assertThat(ex).hasMessageContaining("keys are not in increasing order");
		assertThat(ex.position()).isEqualTo(0x63);
	}

	@Test
	void blockWhoseFirstKeyDoesNotFollowThePreviousBlock() {
		byte[] table = ReftableReaderTest.sequentialTable(20, 256, false);
		// the second block starts with a full key: make "refs/heads/branch-..." read
		// "refs/heads/aranch-..."
		int at = 256;
		while (!new String(table, at, 6, StandardCharsets.US_ASCII).equals("branch")) {
			at++;
		}
		table[at] = 'a';
		CorruptRefStoreException ex = readAll(table);
		assertThat(ex).hasMessageContaining("is not greater than the last key of the block before it");
		assertThat(ex.position()).isEqualTo(256);
	}

	@Test
	void unknownValueType() {
		byte[] table = compacted();
		table[0x1d] = 0x27;
		assertThat(readAll(table)).hasMessageContaining("ref record with unknown value type 7");
	}

	@Test
	void indexPositionOutsideTheFile() {
		byte[] table = ReftableReaderTest.sequentialTable(400, 256, false);
		int footer = table.length - 68;
		ReftableConstants.putU64(table, footer + 24, table.length + 100);
		repairCrc(table, 68);
		CorruptRefStoreException ex = readAll(table);
		assertThat(ex).hasMessageContaining("ref index position");
		assertThat(ex).hasMessageContaining("is outside the blocks");
	}

	@Test
	void indexPositionAtAnotherBlockType() {
		byte[] table = ReftableReaderTest.sequentialTable(400, 256, false);
		int footer = table.length - 68;
		ReftableConstants.putU64(table, footer + 24, 256);
		repairCrc(table, 68);
		CorruptRefStoreException ex = catchThrowableOfType(() -> {
			try (ReftableReader reader = Tables.open(table)) {
				reader.exactRef("refs/heads/branch-00100");
			}
		}, CorruptRefStoreException.class);
		assertThat(ex).hasMessageContaining("expected a index block, found a ref block");
		assertThat(ex.position()).isEqualTo(256);
	}

	@Test
	void logBlockLengthDisagreesWithItsData() {
		byte[] table = compacted();
		ReftableConstants.putU24(table, 0x81, 0x200);
		assertThat(readAll(table)).hasMessageContaining("log block inflates to 350 bytes, its header says 512");
	}

	@Test
	void damagedCompressedLogData() {
		byte[] table = compacted();
		for (int i = 0x90; i < 0xa0; i++) {
			table[i] ^= 0x5a;
		}
		CorruptRefStoreException ex = readAll(table);
		assertThat(ex).hasMessageContaining("log block");
		assertThat(ex.position()).isEqualTo(0x80);
	}

}
