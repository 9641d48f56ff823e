package io.refstore.web.schedules;

/**
 * The console's create/edit form of a schedule; extra job parameters are {@code key=value} lines.
 */
public class ScheduleForm {

	private String name;

	private String jobType = "MAINTAIN";

	private String targetKind = "REPOSITORY";

	private String target;

	private String parameters = "";

	private String cron = "0 0 2 * * ?";

	private String timeZone = "UTC";

	private String misfire = "SKIP";

	private boolean paused;

	static ScheduleForm of(Schedule schedule) {
		ScheduleForm form = new ScheduleForm();
		form.name = schedule.name();
		form.jobType = schedule.jobType().name();
		form.targetKind = schedule.targetKind().name();
		form.target = schedule.target();
		form.parameters = ParameterLines.format(schedule.parameters());
		form.cron = schedule.cron();
		form.timeZone = schedule.timeZone();
		form.misfire = schedule.misfire().name();
		form.paused = schedule.paused();
		return form;
	}

	ScheduleRequest toRequest() {
		return new ScheduleRequest(this.name, this.jobType, this.targetKind, this.target,
				ParameterLines.parse(this.parameters), this.cron, this.timeZone,
				null, this.misfire, this.paused);
	}

	public String getName() {
		return this.name;
	}

	public void setName(String name) {
		this.name = name;
	}

	public String getJobType() {
		return this.jobType;
	}

	public void setJobType(String jobType) {
		this.jobType = jobType;
	}

	public String getTargetKind() {
		return this.targetKind;
	}

	public void setTargetKind(String targetKind) {
		this.targetKind = targetKind;
	}

	public String getTarget() {
		return this.target;
	}

	public void setTarget(String target) {
		this.target = target;
	}

	public String getParameters() {
		return this.parameters;
	}

	public void setParameters(String parameters) {
		this.parameters = parameters;
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
