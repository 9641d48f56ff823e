package io.refstore.web.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code X-Hub-Signature-256} header of a delivery, as GitHub signs its webhooks:
 * {@code sha256=} and the lowercase hex HMAC-SHA256 of the body's bytes, keyed with the
 * webhook's secret in UTF-8. A receiver computes it over the raw body and compares in
 * constant time.
 */
final class WebhookSignature {

	/** The header's name. */
	static final String HEADER = "X-Hub-Signature-256";

	private WebhookSignature() {
	}

	/** The header's value for {@code body} under {@code secret}. */
	static String of(String secret, byte[] body) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
			return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
		}
		catch (GeneralSecurityException ex) {
			// every Java runtime has HmacSHA256
			throw new IllegalStateException(ex);
		}
	}

}
