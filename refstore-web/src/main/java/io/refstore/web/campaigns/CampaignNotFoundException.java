package io.refstore.web.campaigns;

/** No campaign has that id. */
class CampaignNotFoundException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	CampaignNotFoundException(long id) {
		super("no campaign " + id);
	}

}
