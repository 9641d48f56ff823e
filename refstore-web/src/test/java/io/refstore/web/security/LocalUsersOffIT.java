package io.refstore.web.security;

import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.unauthenticated;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import io.refstore.web.ApiTestSupport;

/**
 * {@code refstore.security.local-users.enabled=false}: the configured users, with their
 * right passwords, sign in neither through the form nor with HTTP Basic.
 */
@TestPropertySource(properties = "refstore.security.local-users.enabled=false")
class LocalUsersOffIT extends ApiTestSupport {

	@Test
	void aConfiguredUserCannotSignIn() throws Exception {
		this.mvc.perform(get("/api/repos").with(httpBasic("admin", PASSWORD))).andExpect(status().isUnauthorized());
		this.mvc.perform(post("/login").param("username", "admin").param("password", PASSWORD).with(csrf()))
			.andExpect(redirectedUrl("/login?error"))
			.andExpect(unauthenticated());
	}

}
