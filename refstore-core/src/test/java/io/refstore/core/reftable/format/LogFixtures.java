package io.refstore.core.reftable.format;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;

/**
 * Test data: reflog records in the writer's order (ref name ascending, update index
 * descending).
 */
public final class LogFixtures {

	private static final int[] ZONES = { 530, -800, 0, 100, -1230, 1345 };

	private LogFixtures() {
	}

	/**
	 * {@code count} log records over refs {@code refs/heads/branch-NNNNN}, indices at
	 * most {@code max}.
	 */
	public static List<LogRecord> logs(int count, long max) {
		SplittableRandom random = new SplittableRandom(count);
		List<LogRecord> out = new ArrayList<>();
		int ref = 0;
		while (out.size() < count) {
			String name = String.format("refs/heads/branch-%05d", ref++);
			int entries = 1 + random.nextInt(4);
			for (long index = Math.min(max, entries); index >= 1 && out.size() < count; index--) {
				PersonIdent who = new PersonIdent("C O Mitter " + random.nextInt(100), "c" + ref + "@example.com",
						1700000000L + random.nextInt(1_000_000), ZONES[random.nextInt(ZONES.length)]);
				ObjectId oldId = (index == 1) ? ObjectId.zero(HashAlgorithm.SHA1)
						: Tables.id(HashAlgorithm.SHA1, ref * 10 + index - 1);
				out.add((random.nextInt(10) == 0) ? LogRecord.deletion(name, index)
						: LogRecord.update(name, index, oldId, Tables.id(HashAlgorithm.SHA1, ref * 10 + index), who,
								"commit: message " + random.nextInt() + "\n"));
			}
		}
		return out;
	}

	public static String describe(LogRecord log) {
		String key = log.refName() + "@" + log.updateIndex();
		if (log.isDeletion()) {
			return key + " deleted";
		}
		HexFormat hex = HexFormat.of();
		return key + " " + hex.formatHex(log.oldIdBuffer(), 0, log.hashSize()) + " "
				+ hex.formatHex(log.newIdBuffer(), 0, log.hashSize()) + " " + log.committerName() + " <" + log.email()
				+ "> " + log.time() + " " + log.tzOffset() + " "
				+ new String(log.message().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
	}

	public static List<String> describe(List<LogRecord> logs) {
		return logs.stream().map(LogFixtures::describe).toList();
	}

}
