package io.refstore.core.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

class UpdateChecksTest {

	@Test
	void conflictsInATransactionAreFoundInTheSortedNamesAsByVisitingEveryName() {
		SplittableRandom random = new SplittableRandom(7);
		String[] parts = { "a", "a-b", "a.b", "b", "\u00e9", "\uD83D\uDE00", "\uE000" };
		for (int round = 0; round < 300; round++) {
			TreeSet<String> sorted = new TreeSet<>(UpdateChecks.NAME_ORDER);
			for (int i = 0; i < 12; i++) {
				sorted.add(randomName(random, parts));
			}
			List<String> unsorted = new ArrayList<>(sorted);
			for (int probe = 0; probe < 20; probe++) {
				String name = randomName(random, parts);
				assertThat(UpdateChecks.conflictInTransaction(name, sorted)).as("%s in %s", name, sorted)
					.isEqualTo(UpdateChecks.conflictInTransaction(name, unsorted));
			}
		}
		TreeSet<String> names = new TreeSet<>(UpdateChecks.NAME_ORDER);
		names.addAll(List.of("refs/heads/a/b/c", "refs/heads/a-b", "refs/heads/x"));
		assertThat(UpdateChecks.conflictInTransaction("refs/heads/a", names))
			.isEqualTo("cannot process 'refs/heads/a' and 'refs/heads/a/b/c' at the same time");
		assertThat(UpdateChecks.conflictInTransaction("refs/heads/x/y", names))
			.isEqualTo("cannot process 'refs/heads/x' and 'refs/heads/x/y' at the same time");
		assertThat(UpdateChecks.conflictInTransaction("refs/heads/a-b", names)).isNull();
	}

	/** A transaction creating a million refs asks once per ref: visiting every name each time is quadratic. */
	@Test
	void conflictChecksOfAHundredThousandNewRefsAreNotQuadratic() {
		TreeSet<String> names = new TreeSet<>(UpdateChecks.NAME_ORDER);
		for (int i = 0; i < 100_000; i++) {
			names.add(String.format("refs/heads/feature/b%07d", i));
		}
		assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
			for (String name : names) {
				assertThat(UpdateChecks.conflictInTransaction(name, names)).isNull();
			}
		});
	}

	private static String randomName(SplittableRandom random, String[] parts) {
		StringBuilder name = new StringBuilder("refs");
		for (int depth = random.nextInt(1, 4); depth > 0; depth--) {
			name.append('/').append(parts[random.nextInt(parts.length)]);
		}
		return name.toString();
	}

}
