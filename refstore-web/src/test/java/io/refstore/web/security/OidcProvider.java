package io.refstore.web.security;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration;
import org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.oidc.OidcScopes;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import org.springframework.security.oauth2.server.authorization.client.InMemoryRegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.util.matcher.MediaTypeRequestMatcher;

import tools.jackson.databind.json.JsonMapper;

/**
 * An OpenID Connect provider for the tests: Spring Authorization Server on a free port of
 * {@code localhost} (refstore runs on {@code 127.0.0.1}, so that the browser keeps the
 * two session cookies apart), with its login form, the users {@link #USER_GROUPS}
 * (password {@link #PASSWORD}), the client {@link #CLIENT} for refstore's login and
 * machine clients {@link #CLIENT_GROUPS} (client credentials, secret {@code <id>-secret}:
 * the server wants each its own). ID and access tokens carry the claim {@code groups},
 * and a user's also {@code preferred_username}.
 */
final class OidcProvider implements AutoCloseable {

	/** The client refstore signs users in with. */
	static final String CLIENT = "refstore";

	/** The secret of {@link #CLIENT}. */
	static final String SECRET = "refstore-secret";

	/** The password of every user. */
	static final String PASSWORD = "provider-password";

	/** The users and their groups. */
	static final Map<String, List<String>> USER_GROUPS = Map.of("alice", List.of("staff", "refstore-admins"), "bob",
			List.of("staff"));

	/** The machine clients and the groups their access tokens carry. */
	static final Map<String, List<String>> CLIENT_GROUPS = Map.of("ci-admin", List.of("refstore-admins"), "ci-viewer",
			List.of("refstore-viewers"), "ci-staff", List.of("staff"));

	private static final RSAKey KEY = newKey();

	private final ConfigurableApplicationContext context;

	private OidcProvider(ConfigurableApplicationContext context) {
		this.context = context;
	}

	/** Starts a provider; {@link #close()} stops it. */
	static OidcProvider start() {
		return new OidcProvider(new SpringApplicationBuilder(Provider.class)
			.properties("spring.config.name=oidc-provider", "server.port=0", "spring.main.banner-mode=off")
			.run());
	}

	/** The issuer, which is also where the provider's metadata and keys are. */
	String issuer() {
		return "http://localhost:" + ((WebServerApplicationContext) this.context).getWebServer().getPort();
	}

	/** An access token (a JWT) of the machine client {@code client}. */
	String clientCredentialsToken(String client) throws IOException, InterruptedException {
		String basic = Base64.getEncoder()
			.encodeToString((client + ":" + client + "-secret").getBytes(StandardCharsets.UTF_8));
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create(issuer() + "/oauth2/token"))
				.header("Authorization", "Basic " + basic)
				.header("Content-Type", MediaType.APPLICATION_FORM_URLENCODED_VALUE)
				.POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials"))
				.build(), HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() != 200) {
			throw new IllegalStateException("the provider refused a token: " + response.body());
		}
		return JsonMapper.shared().readTree(response.body()).path("access_token").asString();
	}

	/**
	 * A JWT of this issuer for an ADMIN group, but signed by the provider's key
	 * ({@code ownKey}) or another one, and valid from {@code issuedAt} for an hour.
	 */
	String token(boolean ownKey, Instant issuedAt) {
		RSAKey key = ownKey ? KEY : newKey();
		JwtClaimsSet claims = JwtClaimsSet.builder()
			.issuer(issuer())
			.subject("forger")
			.issuedAt(issuedAt)
			.expiresAt(issuedAt.plus(Duration.ofHours(1)))
			.claim("groups", List.of("refstore-admins"))
			.build();
		return new NimbusJwtEncoder(new ImmutableJWKSet<>(new JWKSet(key)))
			.encode(JwtEncoderParameters.from(JwsHeader.with(SignatureAlgorithm.RS256).build(), claims))
			.getTokenValue();
	}

	@Override
	public void close() {
		this.context.close();
	}

	private static RSAKey newKey() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
			generator.initialize(2048);
			KeyPair pair = generator.generateKeyPair();
			return new RSAKey.Builder((RSAPublicKey) pair.getPublic()).privateKey((RSAPrivateKey) pair.getPrivate())
				.keyID(UUID.randomUUID().toString())
				.build();
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The provider's application: Tomcat, Spring Security and the authorization server.
	 * Not a {@code @Configuration}, which refstore's component scan of the tests would
	 * pick up.
	 */
	@EnableWebSecurity
	@ImportAutoConfiguration({ TomcatServletWebServerAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
			SecurityFilterAutoConfiguration.class })
	static class Provider {

		/** The protocol's endpoints; a browser that is not signed in goes to the form. */
		@Bean
		@Order(1)
		SecurityFilterChain authorizationServer(HttpSecurity http) throws Exception {
			http.oauth2AuthorizationServer((server) -> {
				http.securityMatcher(server.getEndpointsMatcher());
				server.oidc(Customizer.withDefaults());
			})
				.authorizeHttpRequests((authorize) -> authorize.anyRequest().authenticated())
				.oauth2ResourceServer((userInfo) -> userInfo.jwt(Customizer.withDefaults()))
				.exceptionHandling((exceptions) -> exceptions.defaultAuthenticationEntryPointFor(
						new LoginUrlAuthenticationEntryPoint("/login"),
						new MediaTypeRequestMatcher(MediaType.TEXT_HTML)));
			return http.build();
		}

		/** The login form. */
		@Bean
		@Order(2)
		SecurityFilterChain signIn(HttpSecurity http) throws Exception {
			http.authorizeHttpRequests((authorize) -> authorize.anyRequest().authenticated())
				.formLogin(Customizer.withDefaults());
			return http.build();
		}

		@Bean
		UserDetailsService users() {
			return new InMemoryUserDetailsManager(USER_GROUPS.keySet()
				.stream()
				.map((name) -> User.withUsername(name).password("{noop}" + PASSWORD).build())
				.toList());
		}

		@Bean
		RegisteredClientRepository clients() {
			RegisteredClient refstore = RegisteredClient.withId(CLIENT)
				.clientId(CLIENT)
				.clientSecret("{noop}" + SECRET)
				.clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
				.authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
				.authorizationGrantType(AuthorizationGrantType.REFRESH_TOKEN)
				// a loopback address: any port matches (RFC 8252)
				.redirectUri("http://127.0.0.1/login/oauth2/code/idp")
				.scope(OidcScopes.OPENID)
				.scope(OidcScopes.PROFILE)
				.clientSettings(ClientSettings.builder().requireAuthorizationConsent(false).build())
				.build();
			List<RegisteredClient> machines = CLIENT_GROUPS.keySet()
				.stream()
				.map((id) -> RegisteredClient.withId(id)
					.clientId(id)
					.clientSecret("{noop}" + id + "-secret")
					.clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
					.authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
					.build())
				.toList();
			InMemoryRegisteredClientRepository clients = new InMemoryRegisteredClientRepository(refstore);
			machines.forEach(clients::save);
			return clients;
		}

		/** The groups, and the user's name, in every ID and access token. */
		@Bean
		OAuth2TokenCustomizer<JwtEncodingContext> groupsClaim() {
			return (context) -> {
				if (AuthorizationGrantType.CLIENT_CREDENTIALS.equals(context.getAuthorizationGrantType())) {
					context.getClaims().claim("groups", CLIENT_GROUPS.get(context.getRegisteredClient().getClientId()));
				}
				else {
					String user = context.getPrincipal().getName();
					context.getClaims().claim("groups", USER_GROUPS.get(user)).claim("preferred_username", user);
				}
			};
		}

		@Bean
		JWKSource<SecurityContext> keys() {
			return new ImmutableJWKSet<>(new JWKSet(KEY));
		}

		/** Checks the access tokens the user info endpoint is called with. */
		@Bean
		JwtDecoder jwtDecoder() throws Exception {
			return NimbusJwtDecoder.withPublicKey(KEY.toRSAPublicKey()).build();
		}

		@Bean
		AuthorizationServerSettings authorizationServerSettings() {
			return AuthorizationServerSettings.builder().build();
		}

	}

}
