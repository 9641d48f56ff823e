package io.refstore.web.security;

import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.authenticated;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.unauthenticated;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpSession;

import io.refstore.web.ApiTestSupport;

/**
 * The console's filter chain: a login page with a CSRF token, form login for the
 * configured users, and no login (nor any POST) without the token; a sign-in lands on the
 * page asked for, never on a part of one that htmx asked for after the session ended.
 */
class ConsoleLoginIT extends ApiTestSupport {

	@Test
	void theLoginPageCarriesACsrfToken() throws Exception {
		this.mvc.perform(get("/login"))
			.andExpect(status().isOk())
			.andExpect(content().string(Matchers.containsString("name=\"_csrf\"")))
			.andExpect(content().string(Matchers.containsString("name=\"password\"")));
		this.mvc.perform(get("/")).andExpect(status().is3xxRedirection()).andExpect(redirectedUrl("/login"));
	}

	@Test
	void aSignInLandsOnThePageAskedForNeverOnAPartHtmxAskedFor() throws Exception {
		// a live page polling after the session ended: its poll is not where to land
		MockHttpSession polled = new MockHttpSession();
		this.mvc.perform(get("/jobs?status=STARTED").header("HX-Request", "true").session(polled))
			.andExpect(redirectedUrl("/login"));
		this.mvc
			.perform(
					post("/login").param("username", "viewer").param("password", PASSWORD).with(csrf()).session(polled))
			.andExpect(redirectedUrl("/"));
		MockHttpSession asked = new MockHttpSession();
		this.mvc.perform(get("/jobs?status=FAILED").session(asked)).andExpect(redirectedUrl("/login"));
		this.mvc
			.perform(post("/login").param("username", "viewer").param("password", PASSWORD).with(csrf()).session(asked))
			.andExpect(redirectedUrl("http://localhost/jobs?status=FAILED&continue"));
	}

	@Test
	void formLoginNeedsTheTokenAndTheRightPassword() throws Exception {
		this.mvc.perform(post("/login").param("username", "viewer").param("password", PASSWORD).with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andExpect(authenticated().withUsername("viewer").withRoles("VIEWER"));
		this.mvc.perform(post("/login").param("username", "viewer").param("password", "wrong").with(csrf()))
			.andExpect(redirectedUrl("/login?error"))
			.andExpect(unauthenticated());
		this.mvc.perform(post("/login").param("username", "viewer").param("password", PASSWORD))
			.andExpect(status().isForbidden())
			.andExpect(unauthenticated());
	}

}
