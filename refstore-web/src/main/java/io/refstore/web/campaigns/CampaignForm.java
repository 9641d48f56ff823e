package io.refstore.web.campaigns;

import io.refstore.web.schedules.JobTargetForm;

/**
 * The console's launch form of a campaign: the job, its repositories and its parameters
 * as typed fields ({@link JobTargetForm}, as the schedule form has them), and how many
 * repositories at a time.
 */
public class CampaignForm extends JobTargetForm {

	private Integer concurrency = 2;

	public CampaignForm() {
		super("MAINTAIN", "GLOB", "");
	}

	CampaignRequest toRequest() {
		return new CampaignRequest(getJobType(), getTargetKind(), getTarget(), parameterMap(), this.concurrency);
	}

	public Integer getConcurrency() {
		return this.concurrency;
	}

	public void setConcurrency(Integer concurrency) {
		this.concurrency = concurrency;
	}

}
