package io.refstore.web.security;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.unauthenticated;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import io.refstore.web.ApiTestSupport;

/**
 * {@code refstore.security.local-users.enabled=false} with OpenID Connect on (a
 * registration that names its provider's endpoints, so nothing is fetched at start): the
 * configured users, with their right passwords, sign in neither through the form nor with
 * HTTP Basic, and the login page offers the provider instead of the password form.
 */
@TestPropertySource(properties = { "refstore.security.local-users.enabled=false", "refstore.security.oidc.enabled=true",
		"spring.security.oauth2.client.registration.corp.client-id=refstore",
		"spring.security.oauth2.client.registration.corp.client-secret=secret",
		"spring.security.oauth2.client.registration.corp.client-name=Corp SSO",
		"spring.security.oauth2.client.registration.corp.scope=openid",
		"spring.security.oauth2.client.registration.corp.authorization-grant-type=authorization_code",
		"spring.security.oauth2.client.registration.corp.redirect-uri={baseUrl}/login/oauth2/code/{registrationId}",
		"spring.security.oauth2.client.provider.corp.authorization-uri=https://sso.example.org/authorize",
		"spring.security.oauth2.client.provider.corp.token-uri=https://sso.example.org/token",
		"spring.security.oauth2.client.provider.corp.jwk-set-uri=https://sso.example.org/keys" })
class LocalUsersOffIT extends ApiTestSupport {

	@Test
	void aConfiguredUserCannotSignIn() throws Exception {
		this.mvc.perform(get("/api/repos").with(httpBasic("admin", PASSWORD))).andExpect(status().isUnauthorized());
		this.mvc.perform(post("/login").param("username", "admin").param("password", PASSWORD).with(csrf()))
			.andExpect(redirectedUrl("/login?error"))
			.andExpect(unauthenticated());
	}

	@Test
	void theLoginPageOffersTheProviderInsteadOfThePasswordForm() throws Exception {
		this.mvc.perform(get("/login"))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("href=\"/oauth2/authorization/corp\"")))
			.andExpect(content().string(containsString("Sign in with Corp SSO")))
			.andExpect(content().string(not(containsString("name=\"password\""))));
		this.mvc.perform(get("/oauth2/authorization/corp"))
			.andExpect(status().is3xxRedirection())
			.andExpect(header().string("Location", startsWith("https://sso.example.org/authorize?")));
	}

}
