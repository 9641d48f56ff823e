package io.refstore.web.schedules;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.refstore.batch.api.RefJobType;

/**
 * When a schedule fires, in words, for the common forms of Quartz's cron; the forms the
 * words do not read have none, so that the page shows the expression alone rather than
 * words that are wrong.
 */
class CronWordsTest {

	private final CronWords words = new CronWords();

	@ParameterizedTest(name = "{0} in {1} is \"{2}\"")
	@CsvSource(delimiter = '|', textBlock = """
			0 0 2 * * ?             | UTC           | every day at 02:00 UTC
			0 30 2 * * ?            | Europe/Paris  | every day at 02:30 Europe/Paris
			0 0 2,14 * * ?          | UTC           | every day at 02:00 and 14:00 UTC
			15 0 2 * * ?            | UTC           | every day at 02:00:15 UTC
			0 */15 * * * ?          | UTC           | every 15 minutes
			0 0/5 * * * ?           | UTC           | every 5 minutes
			0 * * * * ?             | UTC           | every minute
			30 * * * * ?            | UTC           | at second 30 of every minute
			*/10 * * * * ?          | UTC           | every 10 seconds
			0 0 * * * ?             | UTC           | every hour
			0 30 * * * ?            | UTC           | every hour at minute 30
			0 0 */2 * * ?           | UTC           | every 2 hours from 00:00 UTC
			0 0 8-18 * * ?          | UTC           | every hour from 08:00 to 18:00 UTC
			0 */10 9-17 ? * MON-FRI | UTC           | every 10 minutes from 09:00 to 17:59 UTC on Monday to Friday
			0 30 6 ? * MON-FRI      | Asia/Tokyo    | every Monday to Friday at 06:30 Asia/Tokyo
			0 15 3 ? * MON          | UTC           | every Monday at 03:15 UTC
			0 0 3 ? * 2,4,6         | UTC           | every Monday, Wednesday and Friday at 03:00 UTC
			0 0 3 1 * ?             | UTC           | on day 1 of every month at 03:00 UTC
			0 0 3 1,15 * ?          | UTC           | on days 1 and 15 of every month at 03:00 UTC
			0 0 0 1 1 ?             | UTC           | on day 1 of January at 00:00 UTC
			0 0 12 L * ?            | UTC           | on the last day of every month at 12:00 UTC
			0 0 4 * JUL,AUG ?       | UTC           | every day in July and August at 04:00 UTC
			0 0 4 ? * SUN           |               | every Sunday at 04:00 UTC
			""")
	void commonFormsInWords(String cron, String zone, String expected) {
		assertThat(this.words.words(cron, zone)).isEqualTo(expected);
	}

	@Test
	void formsTheWordsDoNotReadHaveNone() {
		for (String cron : List.of("0 0 12 ? * 6#3", "0 0 12 LW * ?", "0 0 12 * * ? 2030", "0 5/15 * * * ?",
				"0 0,30 * * * ?", "0 * */2 * * ?", "0 0/0 * * * ?", "not a cron", "0 61 * * * ?")) {
			assertThat(this.words.words(cron, "UTC")).as(cron).isNull();
		}
		assertThat(this.words.words(null, "UTC")).isNull();
	}

	@Test
	void aOneOffScheduleIsOnceAtItsTimeInUtc() {
		Schedule once = new Schedule("once", RefJobType.MAINTAIN, Schedule.TargetKind.REPOSITORY, "demo.git", Map.of(),
				null, "Europe/Paris", Instant.parse("2026-12-24T06:00:00Z"), Schedule.Misfire.SKIP, false, "operator",
				null, 0, null, List.of());
		assertThat(this.words.words(once)).isEqualTo("once at 2026-12-24 06:00 UTC");
		Schedule nightly = new Schedule("nightly", RefJobType.MAINTAIN, Schedule.TargetKind.REPOSITORY, "demo.git",
				Map.of(), "0 0 2 * * ?", "UTC", null, Schedule.Misfire.SKIP, false, "operator", null, 0, null,
				List.of());
		assertThat(this.words.words(nightly)).isEqualTo("every day at 02:00 UTC");
	}

}
