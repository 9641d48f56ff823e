package io.refstore.web.console.schedules;

import io.refstore.web.schedules.ParameterLines;
import io.refstore.web.schedules.Schedule;
import io.refstore.web.schedules.ScheduleRequest;

/**
 * The console's create/edit form of a schedule; extra job parameters are
 * {@code key=value} lines.
 */
public class ScheduleForm extends JobTargetForm {

	private String name;

	private String cron = "0 0 2 * * ?";

	private String timeZone = "UTC";

	private String misfire = "SKIP";

	private boolean paused;

	public ScheduleForm() {
		super("MAINTAIN", "REPOSITORY", null);
	}

	static ScheduleForm of(Schedule schedule) {
		ScheduleForm form = new ScheduleForm();
		form.name = schedule.name();
		form.setJobType(schedule.jobType().name());
		form.setTargetKind(schedule.targetKind().name());
		form.setTarget(schedule.target());
		form.setParameters(ParameterLines.format(schedule.parameters()));
		form.cron = schedule.cron();
		form.timeZone = schedule.timeZone();
		form.misfire = schedule.misfire().name();
		form.paused = schedule.paused();
		return form;
	}

	ScheduleRequest toRequest() {
		return new ScheduleRequest(this.name, getJobType(), getTargetKind(), getTarget(), parameterMap(), this.cron,
				this.timeZone, null, this.misfire, this.paused);
	}

	public String getName() {
		return this.name;
	}

	public void setName(String name) {
		this.name = name;
	}

	public String getCron() {
		return this.cron;
	}

	public void setCron(String cron) {
		this.cron = cron;
	}

	public String getTimeZone() {
		return this.timeZone;
	}

	public void setTimeZone(String timeZone) {
		this.timeZone = timeZone;
	}

	public String getMisfire() {
		return this.misfire;
	}

	public void setMisfire(String misfire) {
		this.misfire = misfire;
	}

	public boolean isPaused() {
		return this.paused;
	}

	public void setPaused(boolean paused) {
		this.paused = paused;
	}

}
