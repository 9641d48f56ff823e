package io.refstore.web.schedules;

import org.quartz.Job;
import org.quartz.JobExecutionContext;

/**
 * The Quartz job of every schedule: hands the fire to {@link ScheduleRunner}. Quartz's
 * clustered JDBC store gives each fire to exactly one instance; the launched refstore job
 * runs on the batch executor, so this returns at once.
 */
public class ScheduleFireJob implements Job {

	/** The job data key holding the schedule's name. */
	static final String SCHEDULE = "schedule";

	private final ScheduleRunner runner;

	ScheduleFireJob(ScheduleRunner runner) {
		this.runner = runner;
	}

	@Override
	public void execute(JobExecutionContext context) {
		this.runner.fire(context.getMergedJobDataMap().getString(SCHEDULE), context.getScheduledFireTime().toInstant());
	}

}
