package io.refstore.web.campaigns;

import io.refstore.web.schedules.ParameterLines;

/**
 * The console's launch form of a campaign; extra job parameters are {@code key=value} lines.
 */
public class CampaignForm {

	private String jobType = "MAINTAIN";

	private String targetKind = "GLOB";

	private String target = "";

	private String parameters = "";

	private Integer concurrency = 2;

	CampaignRequest toRequest() {
		return new CampaignRequest(this.jobType, this.targetKind, this.target, ParameterLines.parse(this.parameters),
				this.concurrency);
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

	public Integer getConcurrency() {
		return this.concurrency;
	}

	public void setConcurrency(Integer concurrency) {
		this.concurrency = concurrency;
	}

}
