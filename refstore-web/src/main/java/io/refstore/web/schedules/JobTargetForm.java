package io.refstore.web.schedules;

import java.util.Map;

/**
 * What the console's schedule and campaign forms share: the job to launch, the
 * repositories it targets and its extra job parameters as {@code key=value} lines.
 */
public abstract class JobTargetForm {

	private String jobType;

	private String targetKind;

	private String target;

	private String parameters = "";

	protected JobTargetForm(String jobType, String targetKind, String target) {
		this.jobType = jobType;
		this.targetKind = targetKind;
		this.target = target;
	}

	/** The extra job parameters, read from their lines. */
	protected Map<String, String> parameterMap() {
		return ParameterLines.parse(this.parameters);
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

}
