package io.refstore.web.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * A node credential as one node signs it and another checks it: accepted once, by the
 * node it was signed for, for the request it was signed for, within the window; a
 * previous secret accepted during a rotation, never used to sign.
 */
class NodeSignatureTest {

	private static final String SECRET = "0123456789abcdef0123456789abcdef";

	private static final String NEXT = "fedcba9876543210fedcba9876543210";

	private static final String REF = "/api/repos/team%2Fc.git/refs/refs%2Fheads%2Fmain";

	private final Clock clock = Clock.fixed(Instant.parse("2026-12-04T00:00:00Z"), ZoneOffset.UTC);

	@Test
	void aSignedRequestIsAcceptedOnceByTheNodeItWasSignedFor() {
		NodeSignature alpha = new NodeSignature(SECRET, this.clock);
		NodeSignature gamma = new NodeSignature(SECRET, this.clock);
		NodeSignature beta = new NodeSignature(SECRET, this.clock);
		byte[] body = "{\"sha\": \"1\"}".getBytes(StandardCharsets.UTF_8);
		Map<String, String> headers = alpha.sign("alpha", "gamma", "PUT", REF, "admin", "ROLE_ADMIN", body);
		assertThat(headers.get(NodeSignature.NONCE)).matches("[0-9a-f]{32}");

		assertThat(beta.refusal("beta", "PUT", REF, headers, body)).contains("signature does not match");
		assertThat(gamma.refusal("gamma", "PUT", REF + "x", headers, body)).contains("signature does not match");
		assertThat(gamma.refusal("gamma", "PUT", REF, headers, new byte[0])).contains("signature does not match");
		assertThat(gamma.refusal("gamma", "PUT", REF, headers, body)).isNull();
		assertThat(gamma.refusal("gamma", "PUT", REF, headers, body)).contains("used already");
		assertThat(alpha.sign("alpha", "gamma", "PUT", REF, "admin", "ROLE_ADMIN", body).get(NodeSignature.NONCE))
			.as("a new nonce per request")
			.isNotEqualTo(headers.get(NodeSignature.NONCE));
	}

	@Test
	void aCredentialWithoutItsNonceOrOutsideTheWindowIsRefused() {
		NodeSignature gamma = new NodeSignature(SECRET, this.clock);
		Map<String, String> headers = new LinkedHashMap<>(
				new NodeSignature(SECRET, this.clock).sign("alpha", "gamma", "GET", REF, "admin", "", new byte[0]));
		headers.remove(NodeSignature.NONCE);
		assertThat(gamma.refusal("gamma", "GET", REF, headers, new byte[0])).contains("X-Refstore-Nonce is missing");

		Clock late = Clock.offset(this.clock, Duration.ofSeconds(61));
		Map<String, String> stale = new NodeSignature(SECRET, this.clock).sign("alpha", "gamma", "GET", REF, "admin",
				"", new byte[0]);
		assertThat(new NodeSignature(SECRET, late).refusal("gamma", "GET", REF, stale, new byte[0]))
			.contains("61 s away");
	}

	@Test
	void aRotationAcceptsThePreviousSecretAndSignsWithTheNewOne() {
		NodeSignature old = new NodeSignature(SECRET, this.clock);
		NodeSignature rotated = new NodeSignature(NEXT, SECRET, this.clock);
		Map<String, String> fromOld = old.sign("alpha", "gamma", "GET", REF, "admin", "", new byte[0]);
		assertThat(rotated.refusal("gamma", "GET", REF, fromOld, new byte[0])).isNull();
		Map<String, String> fromRotated = rotated.sign("gamma", "alpha", "GET", REF, "admin", "", new byte[0]);
		assertThat(old.refusal("alpha", "GET", REF, fromRotated, new byte[0])).contains("signature does not match");
		assertThat(new NodeSignature(SECRET, NEXT, this.clock).refusal("alpha", "GET", REF, fromRotated, new byte[0]))
			.as("the first step of a rotation: the new secret accepted before any node signs with it")
			.isNull();

		assertThat(rotated.previousSecretCheck("salt")).isEqualTo(old.secretCheck("salt"));
		assertThat(rotated.secretCheck("salt")).isNotEqualTo(old.secretCheck("salt")).hasSize(64);
		assertThat(old.previousSecretCheck("salt")).isNull();
		assertThatIllegalArgumentException().isThrownBy(() -> new NodeSignature(SECRET, "short", this.clock))
			.withMessageContaining("refstore.fleet.previous-secret must be at least 32 bytes");
	}

}
