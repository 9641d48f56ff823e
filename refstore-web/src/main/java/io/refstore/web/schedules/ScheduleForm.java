package io.refstore.web.schedules;

import java.time.Instant;
import java.time.format.DateTimeParseException;

import io.refstore.web.system.InvalidRequestException;

/**
 * The console's create/edit form of a schedule: its name and when it fires, besides the
 * job, its repositories and its parameters as typed fields ({@link JobTargetForm}); a
 * stored schedule opens with its parameters as stored.
 */
public class ScheduleForm extends JobTargetForm {

	private String name;

	private String cron = "0 0 2 * * ?";

	private String onceAt = "";

	private String timeZone = "UTC";

	private String misfire = "SKIP";

	private boolean paused;

	public ScheduleForm() {
		super("MAINTAIN", "REPOSITORY", null);
	}

	static ScheduleForm of(Schedule schedule) {
		ScheduleForm form = new ScheduleForm();
		form.name = schedule.name();
		form.showStored(schedule.jobType(), schedule.parameters());
		form.setTargetKind(schedule.targetKind().name());
		form.setTarget(schedule.target());
		form.cron = (schedule.cron() != null) ? schedule.cron() : "";
		form.onceAt = (schedule.onceAt() != null) ? schedule.onceAt().toString() : "";
		form.timeZone = schedule.timeZone();
		form.misfire = schedule.misfire().name();
		form.paused = schedule.paused();
		return form;
	}

	/**
	 * The request the form makes: a cron expression, or a one-off time (ISO-8601, such as
	 * {@code 2026-12-24T06:00:00Z}); the service refuses neither or both.
	 * @throws InvalidRequestException naming {@code onceAt} if it is no such time
	 */
	ScheduleRequest toRequest() {
		Instant once = null;
		if (this.onceAt != null && !this.onceAt.isBlank()) {
			try {
				once = Instant.parse(this.onceAt.strip());
			}
			catch (DateTimeParseException ex) {
				throw new InvalidRequestException("onceAt", this.onceAt,
						"not an ISO time in UTC such as 2026-12-24T06:00:00Z");
			}
		}
		String cronExpression = (this.cron == null || this.cron.isBlank()) ? null : this.cron;
		return new ScheduleRequest(this.name, getJobType(), getTargetKind(), getTarget(), parameterMap(),
				cronExpression, this.timeZone, once, this.misfire, this.paused);
	}

	public String getOnceAt() {
		return this.onceAt;
	}

	public void setOnceAt(String onceAt) {
		this.onceAt = onceAt;
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
