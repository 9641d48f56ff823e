package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.refstore.batch.api.RefJobType;
import io.refstore.web.campaigns.CampaignTarget;

/**
 * How the console's pages write times, durations, counts and names: one time format (UTC,
 * zone named, from every kind of time the pages hold), words instead of constants.
 */
class ConsoleFormatTest {

	private final ConsoleFormat fmt = new ConsoleFormat();

	@Test
	void everyKindOfTimeReadsTheSameInUtcWithTheZoneNamed() {
		Instant instant = Instant.parse("2026-12-01T13:44:11.995394155Z");
		// a server in Tokyo: its local times are 9 hours ahead of UTC
		ConsoleFormat fmt = new ConsoleFormat(ZoneId.of("Asia/Tokyo"));
		LocalDateTime local = LocalDateTime.of(2026, 12, 1, 22, 44, 11, 995394155);
		assertThat(fmt.time(local)).isEqualTo("2026-12-01 13:44:11 UTC");
		assertThat(fmt.time(local.toString())).isEqualTo("2026-12-01 13:44:11 UTC");
		assertThat(fmt.iso(local)).isEqualTo("2026-12-01T13:44:11.995394155Z");
		local = LocalDateTime.ofInstant(instant, ZoneId.systemDefault());
		assertThat(this.fmt.time(instant)).isEqualTo("2026-12-01 13:44:11 UTC");
		assertThat(this.fmt.time(local)).isEqualTo("2026-12-01 13:44:11 UTC");
		assertThat(this.fmt.time(local.toString())).isEqualTo("2026-12-01 13:44:11 UTC");
		assertThat(this.fmt.time("2026-12-01T14:44:11.995+01:00")).isEqualTo("2026-12-01 13:44:11 UTC");
		assertThat(this.fmt.time(OffsetDateTime.parse("2026-12-01T08:44:11-05:00")))
			.isEqualTo("2026-12-01 13:44:11 UTC");
		assertThat(this.fmt.time(null)).isEmpty();
		assertThat(this.fmt.iso(local)).isEqualTo("2026-12-01T13:44:11.995394155Z");
		assertThat(this.fmt.iso(null)).isEmpty();
	}

	@Test
	void aPathBreaksOnlyAfterItsSlashes() {
		assertThat(this.fmt.pathParts("refs/heads/team-1/topic")).containsExactly("refs/", "heads/", "team-1/",
				"topic");
		assertThat(this.fmt.pathParts("HEAD")).containsExactly("HEAD");
		assertThat(this.fmt.pathParts("refs/odd/")).containsExactly("refs/", "odd/");
		assertThat(this.fmt.pathParts("")).isEmpty();
		assertThat(this.fmt.signedCount(1200)).isEqualTo("+1,200");
		assertThat(this.fmt.signedCount(-3)).isEqualTo("-3");
	}

	@Test
	void durationsBetweenTwoTimes() {
		Instant start = Instant.parse("2026-12-01T13:00:00Z");
		assertThat(this.fmt.between(start, start.plusMillis(4200))).isEqualTo("4.2s");
		assertThat(this.fmt.between(start, start.plusSeconds(123))).isEqualTo("2m 03s");
		assertThat(this.fmt.between(start, start.plus(Duration.ofHours(1).plusSeconds(62)))).isEqualTo("1h 01m 02s");
		assertThat(this.fmt.between(null, start)).isEmpty();
		assertThat(this.fmt.between(Instant.now().minusSeconds(5), null)).matches("[4-9]\\.\\ds");
	}

	@Test
	void namesInWords() {
		assertThat(this.fmt.jobType(RefJobType.MIGRATE)).isEqualTo("Migration");
		assertThat(this.fmt.jobType(RefJobType.VERIFY)).isEqualTo("Verification");
		assertThat(this.fmt.jobType(null)).isEqualTo("Unknown job");
		assertThat(this.fmt.words(CampaignTarget.State.SKIPPED_BUSY)).isEqualTo("Skipped busy");
		assertThat(this.fmt.words(null)).isEmpty();
		Map<String, String> parameters = new LinkedHashMap<>();
		parameters.put("force", "true");
		parameters.put("chunkSize", "500");
		assertThat(this.fmt.parameters(parameters)).isEqualTo("force=true\nchunkSize=500");
		assertThat(this.fmt.parameters(Map.of())).isEqualTo("(none)");
	}

	@Test
	void theJobAnAuditEntryNames() {
		assertThat(this.fmt.jobOf("migrateRefsJob #12")).isEqualTo(12L);
		assertThat(this.fmt.jobOf("nightly")).isNull();
		assertThat(this.fmt.jobOf("refs #x")).isNull();
		assertThat(this.fmt.jobOf(null)).isNull();
		assertThat(this.fmt.auditLink("job.launch", "migrateRefsJob #12")).isEqualTo("/jobs/12");
		assertThat(this.fmt.auditLink("campaign.cancel", "3")).isEqualTo("/campaigns/3");
		assertThat(this.fmt.auditLink("schedule.pause", "nightly run")).isEqualTo("/schedules/nightly%20run/edit");
		assertThat(this.fmt.auditLink("schedule.delete", "nightly")).isNull();
		assertThat(this.fmt.auditLink("ref.update", "refs/heads/main")).isNull();
	}

	@Test
	void countsAndSizes() {
		assertThat(this.fmt.count(1_000_000)).isEqualTo("1,000,000");
		assertThat(this.fmt.bytes(222_624)).isEqualTo("217.4 KiB");
		assertThat(this.fmt.bytes(512)).isEqualTo("512 B");
	}

	@Test
	void aBusyRepositoryNamesTheJobHoldingItAndWhatToDo() {
		assertThat(ConsoleFormat.busyRepository("big.git", 12L, io.refstore.batch.api.RefJobType.ROLLBACK))
			.isEqualTo("Job 12 (Rollback) is changing big.git now, and one job at a time may: wait for it to end, "
					+ "or stop it, then try again.");
		assertThat(ConsoleFormat.busyRepository(null, 12L, null)).startsWith("Job 12 is changing this repository now");
		assertThat(ConsoleFormat.busyRepository("big.git", null, null))
			.isEqualTo("Another job is being launched on big.git right now: try again in a moment.");
	}

}
