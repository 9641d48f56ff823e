package io.refstore.core.reftable.format;

import static io.refstore.core.reftable.format.Tables.ascii;
import static io.refstore.core.reftable.format.Tables.concat;
import static io.refstore.core.reftable.format.Tables.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;

class ReftableWriterTest {

	private static final ObjectId COMMIT = Tables.id("a28d4bcf6dfedeea55e8e7696373e3b8b199c2af");

	private static final PersonIdent ANN = new PersonIdent("Ann", "ann@example.com", 1700000000L, 530);

	@Test
	void initialTableIsByteIdenticalToGits() {
		byte[] table = Tables.write(WriteOptions.defaults(), 1, 1,
				List.of(RefRecord.symbolic("HEAD", 1, "refs/heads/main")), List.of());

		// the 124-byte table of `git init --ref-format=reftable -b main` (fact sheet
		// 11.1)
		assertThat(table).isEqualTo(hex("""
				5245 4654 0100 1000 0000 0000 0000 0001
				0000 0000 0000 0001 7200 0038 0023 4845
				4144 000f 7265 6673 2f68 6561 6473 2f6d
				6169 6e00 001c 0001 5245 4654 0100 1000
				0000 0000 0000 0001 0000 0000 0000 0001
				0000 0000 0000 0000 0000 0000 0000 0000
				0000 0000 0000 0000 0000 0000 0000 0000
				0000 0000 0000 0000 b6bf f78a"""));
	}

	@Test
	void compactedTableWithLogsMatchesGitsKnownBytes() {
		byte[] table = Tables.write(WriteOptions.defaults(), 1, 3,
				List.of(RefRecord.symbolic("HEAD", 1, "refs/heads/main"),
						RefRecord.direct("refs/heads/feature", 3, COMMIT),
						RefRecord.direct("refs/heads/main", 2, COMMIT)),
				List.of(LogRecord.update("HEAD", 2, ObjectId.zero(HashAlgorithm.SHA1), COMMIT, ANN,
						"commit (initial): first"),
						LogRecord.update("refs/heads/feature", 3, ObjectId.zero(HashAlgorithm.SHA1), COMMIT, ANN,
								"branch: Created from main"),
						LogRecord.update("refs/heads/main", 2, ObjectId.zero(HashAlgorithm.SHA1), COMMIT, ANN,
								"commit (initial): first\n")));

		// fact sheet 11.2: header and unpadded ref block, then the log block's header
		assertThat(Arrays.copyOf(table, 0x84)).isEqualTo(hex("""
				5245 4654 0100 1000 0000 0000 0000 0001
				0000 0000 0000 0003 7200 0080 0023 4845
				4144 000f 7265 6673 2f68 6561 6473 2f6d
				6169 6e00 8011 7265 6673 2f68 6561 6473
				2f66 6561 7475 7265 02a2 8d4b cf6d fede
				ea55 e8e7 6963 73e3 b8b1 99c2 af0b 216d
				6169 6e01 a28d 4bcf 6dfe deea 55e8 e769
				6373 e3b8 b199 c2af 0000 1c00 0033 0002
				6700 015e"""));
		assertThat(Tables.inflateLogBlock(table, 0x80, 0)).isEqualTo(expectedLogBlock());
		int logEnd = 0x80 + Tables.logBlockLength(table, 0x80, 0);
		assertThat(table.length).isEqualTo(logEnd + 68);
		// the footer, CRC included, does not depend on the compressed length
		assertThat(Arrays.copyOfRange(table, logEnd, table.length)).isEqualTo(hex("""
				5245 4654 0100 1000 0000 0000 0000 0001
				0000 0000 0000 0003 0000 0000 0000 0000
				0000 0000 0000 0000 0000 0000 0000 0000
				0000 0000 0000 0080 0000 0000 0000 0000
				dbb4 d0c6"""));
	}

	/**
	 * The 350-byte inflated log block of fact sheet 11.2, rebuilt from its annotated
	 * records.
	 */
	private static byte[] expectedLogBlock() {
		byte[] value = concat(new byte[20], COMMIT.toRaw(), hex("03"), ascii("Ann"), hex("0f"),
				ascii("ann@example.com"), hex("85a9cee100 0212"));
		byte[] block = concat(hex("6700015e"), hex("0069"), ascii("HEAD"), hex("00 fffffffffffffffd"), value, hex("18"),
				ascii("commit (initial): first\n"), hex("008059"), ascii("refs/heads/feature"),
				hex("00 fffffffffffffffc"), value, hex("1a"), ascii("branch: Created from main\n"), hex("0b69"),
				ascii("main"), hex("00 fffffffffffffffd"), value, hex("18"), ascii("commit (initial): first\n"),
				hex("000004 00006f 0002"));
		assertThat(block).hasSize(350);
		return block;
	}

	@Test
	void emptyTablesAreHeaderAndFooterOnly() throws Exception {
		byte[] v1 = Tables.write(WriteOptions.defaults(), 0, 0, List.of(), List.of());
		byte[] v2 = Tables.write(WriteOptions.defaults().withHash(HashAlgorithm.SHA256), 0, 0, List.of(), List.of());

		assertThat(v1).hasSize(92);
		assertThat(v2).hasSize(100);
		assertThat(Arrays.copyOf(v2, 28))
			.isEqualTo(hex("52454654 02 001000 0000000000000000 0000000000000000 73323536"));
		try (ReftableReader reader = Tables.open(v2)) {
			assertThat(reader.hashAlgorithm()).isEqualTo(HashAlgorithm.SHA256);
			assertThat(Tables.refs(reader)).isEmpty();
			assertThat(Tables.drainLogs(reader.allLogs())).isEmpty();
		}
	}

	@Test
	void sha256TableStartsItsFirstRestartAt32() throws Exception {
		ObjectId id = Tables.id(HashAlgorithm.SHA256, 7);
		byte[] table = Tables.write(WriteOptions.defaults().withHash(HashAlgorithm.SHA256), 5, 5,
				List.of(RefRecord.direct("refs/heads/main", 5, id)), List.of());

		assertThat(table[28]).isEqualTo((byte) 'r');
		int blockLen = ReftableConstants.getU24(table, 29);
		assertThat(ReftableConstants.getU24(table, blockLen - 5)).isEqualTo(32);
		assertThat(table).hasSize(blockLen + 72);
		try (ReftableReader reader = Tables.open(table)) {
			assertThat(reader.version()).isEqualTo(2);
			assertThat(reader.exactRef("refs/heads/main").idBuffer()).startsWith(id.toRaw());
		}
	}

	@Test
	void logOnlyTableStartsWithALogBlockAndFooterLogPositionZero() throws Exception {
		byte[] table = Tables.write(WriteOptions.defaults(), 4, 4, List.of(),
				List.of(LogRecord.update("HEAD", 4, COMMIT, COMMIT, ANN, "checkout: moving from main to main")));

		assertThat(table[24]).isEqualTo((byte) 'g');
		byte[] image = Tables.inflateLogBlock(table, 0, 24);
		assertThat(ReftableConstants.getU24(image, image.length - 5)).isEqualTo(28);
		int footer = table.length - 68;
		assertThat(ReftableConstants.getU64(table, footer + 24 + 24)).isZero();
		try (ReftableReader reader = Tables.open(table)) {
			assertThat(Tables.refs(reader)).isEmpty();
			List<LogRecord> logs = Tables.drainLogs(reader.allLogs());
			assertThat(logs).singleElement().satisfies(log -> {
				assertThat(log.refName()).isEqualTo("HEAD");
				assertThat(log.message()).isEqualTo("checkout: moving from main to main\n");
			});
		}
	}

	@Test
	void refsOutOfOrderAreRejectedNamingBothNames() {
		ReftableWriter writer = new ReftableWriter(new ByteArrayOutputStream(), WriteOptions.defaults()).setLimits(1,
				1);

		assertThatThrownBy(() -> {
			writer.addRef(RefRecord.direct("refs/heads/b", 1, COMMIT));
			writer.addRef(RefRecord.direct("refs/heads/a", 1, COMMIT));
		}).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("'refs/heads/b'")
			.hasMessageContaining("'refs/heads/a'");
	}

	@Test
	void duplicateRefIsRejected() throws Exception {
		ReftableWriter writer = new ReftableWriter(new ByteArrayOutputStream(), WriteOptions.defaults()).setLimits(1,
				1);
		writer.addRef(RefRecord.direct("refs/heads/a", 1, COMMIT));

		assertThatThrownBy(() -> writer.addRef(RefRecord.direct("refs/heads/a", 1, COMMIT)))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("strictly increasing");
	}

	@Test
	void refOrderIsBytewiseNotByJavaStrings() throws Exception {
		// U+FFFD sorts after U+10000 as Java chars (0xFFFD > 0xD800) but before it as
		// UTF-8 bytes (EF < F0)
		ReftableWriter writer = new ReftableWriter(new ByteArrayOutputStream(), WriteOptions.defaults()).setLimits(1,
				1);
		writer.addRef(RefRecord.direct("refs/heads/\uFFFD", 1, COMMIT));
		writer.addRef(RefRecord.direct("refs/heads/\uD800\uDC00", 1, COMMIT));
		writer.finish();
	}

	@Test
	void logsOutOfOrderAreRejectedNamingRefAndUpdateIndex() throws Exception {
		ReftableWriter writer = new ReftableWriter(new ByteArrayOutputStream(), WriteOptions.defaults()).setLimits(1,
				5);
		writer.addLog(LogRecord.update("refs/heads/a", 2, COMMIT, COMMIT, ANN, "older"));

		assertThatThrownBy(() -> writer.addLog(LogRecord.update("refs/heads/a", 3, COMMIT, COMMIT, ANN, "newer")))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("'refs/heads/a' at update index 2")
			.hasMessageContaining("'refs/heads/a' at update index 3");
	}

	@Test
	void refUpdateIndexOutsideLimitsIsRejected() {
		ReftableWriter writer = new ReftableWriter(new ByteArrayOutputStream(), WriteOptions.defaults()).setLimits(3,
				4);

		assertThatThrownBy(() -> writer.addRef(RefRecord.direct("refs/heads/a", 2, COMMIT)))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("refs/heads/a")
			.hasMessageContaining("3..4");
	}

	@Test
	void logUpdateIndexMayBeBelowButNotAboveTheLimits() throws Exception {
		ReftableWriter writer = new ReftableWriter(new ByteArrayOutputStream(), WriteOptions.defaults()).setLimits(7,
				7);
		writer.addLog(LogRecord.deletion("refs/heads/a", 3));
		writer.addLog(LogRecord.update("refs/heads/b", 2, COMMIT, COMMIT, ANN, "kept with its old index"));

		assertThatThrownBy(() -> writer.addLog(LogRecord.update("refs/heads/c", 8, COMMIT, COMMIT, ANN, "future")))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("refs/heads/c");
	}

	@Test
	void refsAfterLogsAreRejected() throws Exception {
		ReftableWriter writer = new ReftableWriter(new ByteArrayOutputStream(), WriteOptions.defaults()).setLimits(1,
				1);
		writer.addLog(LogRecord.update("HEAD", 1, COMMIT, COMMIT, ANN, "m"));

		assertThatThrownBy(() -> writer.addRef(RefRecord.direct("refs/heads/a", 1, COMMIT)))
			.isInstanceOf(IllegalStateException.class);
	}

	@Test
	void limitsCannotChangeAfterTheFirstRecord() throws Exception {
		ReftableWriter writer = new ReftableWriter(new ByteArrayOutputStream(), WriteOptions.defaults()).setLimits(1,
				1);
		writer.addRef(RefRecord.direct("refs/heads/a", 1, COMMIT));

		assertThatThrownBy(() -> writer.setLimits(1, 2)).isInstanceOf(IllegalStateException.class);
	}

	@Test
	void multiLineMessagesAreRejectedUnlessExact() throws Exception {
		ReftableWriter writer = new ReftableWriter(new ByteArrayOutputStream(), WriteOptions.defaults()).setLimits(1,
				1);
		assertThatThrownBy(() -> writer.addLog(LogRecord.update("HEAD", 1, COMMIT, COMMIT, ANN, "two\nlines")))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("more than one line");

		byte[] exact = Tables.write(WriteOptions.defaults().withExactLogMessage(true), 1, 1, List.of(),
				List.of(LogRecord.update("HEAD", 1, COMMIT, COMMIT, ANN, "")));
		try (ReftableReader reader = Tables.open(exact)) {
			assertThat(Tables.drainLogs(reader.allLogs()).get(0).message()).isEmpty();
		}
	}

	@Test
	void emptyMessageIsStoredAsANewline() throws Exception {
		byte[] table = Tables.write(WriteOptions.defaults(), 1, 1, List.of(),
				List.of(LogRecord.update("HEAD", 1, COMMIT, COMMIT, ANN, "")));
		try (ReftableReader reader = Tables.open(table)) {
			assertThat(Tables.drainLogs(reader.allLogs()).get(0).message()).isEqualTo("\n");
		}
	}

	@Test
	void recordLargerThanABlockIsRejected() {
		ReftableWriter writer = new ReftableWriter(new ByteArrayOutputStream(),
				WriteOptions.defaults().withBlockSize(256))
			.setLimits(1, 1);

		assertThatThrownBy(() -> writer.addRef(RefRecord.direct("refs/heads/" + "x".repeat(300), 1, COMMIT)))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("does not fit in a block of 256 bytes");
	}

	@Test
	void nameOfNearlyBlockSizeFitsAsGitAllows() throws Exception {
		// fact sheet 2.1: a 3818-byte name works with 4 KiB blocks, a 5024-byte name does
		// not
		String longName = "refs/heads/" + "n".repeat(3818 - 11);
		byte[] table = Tables.write(WriteOptions.defaults(), 1, 1, List.of(RefRecord.direct(longName, 1, COMMIT)),
				List.of());
		try (ReftableReader reader = Tables.open(table)) {
			assertThat(reader.exactRef(longName)).isNotNull();
		}
		ReftableWriter writer = new ReftableWriter(new ByteArrayOutputStream(), WriteOptions.defaults()).setLimits(1,
				1);
		assertThatThrownBy(() -> writer.addRef(RefRecord.direct("refs/heads/" + "n".repeat(5013), 1, COMMIT)))
			.isInstanceOf(IllegalArgumentException.class);
	}

	@Test
	void idOfTheWrongHashIsRejected() {
		ReftableWriter writer = new ReftableWriter(new ByteArrayOutputStream(), WriteOptions.defaults()).setLimits(1,
				1);

		assertThatThrownBy(() -> writer.addRef(RefRecord.direct("refs/heads/a", 1, Tables.id(HashAlgorithm.SHA256, 1))))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("32-byte id in a sha1 table");
	}

}
