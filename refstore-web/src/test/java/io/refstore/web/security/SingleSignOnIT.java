package io.refstore.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.authenticated;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.unauthenticated;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.time.Instant;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.listener.InMemoryListenerConfig;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldif.LDIFReader;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

import io.refstore.web.ApiTestSupport;

/**
 * Single sign-on on the API and the password sign-ins, against identity providers started
 * here: Spring Authorization Server's JWTs (client credentials) get the roles their
 * groups map to, none for an unmapped group, and a 401 problem when expired or signed by
 * another key, while refstore's own API tokens keep working (for the configured users
 * only); an in-memory LDAP directory's users sign in through the form and HTTP Basic with
 * the roles of their LDAP groups, their wrong passwords refused and throttled like
 * anyone's; the configured users still sign in beside it.
 */
class SingleSignOnIT extends ApiTestSupport {

	private static final OidcProvider provider = OidcProvider.start();

	private static final InMemoryDirectoryServer directory = startDirectory();

	@Autowired
	JdbcClient jdbc;

	@DynamicPropertySource
	static void sso(DynamicPropertyRegistry registry) {
		registry.add("spring.security.oauth2.resourceserver.jwt.issuer-uri", provider::issuer);
		registry.add("refstore.security.ldap.url",
				() -> "ldap://localhost:" + directory.getListenPort() + "/dc=example,dc=org");
		registry.add("refstore.security.ldap.user-dn-pattern", () -> "uid={0},ou=people");
		registry.add("refstore.security.ldap.group-search-base", () -> "ou=groups");
		registry.add("refstore.security.sso.roles.ADMIN", () -> "refstore-admins");
		registry.add("refstore.security.sso.roles.OPERATOR", () -> "refstore-operators,other-operators");
		registry.add("refstore.security.sso.roles.VIEWER", () -> "refstore-viewers");
		// a failure's allowance comes back slower than a loaded machine runs the test
		registry.add("refstore.security.throttle.free-attempts", () -> "3");
		registry.add("refstore.security.throttle.back-off", () -> "30s");
	}

	@AfterAll
	static void stopProviders() {
		provider.close();
		directory.shutDown(true);
	}

	private static InMemoryDirectoryServer startDirectory() {
		try {
			InMemoryDirectoryServerConfig config = new InMemoryDirectoryServerConfig("dc=example,dc=org");
			config.setListenerConfigs(InMemoryListenerConfig.createLDAPConfig("ldap", 0));
			InMemoryDirectoryServer server = new InMemoryDirectoryServer(config);
			server.importFromLDIF(true,
					new LDIFReader(SingleSignOnIT.class.getResourceAsStream("/ldap/directory.ldif")));
			server.startListening();
			return server;
		}
		catch (LDAPException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static RequestPostProcessor bearer(String token) {
		return (request) -> {
			request.addHeader("Authorization", "Bearer " + token);
			return request;
		};
	}

	private static RequestPostProcessor address(String address) {
		return (request) -> {
			request.setRemoteAddr(address);
			return request;
		};
	}

	@Test
	void aJwtGetsTheRolesOfItsGroupsAndIsNamedByItsSubject() throws Exception {
		String admin = provider.clientCredentialsToken("ci-admin");
		this.mvc.perform(get("/api/audit").with(bearer(admin))).andExpect(status().isOk());
		// refstore's own tokens are for the configured users; the refusal is audited
		// under the JWT's name
		this.mvc
			.perform(post("/api/tokens").with(bearer(admin))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"name\": \"from-a-jwt\"}"))
			.andExpect(status().isForbidden())
			.andExpect(jsonPath("$.type").value("https://refstore.io/problems/token-for-configured-users-only"));
		assertThat(this.jdbc
			.sql("SELECT COUNT(*) FROM refstore_audit_event WHERE actor = 'ci-admin' AND action = 'token.create'"
					+ " AND outcome = 'DENIED'")
			.query(Long.class)
			.single()).isEqualTo(1);
		String viewer = provider.clientCredentialsToken("ci-viewer");
		this.mvc.perform(get("/api/repos").with(bearer(viewer))).andExpect(status().isOk());
		this.mvc.perform(get("/api/audit").with(bearer(viewer)))
			.andExpect(status().isForbidden())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
	}

	@Test
	void aJwtWhoseGroupsMapToNoRoleIsRefusedEverything() throws Exception {
		String staff = provider.clientCredentialsToken("ci-staff");
		this.mvc.perform(get("/api/repos").with(bearer(staff)))
			.andExpect(status().isForbidden())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
		this.mvc.perform(get("/api/tokens").with(bearer(staff))).andExpect(status().isForbidden());
	}

	@Test
	void aJwtSignedByAnotherKeyOrExpiredIsUnauthenticated() throws Exception {
		// the provider's own key and a current time pass: the other two fail for their
		// own
		// reason
		this.mvc.perform(get("/api/repos").with(bearer(provider.token(true, Instant.now()))))
			.andExpect(status().isOk());
		for (String token : new String[] { provider.token(false, Instant.now()),
				provider.token(true, Instant.now().minus(Duration.ofHours(2))) }) {
			this.mvc.perform(get("/api/repos").with(bearer(token)))
				.andExpect(status().isUnauthorized())
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
				.andExpect(jsonPath("$.detail").value("the bearer JWT is malformed or expired, or was not signed by "
						+ "the identity provider's keys for this issuer"));
		}
	}

	@Test
	void refstoresOwnApiTokensStillWork() throws Exception {
		String body = this.mvc
			.perform(post("/api/tokens").with(httpBasic("viewer", PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"name\": \"beside-jwts\"}"))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString();
		String secret = body.replaceAll(".*\"secret\"\\s*:\\s*\"([^\"]+)\".*", "$1");
		assertThat(secret).startsWith("rst_");
		this.mvc.perform(get("/api/repos").with(bearer(secret))).andExpect(status().isOk());
		this.mvc.perform(get("/api/repos").with(bearer("rst_unknown"))).andExpect(status().isUnauthorized());
	}

	@Test
	void ldapUsersSignInWithTheRolesOfTheirGroups() throws Exception {
		this.mvc.perform(post("/login").param("username", "carol").param("password", "carol-password").with(csrf()))
			.andExpect(redirectedUrl("/"))
			.andExpect(authenticated().withUsername("carol").withRoles("OPERATOR"));
		this.mvc.perform(get("/api/audit").with(httpBasic("carol", "carol-password"))).andExpect(status().isOk());
		this.mvc
			.perform(post("/api/tokens").with(httpBasic("carol", "carol-password"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"name\": \"from-ldap\"}"))
			.andExpect(status().isForbidden());
		this.mvc.perform(get("/api/repos").with(httpBasic("dave", "dave-password"))).andExpect(status().isForbidden());
		// the configured users sign in beside the directory
		this.mvc.perform(get("/api/repos").with(httpBasic("viewer", PASSWORD))).andExpect(status().isOk());
	}

	@Test
	void anLdapUsersWrongPasswordsAreRefusedAndThrottled() throws Exception {
		this.mvc
			.perform(post("/login").param("username", "carol")
				.param("password", "guess")
				.with(csrf())
				.with(address("10.9.0.1")))
			.andExpect(redirectedUrl("/login?error"))
			.andExpect(unauthenticated());
		for (int i = 0; i < 2; i++) {
			this.mvc.perform(get("/api/repos").with(httpBasic("carol", "guess-" + i)).with(address("10.9.0.1")))
				.andExpect(status().isUnauthorized());
		}
		// the fourth attempt waits, even with the right password
		this.mvc.perform(get("/api/repos").with(httpBasic("carol", "carol-password")).with(address("10.9.0.1")))
			.andExpect(status().isTooManyRequests());
		assertThat(this.jdbc
			.sql("SELECT COUNT(*) FROM refstore_audit_event WHERE actor = 'carol' AND action = 'login.failure'")
			.query(Long.class)
			.single()).isEqualTo(3);
	}

}
