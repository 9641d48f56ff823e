package io.refstore.core.reftable.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import io.refstore.core.ref.HashAlgorithm;

/**
 * A {@link RefLookup} answers what a new cursor of the merged stack answers, whatever
 * order it is asked in: names of several tables with tombstones and small blocks (so
 * lookups cross blocks and index levels), asked in ascending order, in ascending order
 * with repeats, and at random.
 */
class RefLookupTest {

	@Test
	void answersAsTheMergedTableInAnyOrder() throws IOException {
		List<ReftableReader> tables = new ArrayList<>();
		TreeSet<String> known = new TreeSet<>();
		for (int t = 0; t < 4; t++) {
			List<RefRecord> refs = RandomRefs.generate(100 + t, (t == 0) ? 3000 : 400, t + 1, t + 1,
					HashAlgorithm.SHA1);
			refs.forEach((ref) -> known.add(ref.name()));
			tables.add(Tables
				.open(Tables.write(WriteOptions.defaults().withBlockSize(256), t + 1, t + 1, refs, List.of())));
		}
		MergedTable merged = new MergedTable(tables);
		SplittableRandom random = new SplittableRandom(7);
		List<String> asked = new ArrayList<>(known);
		for (int i = 0; i < 2000; i++) {
			asked.add(RandomRefs.randomName(random));
		}
		List<String> ascending = new ArrayList<>(new TreeSet<>(asked));
		List<String> withRepeats = new ArrayList<>();
		for (String name : ascending) {
			withRepeats.add(name);
			if (random.nextInt(5) == 0) {
				withRepeats.add(name);
			}
		}
		List<String> shuffled = new ArrayList<>(asked);
		Collections.shuffle(shuffled, new java.util.Random(3));
		for (List<String> order : List.of(ascending, withRepeats, shuffled)) {
			try (RefLookup lookup = merged.lookup(); RefLookup below = merged.lookup()) {
				for (String name : order) {
					RefRecord expected = merged.exactRef(name);
					RefRecord found = lookup.exactRef(name);
					assertThat((found != null) ? RandomRefs.describe(found) : null).as(name)
						.isEqualTo((expected != null) ? RandomRefs.describe(expected) : null);
					assertThat(below.firstWithPrefix(name + "/")).as(name + "/")
						.isEqualTo(firstName(merged, name + "/"));
					String dash = name.substring(0, Math.max(1, name.length() - 2));
					assertThat(below.firstWithPrefix(dash)).as(dash).isEqualTo(firstName(merged, dash));
				}
			}
		}
	}

	@Test
	void aCursorReadToItsEndStillFindsWhatLiesAfterTheKeyItSought() throws IOException {
		List<RefRecord> refs = RandomRefs.generate(5, 500, 1, 1, HashAlgorithm.SHA1);
		ReftableReader table = Tables
			.open(Tables.write(WriteOptions.defaults().withBlockSize(256), 1, 1, refs, List.of()));
		byte[] first = refs.get(0).name().getBytes(java.nio.charset.StandardCharsets.UTF_8);
		byte[] middle = refs.get(250).name().getBytes(java.nio.charset.StandardCharsets.UTF_8);
		try (TableCursor<RefRecord> cursor = table.refCursor()) {
			cursor.seek(first, first.length);
			while (cursor.next()) {
				// to the end
			}
			assertThat(cursor.seekForward(middle, middle.length).next()).isTrue();
			assertThat(cursor.record().name()).isEqualTo(refs.get(250).name());
		}
	}

	@Test
	void tellsWhetherARefHasALiveLogAsTheMergedTableDoes() throws IOException {
		List<LogRecord> first = LogFixtures.logs(3000, 4);
		List<LogRecord> hiding = new ArrayList<>();
		List<LogRecord> newer = new ArrayList<>();
		SplittableRandom random = new SplittableRandom(11);
		TreeSet<String> names = new TreeSet<>();
		first.forEach((log) -> names.add(log.refName()));
		for (String name : names) {
			switch (random.nextInt(4)) {
				case 0 -> {
					// every entry it may have hidden
					for (long index = 4; index >= 1; index--) {
						hiding.add(LogRecord.deletion(name, index));
					}
				}
				case 1 -> {
					for (long index = 4; index >= 1; index--) {
						hiding.add(LogRecord.deletion(name, index));
					}
					newer.add(LogRecord.deletion(name, 6));
				}
				case 2 -> hiding.add(LogRecord.deletion(name, 1));
				default -> {
				}
			}
		}
		List<ReftableReader> tables = new ArrayList<>();
		for (List<LogRecord> logs : List.of(first, hiding, newer)) {
			tables.add(Tables.open(Tables.write(WriteOptions.defaults().withBlockSize(256), 1, 6, List.of(), logs)));
		}
		MergedTable merged = new MergedTable(tables);
		List<String> asked = new ArrayList<>(names);
		asked.add("refs/heads/branch");
		asked.add("refs/heads/zzz");
		asked.add("refs/heads/branch-00001x");
		List<String> shuffled = new ArrayList<>(asked);
		Collections.shuffle(shuffled, new java.util.Random(5));
		int live = 0;
		for (List<String> order : List.of(new ArrayList<>(new TreeSet<>(asked)), shuffled)) {
			try (RefLookup lookup = merged.lookup()) {
				for (String name : order) {
					boolean expected;
					try (RecordCursor<LogRecord> logs = merged.logsFor(name)) {
						expected = logs.next();
					}
					assertThat(lookup.hasLog(name)).as(name).isEqualTo(expected);
					live += expected ? 1 : 0;
				}
			}
		}
		assertThat(live).as("refs with live logs").isBetween(asked.size() / 2, asked.size() * 2 - 6);
	}

	private static String firstName(MergedTable merged, String prefix) throws IOException {
		try (RecordCursor<RefRecord> cursor = merged.refsWithPrefix(prefix)) {
			return cursor.next() ? cursor.record().name() : null;
		}
	}

}
