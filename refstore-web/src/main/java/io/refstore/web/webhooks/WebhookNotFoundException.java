package io.refstore.web.webhooks;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

import io.refstore.web.system.Problems;

/** No webhook has that id: a 404 problem ({@code webhook-not-found}). */
public class WebhookNotFoundException extends ErrorResponseException {

	private static final long serialVersionUID = 1L;

	public WebhookNotFoundException(long id) {
		super(HttpStatus.NOT_FOUND,
				Problems.problem(HttpStatus.NOT_FOUND, "webhook-not-found", "no webhook has the id " + id, Map.of()),
				null);
	}

}
