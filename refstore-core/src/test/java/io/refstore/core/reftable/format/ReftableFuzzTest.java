package io.refstore.core.reftable.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * Seeded mutation fuzzing: damaged tables must produce either a correct-looking read or a
 * {@link CorruptRefStoreException}, never another exception, never a hang.
 */
class ReftableFuzzTest {

	private static final int MUTATIONS = 100_000;

	/**
	 * No cursor over a table of n bytes can legitimately yield more records than this.
	 */
	private static final int MAX_RECORDS = 50_000;

	@Test
	void mutatedTablesFailOnlyWithCorruptRefStoreException() {
		List<byte[]> seeds = seedTables();
		Assertions.assertTimeoutPreemptively(Duration.ofMinutes(4), () -> {
			// a fixed seed keeps failures reproducible; -Dreftable.fuzz.seed=N explores
			// other mutations
			SplittableRandom random = new SplittableRandom(Long.getLong("reftable.fuzz.seed", 20240601L));
			int corrupt = 0;
			for (int i = 0; i < MUTATIONS; i++) {
				byte[] original = seeds.get(random.nextInt(seeds.size()));
				byte[] other = seeds.get(random.nextInt(seeds.size()));
				StringBuilder what = new StringBuilder();
				byte[] mutated = mutate(original, other, random, what);
				try {
					exercise(mutated);
				}
				catch (CorruptRefStoreException expected) {
					assertThat(expected.getMessage()).contains("(memory)").contains("offset 0x");
					corrupt++;
				}
				catch (Throwable ex) {
					fail("mutation " + i + " (" + what + ") of a " + original.length + "-byte table escaped with " + ex,
							ex);
				}
			}
			// most mutations must be noticed, not silently read as something else
			assertThat(corrupt).isGreaterThan(MUTATIONS / 4);
		});
	}

	private static List<byte[]> seedTables() {
		List<byte[]> out = new ArrayList<>();
		out.add(ReftableReaderTest.sequentialTable(120, 256, true));
		out.add(Tables.write(WriteOptions.defaults().withBlockSize(256).withRestartInterval(3), 1, 9,
				RandomRefs.generate(1, 80, 1, 9, HashAlgorithm.SHA1), LogFixtures.logs(40, 9)));
		out.add(Tables.write(WriteOptions.defaults(), 1, 3, RandomRefs.generate(2, 40, 1, 3, HashAlgorithm.SHA1),
				LogFixtures.logs(10, 3)));
		out.add(Tables.write(WriteOptions.defaults().withBlockSize(512), 7, 7, List.of(), LogFixtures.logs(60, 7)));
		out.add(Tables.write(WriteOptions.defaults().withHash(HashAlgorithm.SHA256).withBlockSize(256), 1, 2,
				RandomRefs.generate(3, 30, 1, 2, HashAlgorithm.SHA256), List.of()));
		return out;
	}

	private static byte[] mutate(byte[] table, byte[] other, SplittableRandom random, StringBuilder what) {
		byte[] out = table.clone();
		int kind = random.nextInt(7);
		int at = random.nextInt(out.length);
		switch (kind) {
			case 0 -> {
				int bits = 1 + random.nextInt(3);
				for (int b = 0; b < bits; b++) {
					int pos = (b == 0) ? at : random.nextInt(out.length);
					out[pos] ^= (byte) (1 << random.nextInt(8));
				}
				what.append(bits).append(" bit flips near ").append(at);
			}
			case 1 -> {
				out = Arrays.copyOf(out, at);
				what.append("truncated to ").append(at);
			}
			case 2 -> {
				int length = 1 + random.nextInt(Math.min(32, out.length - at));
				byte value = (byte) (random.nextBoolean() ? random.nextInt(256) : (random.nextBoolean() ? 0 : 0xff));
				Arrays.fill(out, at, at + length, value);
				what.append("run of ").append(length).append(" bytes ").append(value).append(" at ").append(at);
			}
			case 3 -> {
				int from = random.nextInt(other.length);
				int length = 1 + random.nextInt(Math.min(Math.min(256, other.length - from), out.length - at));
				System.arraycopy(other, from, out, at, length);
				what.append("splice of ").append(length).append(" bytes from ").append(from).append(" to ").append(at);
			}
			case 4 -> {
				int length = 1 + random.nextInt(16);
				byte[] grown = new byte[out.length + length];
				System.arraycopy(out, 0, grown, 0, at);
				random.nextBytes(Arrays.copyOfRange(grown, at, at + length));
				System.arraycopy(out, at, grown, at + length, out.length - at);
				out = grown;
				what.append("insertion of ").append(length).append(" bytes at ").append(at);
			}
			case 5 -> {
				int length = 1 + random.nextInt(Math.min(16, out.length - at));
				byte[] shrunk = new byte[out.length - length];
				System.arraycopy(out, 0, shrunk, 0, at);
				System.arraycopy(out, at + length, shrunk, at, out.length - at - length);
				out = shrunk;
				what.append("deletion of ").append(length).append(" bytes at ").append(at);
			}
			default -> {
				// damage the footer's fields and then repair its CRC, so that the offsets
				// themselves are tested
				int footerSize = ReftableConstants.footerSize(out[4] == 2 ? 2 : 1);
				int footer = out.length - footerSize;
				int field = footer + ReftableConstants.headerSize(out[4] == 2 ? 2 : 1) + random.nextInt(40);
				out[field] = (byte) random.nextInt(256);
				CRC32 crc = new CRC32();
				crc.update(out, footer, footerSize - 4);
				ReftableConstants.putI32(out, out.length - 4, (int) crc.getValue());
				what.append("footer byte ").append(field - footer).append(" changed, CRC repaired");
			}
		}
		return out;
	}

	/** Reads everything a store would read from a table. */
	private static void exercise(byte[] table) throws IOException {
		try (ReftableReader reader = Tables.open(table)) {
			List<String> names = new ArrayList<>();
			try (RecordCursor<RefRecord> refs = reader.allRefs()) {
				int n = 0;
				while (refs.next()) {
					if (++n > MAX_RECORDS) {
						fail("ref iteration does not end");
					}
					if (n % 7 == 0) {
						names.add(refs.record().name());
					}
					refs.record().toRef(reader.hashAlgorithm());
				}
			}
			count(reader.allLogs());
			names.add("refs/heads/branch-00042");
			names.add("HEAD");
			for (String name : names) {
				reader.exactRef(name);
				count(reader.refsWithPrefix(name.substring(0, name.length() / 2)));
				count(reader.logsFor(name));
			}
			count(reader.seekLog("refs/heads/branch-00007", 3));
			count(reader.refsFor(Tables.id(reader.hashAlgorithm(), 7)));
			count(reader.refsFor(ObjectId.zero(reader.hashAlgorithm())));
			try (RecordCursor<LogRecord> logs = reader.allLogs()) {
				while (logs.next()) {
					logs.record().toEntry(reader.hashAlgorithm());
				}
			}
		}
	}

	private static void count(RecordCursor<?> cursor) throws IOException {
		try (cursor) {
			int n = 0;
			while (cursor.next()) {
				if (++n > MAX_RECORDS) {
					fail("cursor does not end");
				}
			}
		}
	}

}
