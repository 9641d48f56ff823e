package io.refstore.core.txn;

import java.util.SplittableRandom;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class UpdateChecksTest {

	@Test
	void conflictsInATransactionAreFoundFromParentsAndTheNextNameAlone() {
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
		assertThat(UpdateChecks.conflictInTransaction("refs/heads/x/y", names))
			.isEqualTo("cannot process 'refs/heads/x' and 'refs/heads/x/y' at the same time");
		assertThat(UpdateChecks.conflictInTransaction("refs/heads/a-b", names)).isNull();
	}

	private static boolean conflictsByVisitingEveryName(String name, TreeMap<String, Boolean> names) {
		for (String other : names.keySet()) {
			if (!other.equals(name) && (other.startsWith(name + "/") || name.startsWith(other + "/"))) {
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
