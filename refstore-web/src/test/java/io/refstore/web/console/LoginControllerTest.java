package io.refstore.web.console;

import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestBuilders.formLogin;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers;

import io.refstore.web.security.SignInOptions;

/**
 * The login page, and the real form login behind it: the configured users' bcrypt hashes,
 * the CSRF token, the redirect back with {@code ?error}, and logout.
 */
class LoginControllerTest extends ConsoleTestSupport {

	@Test
	void showsTheLoginForm() throws Exception {
		this.mvc.perform(get("/login"))
			.andExpect(status().isOk())
			.andExpect(view().name(LoginController.VIEWS_LOGIN))
			.andExpect(model().attribute("failed", false))
			.andExpect(model().attribute("signIn", new SignInOptions(true, List.of())))
			.andExpect(model().attribute("loggedOut", false));
	}

	@Test
	void saysWhenTheLastAttemptOrSingleSignOnFailedOrTheUserLoggedOut() throws Exception {
		this.mvc.perform(get("/login").param("error", "")).andExpect(model().attribute("failed", true));
		this.mvc.perform(get("/login").param("logout", "")).andExpect(model().attribute("loggedOut", true));
		this.mvc.perform(get("/login").param("sso-failed", "")).andExpect(model().attribute("ssoFailed", true));
	}

	@Test
	void logsInWithTheRightPasswordOnly() throws Exception {
		this.mvc.perform(formLogin("/login").user("operator").password(PASSWORD))
			.andExpect(SecurityMockMvcResultMatchers.authenticated().withUsername("operator").withRoles("OPERATOR"))
			.andExpect(redirectedUrl("/"));
		this.mvc.perform(formLogin("/login").user("operator").password("wrong"))
			.andExpect(SecurityMockMvcResultMatchers.unauthenticated())
			.andExpect(redirectedUrl("/login?error"));
	}

	@Test
	void refusesALoginWithoutItsCsrfToken() throws Exception {
		this.mvc.perform(post("/login").param("username", "operator").param("password", PASSWORD))
			.andExpect(status().isForbidden());
	}

	@Test
	void logsOut() throws Exception {
		this.mvc.perform(post("/logout").with(viewer()).with(csrf())).andExpect(redirectedUrl("/login?logout"));
	}

}
