package io.refstore.core.reftable.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.reftable.ReftableInitialWriter;

/**
 * Records at the limits of a 4 KiB block, laid out as git 2.55's {@code refs migrate}
 * laid out the same records (block lengths and positions read from its tables): a
 * 4,000-byte ref name next to {@code HEAD} in the first block, its log record alone in a
 * block, and messages cut to half a block by the bulk writer a migration uses, as bytes,
 * even inside a UTF-8 sequence.
 */
class LongRecordsTest {

	private static final ObjectId C1 = Tables.id("2c307faced3c65e89ce5ff285e2bafef68eefcb0");

	private static final ObjectId C2 = Tables.id("3ee86bc5bd1cc47103d6fd870c0d5fdb72844b4b");

	private static final ObjectId ZERO = ObjectId.zero(HashAlgorithm.SHA1);

	/**
	 * The identity and clock of the tables git wrote: {@code A <a@b>}, 1796137084 +0000.
	 */
	private static final PersonIdent A = new PersonIdent("A", "a@b", 1796137084L, 0);

	/**
	 * A name of 4,000 bytes in components of 250 bytes, as a files repository needs it.
	 */
	private static final String LONG = longName();

	@Test
	void aRefNameOf4000BytesSharesTheFirstBlockWithHeadAndItsLogTakesABlockOfItsOwn() throws IOException {
		byte[] table = Tables.write(WriteOptions.defaults(), 1, 3,
				List.of(RefRecord.symbolic("HEAD", 1, "refs/heads/master"), RefRecord.direct(LONG, 1, C1),
						RefRecord.direct("refs/heads/master", 1, C1)),
				List.of(LogRecord.update("HEAD", 1, ZERO, C1, A, "commit (initial): c1"),
						LogRecord.update(LONG, 2, ZERO, C1, A, "long one"),
						LogRecord.update("refs/heads/master", 3, ZERO, C1, A, "commit (initial): c1")));

		TableLayout layout = new TableLayout(table);
		// git: r@0 len 4086 padded to 4096, r@4096 len 50, then log blocks of 99, 4085
		// and 113 bytes inflated
		assertThat(layout.blocks).extracting(TableLayout.Block::type)
			.containsExactly((byte) 'r', (byte) 'r', (byte) 'g', (byte) 'g', (byte) 'g');
		assertThat(layout.blocks).extracting(TableLayout.Block::blockLen).containsExactly(4086, 50, 99, 4085, 113);
		assertThat(layout.blocks.get(1).offset()).isEqualTo(4096);
		assertThat(layout.logPosition()).isEqualTo(4146);
		try (ReftableReader reader = Tables.open(table)) {
			assertThat(reader.exactRef(LONG).name()).isEqualTo(LONG);
			List<LogRecord> logs = Tables.drainLogs(reader.logsFor(LONG));
			assertThat(logs).extracting(LogRecord::message).containsExactly("long one\n");
		}
	}

	@Test
	void aLogRecordThatFitsNoBlockIsRefusedNamingItsRefAsGitRefusesIt() {
		// git: "entry too large" for the same record (a 4,000-byte name and a 3,000-byte
		// message cut to 2,048)
		ReftableWriter writer = new ReftableWriter(java.io.OutputStream.nullOutputStream(), WriteOptions.defaults())
			.setLimits(1, 1);
		LogRecord log = LogRecord.update(LONG, 1, ZERO, C1, A, "m".repeat(3000)).truncateMessage(2048);

		assertThatThrownBy(() -> writer.addLog(log)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageStartingWith("log of refs/heads/00x")
			.hasMessageContaining("at update index 1 does not fit in a block of 4096 bytes");
	}

	@Test
	void theBulkWriterCutsMessagesToHalfABlockAsGitsMigrationDoes(@TempDir Path dir) throws IOException {
		PersonIdent who = new PersonIdent("A", "a@b", 1796137068L, 0);
		List<ReflogEntry> log = List.of(new ReflogEntry(ZERO, C1, who, "commit (initial): c1"),
				new ReflogEntry(C1, C2, who, "commit: " + "m".repeat(900_000)));
		// the cut falls into the second byte of an 'é'; the space before 'x' is the
		// 2,048th byte of the last
		List<ReflogEntry> other = List.of(new ReflogEntry(ZERO, C1, who, "commit: x" + "é".repeat(1100)),
				new ReflogEntry(C1, C2, who, "  " + "c".repeat(2047) + "\t x\n"));

		List<ReflogEntry> head;
		List<ReflogEntry> cut;
		try (ReftableInitialWriter writer = new ReftableInitialWriter(dir, WriteOptions.defaults(), 2)) {
			writer.addDirect(ascii("refs/heads/master"), 17, C2.toRaw(), null);
			writer.addDirect(ascii("refs/heads/utf"), 14, C2.toRaw(), null);
			head = writer.addReflog("HEAD", log);
			assertThat(writer.addReflog("refs/heads/master", log)).isEqualTo(head);
			cut = writer.addReflog("refs/heads/utf", other);
			writer.finish();
		}

		assertThat(head.get(0)).isSameAs(log.get(0));
		assertThat(head.get(1).message()).isEqualTo("commit: " + "m".repeat(2040));
		assertThat(cut.get(1).message()).isEqualTo("c".repeat(2047) + " ");
		byte[] table = Files.readAllBytes(dir.resolve(Files.readString(dir.resolve("tables.list")).strip()));
		TableLayout layout = new TableLayout(table);
		// git: the cut HEAD and master logs take a block each, of 2206 and 2220 bytes
		// inflated
		assertThat(layout.blocks.stream().filter((block) -> block.type() == 'g').map(TableLayout.Block::blockLen))
			.startsWith(2206, 2220);
		try (ReftableReader reader = Tables.open(table)) {
			List<LogRecord> utf = Tables.drainLogs(reader.logsFor("refs/heads/utf"));
			assertThat(utf.get(0).message()).isEqualTo("c".repeat(2047) + " \n");
			byte[] raw = ("commit: x" + "é".repeat(1100)).getBytes(StandardCharsets.UTF_8);
			assertThat(utf.get(1).message())
				.isEqualTo(new String(Arrays.copyOf(raw, 2048), StandardCharsets.UTF_8) + "\n");
			assertThat(utf.get(1).toEntry(HashAlgorithm.SHA1)).isEqualTo(cut.get(0));
			assertThat(utf.get(0).toEntry(HashAlgorithm.SHA1)).isEqualTo(cut.get(1));
		}
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

	private static String longName() {
		StringBuilder name = new StringBuilder("refs/heads");
		for (int i = 0; name.length() < 4000; i++) {
			name.append('/').append(String.format("%02d", i));
			name.append("x".repeat(Math.min(248, 4000 - name.length())));
		}
		return name.toString();
	}

}
