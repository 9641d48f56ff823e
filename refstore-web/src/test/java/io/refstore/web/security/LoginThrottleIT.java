package io.refstore.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.authenticated;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.refstore.web.ApiTestSupport;
import io.refstore.web.webhooks.WebhookReceiver;

/**
 * Sign-in throttling through the real filter chains, the client address set as the
 * connection's: failed Basic and console sign-ins hold back their account at their
 * address and their address for every account, with a 429 problem and {@code Retry-After}
 * that never reaches the password check (the right password is refused too there), and a
 * lock-out after the configured failure; an account's failures from other addresses never
 * hold back the right password from an address that has not failed; audit rows for
 * failures and lock-outs, and a webhook's delivery of the lock-out.
 */
@TestPropertySource(
		properties = { "refstore.security.throttle.free-attempts=3", "refstore.security.throttle.back-off=20s",
				"refstore.security.throttle.lockout-after=3", "refstore.security.throttle.lockout=90s" })
class LoginThrottleIT extends ApiTestSupport {

	@Autowired
	JdbcClient jdbc;

	private static RequestPostProcessor address(String address) {
		return (request) -> {
			request.setRemoteAddr(address);
			return request;
		};
	}

	private static MockHttpServletRequestBuilder basic(String address, String user, String password) {
		return get("/api/tokens").with(httpBasic(user, password)).with(address(address));
	}

	private static MockHttpServletRequestBuilder form(String address, String user, String password) {
		return post("/login").param("username", user).param("password", password).with(csrf()).with(address(address));
	}

	@Test
	void failuresFromOneAddressHoldBackThatAddressEvenWithTheRightPassword() throws Exception {
		for (int i = 0; i < 3; i++) {
			this.mvc.perform(basic("10.0.0.1", uniqueName("ghost"), "guess")).andExpect(status().isUnauthorized());
		}
		MvcResult held = this.mvc.perform(basic("10.0.0.1", "viewer", PASSWORD))
			.andExpect(status().isTooManyRequests())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value("https://refstore.io/problems/too-many-attempts"))
			.andReturn();
		assertThat(Long.parseLong(held.getResponse().getHeader("Retry-After"))).isBetween(60L, 90L);
		this.mvc.perform(form("10.0.0.1", "viewer", PASSWORD)).andExpect(status().isTooManyRequests());
		this.mvc.perform(basic("10.0.0.2", "viewer", PASSWORD)).andExpect(status().isOk());
	}

	@Test
	void aLockoutFromOneAddressDoesNotHoldBackTheRightPasswordFromAnother() throws Exception {
		try (WebhookReceiver receiver = WebhookReceiver.ok()) {
			this.mvc
				.perform(post("/api/webhooks").with(address("10.0.1.9"))
					.with(httpBasic("admin", PASSWORD))
					.contentType(MediaType.APPLICATION_JSON)
					.content("{\"name\": \"%s\", \"url\": \"%s\", \"events\": [\"security.lockout\"]}"
						.formatted(uniqueName("lockouts"), receiver.url("/security"))))
				.andExpect(status().isCreated());
			lockOutAdmin2();
			// the lock-out is told to the webhook that wants it
			Awaitility.await("the lock-out's delivery")
				.atMost(Duration.ofSeconds(30))
				.until(() -> receiver.received().stream().anyMatch((r) -> r.body().contains("\"actor\":\"admin2\"")));
			DocumentContext lockout = JsonPath.parse(receiver.received()
				.stream()
				.filter((r) -> r.body().contains("\"actor\":\"admin2\""))
				.findFirst()
				.orElseThrow()
				.body());
			assertThat(lockout.read("$.event", String.class)).isEqualTo("security.lockout");
			assertThat(lockout.read("$.lockout.address", String.class)).isEqualTo("10.0.1.1");
			assertThat(lockout.read("$.lockout.failures", Integer.class)).isEqualTo(3);
		}
	}

	private void lockOutAdmin2() throws Exception {
		this.mvc.perform(basic("10.0.1.1", "admin2", "guess-1")).andExpect(status().isUnauthorized());
		this.mvc.perform(form("10.0.1.1", "admin2", "guess-2"))
			.andExpect(status().is3xxRedirection())
			.andExpect(redirectedUrl("/login?error"));
		this.mvc.perform(basic("10.0.1.1", "admin2", "guess-3")).andExpect(status().isUnauthorized());
		MvcResult held = this.mvc.perform(basic("10.0.1.1", "admin2", PASSWORD))
			.andExpect(status().isTooManyRequests())
			.andReturn();
		assertThat(Long.parseLong(held.getResponse().getHeader("Retry-After"))).isBetween(60L, 90L);
		this.mvc.perform(form("10.0.1.1", "admin2", PASSWORD))
			.andExpect(status().isTooManyRequests())
			.andExpect(header().exists("Retry-After"));
		this.mvc.perform(basic("10.0.1.2", "admin2", PASSWORD)).andExpect(status().isOk());
		this.mvc.perform(form("10.0.1.3", "admin2", PASSWORD)).andExpect(authenticated().withUsername("admin2"));
		assertThat(count("admin2", "login.failure", "REJECTED")).isEqualTo(3);
		assertThat(count("admin2", "login.lockout", "DENIED")).isEqualTo(1);
		assertThat(this.jdbc
			.sql("SELECT target FROM refstore_audit_event WHERE actor = 'admin2' AND action = 'login.lockout'")
			.query(String.class)
			.single()).isEqualTo("account at this address and address");
		assertThat(this.jdbc
			.sql("SELECT parameters FROM refstore_audit_event WHERE actor = 'admin2' AND action = 'login.failure'"
					+ " ORDER BY id")
			.query(String.class)
			.list()).allSatisfy((parameters) -> assertThat(parameters).contains("10.0.1.1"));
	}

	@Test
	void anAccountsFailuresFromRotatingAddressesSlowOnlyTheAddressesThatFailed() throws Exception {
		for (int i = 1; i <= 4; i++) {
			this.mvc.perform(basic("10.0.2." + i, "operator", "guess-" + i)).andExpect(status().isUnauthorized());
		}
		for (int i = 1; i <= 4; i++) {
			MvcResult held = this.mvc.perform(basic("10.0.2." + i, "operator", PASSWORD))
				.andExpect(status().isTooManyRequests())
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
				.andReturn();
			// the account's wait (the default longest, 1 minute), never the lock-out's
			assertThat(Long.parseLong(held.getResponse().getHeader("Retry-After"))).isBetween(1L, 60L);
		}
		this.mvc.perform(basic("10.0.2.99", "operator", PASSWORD)).andExpect(status().isOk());
		this.mvc.perform(form("10.0.2.98", "operator", PASSWORD)).andExpect(authenticated().withUsername("operator"));
		assertThat(count("operator", "login.lockout", "DENIED")).isZero();
	}

	private long count(String actor, String action, String outcome) {
		return this.jdbc.sql("SELECT COUNT(*) FROM refstore_audit_event WHERE actor = ? AND action = ? AND outcome = ?")
			.params(actor, action, outcome)
			.query(Long.class)
			.single();
	}

}
