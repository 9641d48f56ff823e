package io.refstore.web.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.List;

import jakarta.servlet.Filter;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.web.FilterChainProxy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AuthenticationFilter;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.csrf.CsrfFilter;

import io.refstore.web.ApiTestSupport;

/**
 * The fleet's node authentication in both of security's filter chains, at the place it
 * has always had: in the API's, after CSRF and before the bearer tokens, the sign-in
 * throttle and HTTP Basic; in the console's, after CSRF and before the sign-in throttle
 * and the form login. A node credential on a node without {@code refstore.fleet.secret}
 * is refused in either, whatever other credential the request carries.
 */
class NodeAuthenticationIT extends ApiTestSupport {

	private static final String NODE = NodeAuthenticationFilter.class.getSimpleName();

	@Autowired
	FilterChainProxy chains;

	@Test
	void theNodeFilterComesBeforeEverySignInInBothChains() {
		List<SecurityFilterChain> all = this.chains.getFilterChains();
		assertThat(all).hasSize(2);
		List<String> api = names(all.get(0).getFilters());
		List<String> console = names(all.get(1).getFilters());
		assertThat(api).containsSubsequence("LogoutFilter", NODE, AuthenticationFilter.class.getSimpleName(),
				"LoginThrottleFilter", BasicAuthenticationFilter.class.getSimpleName());
		assertThat(api.indexOf(NODE)).isEqualTo(api.indexOf("LogoutFilter") + 1);
		assertThat(api).doesNotContain(CsrfFilter.class.getSimpleName());
		assertThat(console).containsSubsequence(CsrfFilter.class.getSimpleName(), "LogoutFilter", NODE,
				"LoginThrottleFilter", UsernamePasswordAuthenticationFilter.class.getSimpleName());
		assertThat(console.indexOf(NODE)).isEqualTo(console.indexOf("LogoutFilter") + 1);
		assertThat(api.stream().filter(NODE::equals)).hasSize(1);
		assertThat(console.stream().filter(NODE::equals)).hasSize(1);
	}

	@Test
	void aNodeCredentialIsRefusedWithoutTheFleetsSecretEvenBesideAPassword() throws Exception {
		this.mvc.perform(get("/api/repos").header("X-Refstore-Node", "alpha").with(as("admin")))
			.andExpect(status().isUnauthorized())
			.andExpect(jsonPath("$.detail").value("this node has no refstore.fleet.secret"));
		this.mvc.perform(get("/repos").header("X-Refstore-Node", "alpha"))
			.andExpect(status().isUnauthorized())
			.andExpect(jsonPath("$.detail").value("this node has no refstore.fleet.secret"));
		// no CSRF token: a request claiming a node is not asked for one, and is refused
		this.mvc
			.perform(post("/login").header("X-Refstore-Node", "alpha")
				.param("username", "admin")
				.param("password", PASSWORD))
			.andExpect(status().isUnauthorized())
			.andExpect(jsonPath("$.detail").value("this node has no refstore.fleet.secret"));
	}

	private static List<String> names(List<Filter> filters) {
		return filters.stream().map((filter) -> filter.getClass().getSimpleName()).toList();
	}

}
