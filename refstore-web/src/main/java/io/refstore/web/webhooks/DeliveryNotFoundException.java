package io.refstore.web.webhooks;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

import io.refstore.web.system.Problems;

/** The webhook has no delivery of that id: a 404 problem ({@code delivery-not-found}). */
public class DeliveryNotFoundException extends ErrorResponseException {

	private static final long serialVersionUID = 1L;

	public DeliveryNotFoundException(long webhook, long id) {
		super(HttpStatus.NOT_FOUND, Problems.problem(HttpStatus.NOT_FOUND, "delivery-not-found",
				"webhook " + webhook + " has no delivery " + id, Map.of()), null);
	}

}
