package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;

/**
 * A job's steps from the start: the ones still to come waiting, the running one counted
 * by its fraction in the overall progress, the ones a restart did not run again done
 * earlier, the ones a stopped job never reached not run; the job's list page paged and
 * its links keeping the filters.
 */
class StepOverviewTest {

	private static final List<String> MIGRATION = List.of("snapshotRefsStep", "copyRefsStep", "copyReflogsStep",
			"verifyRefsStep", "swapStorageStep");

	private static final LocalDateTime AT = LocalDateTime.of(2026, 12, 1, 13, 44, 11);

	private static JobSummary.StepSummary step(String name, JobStatus status, long done, long total) {
		return new JobSummary.StepSummary(1, name, status, "", done, total, 0, 0, -1, AT,
				(status == JobStatus.STARTED) ? null : AT.plusSeconds(1), false, null);
	}

	private static JobSummary migration(JobStatus status, JobSummary.StepSummary... steps) {
		boolean ended = status != JobStatus.STARTED && status != JobStatus.STARTING;
		return new JobSummary(12, 3, "migrateRefsJob", RefJobType.MIGRATE, status, status.name(), "", "demo.git",
				"admin", Map.of(), Map.of(), AT, AT, ended ? AT.plusSeconds(9) : null, List.of(steps), false);
	}

	@Test
	void aRunningMigrationListsTheStepsToComeAndCountsTheRunningOneByItsFraction() {
		StepOverview overview = StepOverview
			.of(migration(JobStatus.STARTED, step("snapshotRefsStep", JobStatus.COMPLETED, 1, 1),
					step("copyRefsStep", JobStatus.STARTED, 250, 1000)), MIGRATION);
		assertThat(overview.rows())
			.extracting(StepOverview.Row::name, StepOverview.Row::state, StepOverview.Row::status)
			.containsExactly(tuple("snapshotRefsStep", StepOverview.State.RAN, "Completed"),
					tuple("copyRefsStep", StepOverview.State.RAN, "Running"),
					tuple("copyReflogsStep", StepOverview.State.WAITING, "Waiting"),
					tuple("verifyRefsStep", StepOverview.State.WAITING, "Waiting"),
					tuple("swapStorageStep", StepOverview.State.WAITING, "Waiting"));
		assertThat(overview.done()).isEqualTo(1);
		assertThat(overview.total()).isEqualTo(5);
		assertThat(overview.fraction()).isEqualTo(0.25);
		assertThat(overview.current()).isEqualTo("Copy refs");
		assertThat(overview.position()).isEqualTo(2);
		assertThat(overview.rows().get(2).pending()).isTrue();
	}

	@Test
	void aJobNotStartedYetWaitsForEveryStep() {
		StepOverview overview = StepOverview.of(migration(JobStatus.STARTING), MIGRATION);
		assertThat(overview.rows()).hasSize(5).allMatch(StepOverview.Row::pending);
		assertThat(overview.fraction()).isZero();
		assertThat(overview.current()).isNull();
	}

	@Test
	void aRestartCountsTheStepsAnEarlierRunCompletedAndAStoppedJobTheOnesItNeverReached() {
		StepOverview restart = StepOverview.of(migration(JobStatus.COMPLETED,
				step("copyRefsStep", JobStatus.COMPLETED, 1000, 1000),
				step("copyReflogsStep", JobStatus.COMPLETED, 0, 0), step("verifyRefsStep", JobStatus.COMPLETED, 1, 1),
				step("swapStorageStep", JobStatus.COMPLETED, 1, 1)), MIGRATION);
		assertThat(restart.rows().get(0).state()).isEqualTo(StepOverview.State.EARLIER);
		assertThat(restart.rows().get(0).status()).isEqualTo("Done earlier");
		assertThat(restart.done()).isEqualTo(5);
		assertThat(restart.fraction()).isEqualTo(1.0);

		StepOverview stopped = StepOverview
			.of(migration(JobStatus.STOPPED, step("snapshotRefsStep", JobStatus.COMPLETED, 1, 1),
					step("copyRefsStep", JobStatus.STOPPED, 500, 1000)), MIGRATION);
		assertThat(stopped.rows()).extracting(StepOverview.Row::state)
			.containsExactly(StepOverview.State.RAN, StepOverview.State.RAN, StepOverview.State.NOT_RUN,
					StepOverview.State.NOT_RUN, StepOverview.State.NOT_RUN);
		assertThat(stopped.fraction()).isEqualTo(0.2);
		assertThat(stopped.rows().get(1).fraction()).isEqualTo(0.5);
	}

	@Test
	void withoutThePlanOnlyTheStepsThatRanAreListed() {
		StepOverview overview = StepOverview
			.of(migration(JobStatus.COMPLETED, step("snapshotRefsStep", JobStatus.COMPLETED, 1, 1)), List.of());
		assertThat(overview.rows()).extracting(StepOverview.Row::name).containsExactly("snapshotRefsStep");
	}

	@Test
	void aPageSaysWhereItIsAmongAllAndItsLinksKeepTheFilters() {
		JobPage page = new JobPage(11_111, 100, 50, 50);
		assertThat(page.text()).isEqualTo("101–150 of 11,111");
		assertThat(page.previousOffset()).isEqualTo(50);
		assertThat(page.nextOffset()).isEqualTo(150);
		assertThat(page.lastOffset()).isEqualTo(11_100);
		assertThat(new JobPage(11_111, 11_100, 50, 11).text()).isEqualTo("11,101–11,111 of 11,111");
		assertThat(new JobPage(11_111, 11_100, 50, 11).hasNext()).isFalse();
		assertThat(new JobPage(100, 100, 50, 0).text()).isEmpty();
		assertThat(new JobPage(100, 100, 50, 0).lastOffset()).isEqualTo(50);
		assertThat(new JobPage(3, 0, 50, 3).paged()).isFalse();

		JobListLinks links = new JobListLinks(new io.refstore.batch.api.JobFilter(JobStatus.FAILED, RefJobType.MIGRATE,
				"team/c++*", null, LocalDateTime.of(2026, 1, 2, 3, 4), null, 50, 50));
		assertThat(links.filtered()).isTrue();
		assertThat(links.status(JobStatus.COMPLETED))
			.isEqualTo("/jobs?status=COMPLETED&type=MIGRATE&repo=team/c%2B%2B*&from=2026-01-02T03:04");
		assertThat(links.page(100)).endsWith("&from=2026-01-02T03:04&offset=100");
		assertThat(links.back())
			.isEqualTo("status=FAILED&type=MIGRATE&repo=team/c%2B%2B*&from=2026-01-02T03:04&offset=50");
		assertThat(JobListLinks.of(links.back()))
			.isEqualTo("/jobs?status=FAILED&type=MIGRATE&repo=team/c%2B%2B*&from=2026-01-02T03:04&offset=50");
		// only the list's own parameters, never another address
		assertThat(JobListLinks.of("x=1&status=FAILED%0d%0aSet-Cookie:%20a&next=//evil"))
			.startsWith("/jobs?status=FAILED")
			.doesNotContain("\r")
			.doesNotContain("evil");
		assertThat(JobListLinks.of(null)).isEqualTo("/jobs");
		assertThat(new JobListLinks(io.refstore.batch.api.JobFilter.all(50)).filtered()).isFalse();
	}

}
