package io.refstore.core.reftable.format;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;

import io.refstore.core.ref.HashAlgorithm;

/**
 * Test data: random ref records of all four value types with names that share prefixes
 * the way real repositories do, sorted bytewise as the writer needs them.
 */
public final class RandomRefs {

	private static final String[] NAMESPACES = { "refs/heads/", "refs/heads/feature/", "refs/tags/v",
			"refs/remotes/origin/", "refs/pull/", "refs/notes/", "refs/heads/\u00fcn\u00ef/",
			"refs/heads/\u65e5\u672c/" };

	private static final String[] WORDS = { "main", "fix", "a", "a-b", "a.b", "a/b", "release", "topic", "x{y}",
			"-dash" };

	private RandomRefs() {
	}

	/**
	 * {@code count} records with distinct names, update indices in {@code [min, max]},
	 * sorted by name bytes.
	 */
	public static List<RefRecord> generate(long seed, int count, long min, long max, HashAlgorithm hash) {
		SplittableRandom random = new SplittableRandom(seed);
		TreeMap<byte[], RefRecord> byName = new TreeMap<>(Arrays::compareUnsigned);
		while (byName.size() < count) {
			String name = randomName(random);
			long updateIndex = min + random.nextLong(max - min + 1);
			RefRecord rec = switch (random.nextInt(10)) {
				case 0 -> RefRecord.deletion(name, updateIndex);
				case 1 -> RefRecord.symbolic(name, updateIndex, randomName(random));
				case 2, 3 -> RefRecord.peeled(name, updateIndex, Tables.id(hash, random.nextLong()),
						Tables.id(hash, random.nextLong()));
				default -> RefRecord.direct(name, updateIndex, Tables.id(hash, random.nextInt(count / 3 + 1)));
			};
			byName.put(name.getBytes(StandardCharsets.UTF_8), rec);
		}
		return new ArrayList<>(byName.values());
	}

	public static String randomName(SplittableRandom random) {
		if (random.nextInt(50) == 0) {
			return random.nextBoolean() ? "HEAD" : "ORIG_HEAD";
		}
		StringBuilder name = new StringBuilder(NAMESPACES[random.nextInt(NAMESPACES.length)]);
		name.append(WORDS[random.nextInt(WORDS.length)]);
		int n = random.nextInt(4);
		for (int i = 0; i < n; i++) {
			name.append(random.nextBoolean() ? '/' : '-').append(random.nextInt(1000));
		}
		return name.toString();
	}

	/** A comparable description of every field of a ref record. */
	public static String describe(RefRecord rec) {
		StringBuilder out = new StringBuilder(rec.name()).append('@').append(rec.updateIndex()).append(' ');
		switch (rec.valueType()) {
			case RefRecord.DELETION -> out.append("deleted");
			case RefRecord.SYMREF ->
				out.append("-> ").append(new String(rec.targetBuffer(), 0, rec.targetLength(), StandardCharsets.UTF_8));
			default -> {
				out.append(hex(rec.idBuffer(), rec.hashSize()));
				if (rec.valueType() == RefRecord.VALUE_PEELED) {
					out.append(" ^").append(hex(rec.peeledBuffer(), rec.hashSize()));
				}
			}
		}
		return out.toString();
	}

	public static List<String> describe(List<RefRecord> records) {
		return records.stream().map(RandomRefs::describe).toList();
	}

	private static String hex(byte[] raw, int length) {
		return java.util.HexFormat.of().formatHex(raw, 0, length);
	}

}
