package io.refstore.web.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The growth rule: runs a day or more apart give a rate per week, runs minutes apart only
 * their change (one ref added in 11 minutes is not 7 a week), flagged fast only once the
 * change alone is above a week's alert rate.
 */
class GrowthTest {

	private static final Instant AT = Instant.parse("2026-12-03T10:00:00Z");

	@Test
	void runsMinutesApartTellTheChangeNotARatePerWeek() {
		Growth growth = Growth.between(100, AT, 101, AT.plus(Duration.ofMinutes(11)), 10_000);
		assertThat(growth.perWeek()).isNull();
		assertThat(growth.change()).isEqualTo(1);
		assertThat(growth.since()).isEqualTo(AT);
		assertThat(growth.fast()).isFalse();
	}

	@Test
	void runsMinutesApartAreFastOnlyWhenTheChangeAloneIsAboveAWeeksAlertRate() {
		assertThat(Growth.between(0, AT, 10_000, AT.plusSeconds(60), 10_000).fast()).isFalse();
		assertThat(Growth.between(0, AT, 10_001, AT.plusSeconds(60), 10_000).fast()).isTrue();
	}

	@Test
	void runsADayOrMoreApartGiveARatePerWeek() {
		Growth daily = Growth.between(0, AT, 2_000, AT.plus(Duration.ofDays(1)), 10_000);
		assertThat(daily.perWeek()).isEqualTo(14_000);
		assertThat(daily.change()).isEqualTo(2_000);
		assertThat(daily.fast()).isTrue();
		Growth shrinking = Growth.between(1_000, AT, 400, AT.plus(Duration.ofDays(3)), 10_000);
		assertThat(shrinking.perWeek()).isEqualTo(-1_400);
		assertThat(shrinking.fast()).isFalse();
	}

	@Test
	void eachRunOfAHistoryGetsTheRuleAppliedToTheRunsUpToIt() {
		List<InventoryRecord> runs = List.of(run(AT, 10), run(AT.plus(Duration.ofMinutes(11)), 11),
				run(AT.plus(Duration.ofDays(2)), 30));
		assertThat(Growth.series(runs, 10_000)).extracting(Growth::perWeek, Growth::change)
			.containsExactly(tuple(null, null), tuple(null, 1L), tuple(70L, 20L));
	}

	private static InventoryRecord run(Instant at, long refs) {
		return new InventoryRecord(1, "a.git", at, "files", refs, 0, null, null, refs, 0L, null, 0, List.of());
	}

}
