package io.refstore.core.txn;

import java.util.SplittableRandom;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class UpdateChecksTest {

	@Test
	void conflictsInATransactionWithRefsBelowAreFoundFromTheNextNameAlone() {
		SplittableRandom random = new SplittableRandom(7);
		String[] parts = { "a", "a-b", "a.b", "b", "\u00e9", "\uD83D\uDE00", "\uE000" };
		for (int round = 0; round < 300; round++) {
			TreeMap<String, Boolean> names = new TreeMap<>(UpdateChecks::compareNames);
			for (int i = 0; i < 12; i++) {
				names.put(randomName(random, parts), true);
			}
			for (int probe = 0; probe < 20; probe++) {
				String name = randomName(random, parts);
				assertThat(UpdateChecks.conflictInTransaction(name, names) != null).as("%s in %s", name, names.keySet())
					.isEqualTo(conflictsByVisitingEveryName(name, names));
			}
		}
		TreeMap<String, Boolean> names = new TreeMap<>(UpdateChecks::compareNames);
		for (String name : new String[] { "refs/heads/a/b/c", "refs/heads/a-b", "refs/heads/x" }) {
			names.put(name, true);
		}
		assertThat(UpdateChecks.conflictInTransaction("refs/heads/a", names))
			.isEqualTo("cannot process 'refs/heads/a' and 'refs/heads/a/b/c' at the same time");
		// a ref above is left to the check of that ref, which git blames for the conflict
		assertThat(UpdateChecks.conflictInTransaction("refs/heads/x/y", names)).isNull();
		assertThat(UpdateChecks.conflictInTransaction("refs/heads/a-b", names)).isNull();
	}

	@Test
	void namesCompareAsTheirUtf8Bytes() {
		SplittableRandom random = new SplittableRandom(11);
		String[] parts = { "a", "A", "-", ".", "/", "\u007f", "\u0080", "\u00e9", "\u07ff", "\u0800", "\ud7ff",
				"\ue000", "\uffff", "\uD800\uDC00", "\uD83D\uDE00", "\uDBFF\uDFFF" };
		for (int i = 0; i < 20_000; i++) {
			String a = randomText(random, parts);
			String b = randomText(random, parts);
			int bytes = java.util.Arrays.compareUnsigned(a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
					b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
			assertThat(Integer.signum(UpdateChecks.compareNames(a, b))).as("%s vs %s", a, b)
				.isEqualTo(Integer.signum(bytes));
		}
	}

	private static String randomText(SplittableRandom random, String[] parts) {
		StringBuilder text = new StringBuilder();
		for (int n = random.nextInt(0, 5); n > 0; n--) {
			text.append(parts[random.nextInt(parts.length)]);
		}
		return text.toString();
	}

	private static boolean conflictsByVisitingEveryName(String name, TreeMap<String, Boolean> names) {
		for (String other : names.keySet()) {
			if (other.startsWith(name + "/")) {
				return true;
			}
		}
		return false;
	}

	private static String randomName(SplittableRandom random, String[] parts) {
		StringBuilder name = new StringBuilder("refs");
		for (int depth = random.nextInt(1, 4); depth > 0; depth--) {
			name.append('/').append(parts[random.nextInt(parts.length)]);
		}
		return name.toString();
	}

}
