package io.refstore.web.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.refstore.web.system.InvalidRequestException;

/**
 * Where a webhook may post: http(s) URLs without credentials; with local addresses
 * refused unless allowed (literal addresses, so that no name server is asked); the
 * back-off doubling up to its cap; and the signature of a known body.
 */
class WebhookTargetsTest {

	@Test
	void aWebhooksUrlIsHttpOrHttpsWithAHostAndNoCredentials() {
		assertThat(WebhookTargets.checked("https://hooks.example.com/refstore?team=a").getHost())
			.isEqualTo("hooks.example.com");
		for (String bad : new String[] { "ftp://hooks.example.com/x", "https://user:pw@hooks.example.com/x",
				"hooks.example.com/x", "https:///x", "http://exa mple.com/", "" }) {
			assertThatThrownBy(() -> WebhookTargets.checked(bad)).as(bad)
				.isInstanceOf(InvalidRequestException.class)
				.hasMessageContaining("url");
		}
	}

	@Test
	void localAddressesAreRefusedAndPublicOnesNot() {
		for (String local : new String[] { "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254",
				"100.64.0.1", "0.0.0.0", "[::1]", "[fd00::1]", "[fe80::1]", "224.0.0.1" }) {
			assertThat(WebhookTargets.localRefusal(URI.create("http://" + local + "/hook"))).as(local)
				.contains("is a local address");
		}
		for (String public_ : new String[] { "93.184.216.34", "[2606:2800:220:1:248:1893:25c8:1946]" }) {
			assertThat(WebhookTargets.localRefusal(URI.create("https://" + public_ + "/hook"))).as(public_).isNull();
		}
	}

	@Test
	void theBackOffDoublesUpToItsCap() {
		WebhookProperties settings = new WebhookProperties(Duration.ofSeconds(5), Duration.ofSeconds(10), 8,
				Duration.ofSeconds(30), Duration.ofMinutes(3), false, 20);
		assertThat(settings.backoffAfter(1)).isEqualTo(Duration.ofSeconds(30));
		assertThat(settings.backoffAfter(2)).isEqualTo(Duration.ofSeconds(60));
		assertThat(settings.backoffAfter(3)).isEqualTo(Duration.ofSeconds(120));
		assertThat(settings.backoffAfter(4)).isEqualTo(Duration.ofMinutes(3));
		assertThat(settings.backoffAfter(40)).isEqualTo(Duration.ofMinutes(3));
	}

	@Test
	void theSignatureIsGitHubsHmacSha256OfTheBody() {
		// RFC 4231's test case 2: key "Jefe", data "what do ya want for nothing?"
		assertThat(WebhookSignature.of("Jefe", "what do ya want for nothing?".getBytes()))
			.isEqualTo("sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	}

}
