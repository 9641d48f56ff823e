package io.refstore.web.campaigns;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

import io.refstore.web.system.Problems;

/** No campaign has that id: a 404 problem ({@code campaign-not-found}). */
class CampaignNotFoundException extends ErrorResponseException {

	private static final long serialVersionUID = 1L;

	CampaignNotFoundException(long id) {
		super(HttpStatus.NOT_FOUND,
				Problems.problem(HttpStatus.NOT_FOUND, "campaign-not-found", "no campaign " + id, Map.of()), null);
	}

}
