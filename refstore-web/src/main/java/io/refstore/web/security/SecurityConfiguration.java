package io.refstore.web.security;

import java.util.ArrayList;
import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.access.hierarchicalroles.RoleHierarchyImpl;
import org.springframework.security.authentication.AuthenticationEventPublisher;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.DefaultAuthenticationEventPublisher;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.authentication.dao.DaoAuthenticationProvider;
import org.springframework.security.authorization.AuthorizationEventPublisher;
import org.springframework.security.authorization.SpringAuthorizationEventPublisher;
import org.springframework.security.config.annotation.authentication.builders.AuthenticationManagerBuilder;
import org.springframework.security.config.annotation.authentication.configuration.GlobalAuthenticationConfigurerAdapter;
import org.springframework.security.config.annotation.method.configuration.EnableMethodSecurity;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsPasswordService;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandlerImpl;
import org.springframework.security.web.authentication.AuthenticationEntryPointFailureHandler;
import org.springframework.security.web.authentication.AuthenticationFilter;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.security.web.savedrequest.HttpSessionRequestCache;
import org.springframework.security.web.util.matcher.AndRequestMatcher;
import org.springframework.security.web.util.matcher.NegatedRequestMatcher;
import org.springframework.security.web.util.matcher.RequestHeaderRequestMatcher;

import io.refstore.web.audit.AuditLog;
import io.refstore.web.audit.DeniedRequestAudit;
import tools.jackson.databind.json.JsonMapper;

/**
 * Who may do what. Two filter chains:
 * <ol>
 * <li>{@code /api/**} and {@code /actuator/**}: stateless, HTTP Basic or
 * {@code Authorization: Bearer} API tokens or, when Spring Boot's
 * {@code spring.security.oauth2.resourceserver.jwt.*} is set, the identity provider's
 * JWTs ({@link BearerAuthenticationManager}), no CSRF (no cookies are involved), refusals
 * as problems. Reads need VIEWER, ref writes ADMIN, the audit log OPERATOR, job reads
 * VIEWER and job launches, stops and restarts OPERATOR (ADMIN for the destructive ones,
 * checked on the service); {@code /actuator/health} is public, the other actuator
 * endpoints need VIEWER.</li>
 * <li>Everything else (the console): form login at {@code /login} with CSRF protection
 * and a session, and OpenID Connect login when {@code refstore.security.oidc.enabled};
 * the API description and Swagger UI are public.</li>
 * </ol>
 * Password sign-ins (form and Basic) check the configured users, unless
 * {@code refstore.security.local-users.enabled=false}, then the LDAP directory if one is
 * configured. OpenID Connect users, JWTs and LDAP users get the roles their groups grant
 * ({@link GroupRoles}), and none otherwise. The same roles are checked again on the
 * service methods ({@code @PreAuthorize}), so no other entry point can bypass them. Roles
 * form a hierarchy: ADMIN implies OPERATOR implies VIEWER. Password sign-ins on both
 * chains are throttled per account and per client address ({@link LoginThrottle}). The
 * console is served under a strict Content-Security-Policy; HSTS is sent on every secure
 * (TLS) request, as Spring Security does by default.
 * <p>
 * Other packages take part through {@code Customizer<HttpSecurity>} beans, which Spring
 * Security applies to every chain before the configuration here: the fleet's
 * authenticates the requests another node forwards, ahead of every sign-in of both
 * chains, and spares them the console's CSRF check. Security itself knows nothing of the
 * fleet; what it shows of a refused credential is {@link RefusedCredentialException}'s.
 */
@Configuration(proxyBeanMethods = false)
@EnableMethodSecurity
class SecurityConfiguration {

	@Bean
	static RoleHierarchy roleHierarchy() {
		return RoleHierarchyImpl.withDefaultRolePrefix()
			.role(Roles.ADMIN)
			.implies(Roles.OPERATOR)
			.role(Roles.OPERATOR)
			.implies(Roles.VIEWER)
			.build();
	}

	/**
	 * Publishes refusals as events, so that the audit log records denied attempts to
	 * change something.
	 */
	@Bean
	AuthorizationEventPublisher authorizationEventPublisher(ApplicationEventPublisher publisher) {
		return new SpringAuthorizationEventPublisher(publisher);
	}

	/** The encoders by id ({@code {bcrypt}...}), matches remembered for a short while. */
	@Bean
	PasswordEncoder passwordEncoder(SecurityProperties properties) {
		return new CachingPasswordEncoder(PasswordEncoderFactories.createDelegatingPasswordEncoder(),
				properties.basicCacheTtl());
	}

	/**
	 * Publishes password sign-ins' outcomes as events, which {@link SignInEvents} counts
	 * and audits; the filter chains' authentication managers find it by type.
	 */
	@Bean
	AuthenticationEventPublisher authenticationEventPublisher(ApplicationEventPublisher publisher) {
		return new DefaultAuthenticationEventPublisher(publisher);
	}

	@Bean
	LoginThrottle loginThrottle(SecurityProperties properties) {
		return new LoginThrottle(properties.throttle());
	}

	@Bean
	SignInEvents signInEvents(LoginThrottle throttle, AuditLog audit, ApplicationEventPublisher events) {
		return new SignInEvents(throttle, audit, events);
	}

	@Bean
	UserDetailsService userDetailsService(SecurityProperties properties, DemoProperties demo) {
		List<UserDetails> users = new ArrayList<>();
		if (!properties.localUsers().enabled()) {
			// none of them signs in, nor do their API tokens
			return new InMemoryUserDetailsManager(users);
		}
		List<SecurityProperties.User> configured = new ArrayList<>(properties.users());
		List<String> names = configured.stream().map(SecurityProperties.User::name).toList();
		if (demo.enabled()) {
			// a configured user of the same name replaces the demo one
			demo.users().stream().filter((user) -> !names.contains(user.name())).forEach(configured::add);
		}
		for (int i = 0; i < configured.size(); i++) {
			SecurityProperties.User user = configured.get(i);
			String where = (i < properties.users().size()) ? "refstore.security.users[" + i + "]"
					: "refstore.demo.users (" + user.name() + ")";
			if (user.name() == null || user.name().isBlank()) {
				throw new IllegalArgumentException(where + ".name is missing");
			}
			if (user.password() == null || !user.password().startsWith("{") || user.password().startsWith("{noop}")) {
				throw new IllegalArgumentException(where + ".password must be a hash with its encoder id, such as "
						+ "{bcrypt}$2a$10$... (plain {noop} passwords are refused)");
			}
			for (String role : user.roles()) {
				if (!Roles.ALL.contains(role)) {
					throw new IllegalArgumentException(
							where + ".roles: unknown role '" + role + "' (known: " + Roles.ALL + ")");
				}
			}
			users.add(User.withUsername(user.name())
				.password(user.password())
				.roles(user.roles().toArray(String[]::new))
				.build());
		}
		return new InMemoryUserDetailsManager(users);
	}

	@Bean
	GroupRoles groupRoles(SecurityProperties properties) {
		return new GroupRoles(properties.sso());
	}

	/**
	 * The password sign-ins of both chains: the configured users first, as Spring
	 * Security would set them up alone (their hashes upgraded in memory), so that they
	 * still sign in when the directory is down, then the LDAP directory's if there is
	 * one.
	 */
	@Bean
	GlobalAuthenticationConfigurerAdapter passwordSignIns(UserDetailsService users, PasswordEncoder encoder,
			SecurityProperties properties, GroupRoles roles) {
		DaoAuthenticationProvider local = new DaoAuthenticationProvider(users);
		local.setPasswordEncoder(encoder);
		if (users instanceof UserDetailsPasswordService passwords) {
			local.setUserDetailsPasswordService(passwords);
		}
		return new GlobalAuthenticationConfigurerAdapter() {

			@Override
			public void init(AuthenticationManagerBuilder auth) {
				auth.authenticationProvider(local);
				if (properties.ldap().enabled()) {
					auth.authenticationProvider(LdapSignIn.provider(properties.ldap(), roles));
				}
			}

		};
	}

	/**
	 * The login page's choices: the password form unless neither the configured users nor
	 * LDAP can sign in, and a link for each OpenID Connect provider.
	 * @throws IllegalStateException if OpenID Connect is on without a registration
	 */
	@Bean
	SignInOptions signInOptions(SecurityProperties properties,
			ObjectProvider<ClientRegistrationRepository> registrations) {
		List<SignInOptions.Provider> providers = new ArrayList<>();
		if (properties.oidc().enabled()) {
			if (!(registrations.getIfAvailable() instanceof Iterable<?> all)) {
				throw new IllegalStateException("refstore.security.oidc.enabled is true but there is no "
						+ "spring.security.oauth2.client.registration.<id>");
			}
			for (Object registration : all) {
				ClientRegistration client = (ClientRegistration) registration;
				providers.add(new SignInOptions.Provider(client.getClientName(),
						"/oauth2/authorization/" + client.getRegistrationId()));
			}
		}
		return new SignInOptions(properties.localUsers().enabled() || properties.ldap().enabled(), providers);
	}

	/**
	 * Also the {@code RequestRejectedHandler} of the firewall, which Spring Security
	 * finds by type.
	 */
	@Bean
	ProblemSecurityHandlers problemSecurityHandlers(JsonMapper json) {
		return new ProblemSecurityHandlers(json);
	}

	/**
	 * Encoded slashes are how repository and ref names travel in one path segment; Tomcat
	 * passes them (and, with them, encoded percent signs) through undecoded, and Spring
	 * MVC decodes each path variable exactly once. The rest stays strict (encoded dots,
	 * backslashes, non-normalised paths are refused).
	 */
	@Bean
	HttpFirewall httpFirewall() {
		StrictHttpFirewall firewall = new StrictHttpFirewall();
		firewall.setAllowUrlEncodedSlash(true);
		firewall.setAllowUrlEncodedPercent(true);
		return firewall;
	}

	@Bean
	@Order(1)
	SecurityFilterChain apiFilterChain(HttpSecurity http, ProblemSecurityHandlers problems, ApiTokenStore tokens,
			UserDetailsService users, LoginThrottle throttle, DeniedRequestAudit denied,
			ObjectProvider<JwtDecoder> jwts, GroupRoles roles) throws Exception {
		AuthenticationManager tokenManager = new ProviderManager(new ApiTokenAuthenticationProvider(tokens, users));
		JwtDecoder jwt = jwts.getIfAvailable();
		AuthenticationManager bearerManager = (jwt != null) ? new BearerAuthenticationManager(tokenManager, jwt, roles)
				: tokenManager;
		AuthenticationFilter bearer = new AuthenticationFilter(bearerManager, new BearerTokenConverter());
		bearer.setFailureHandler(new AuthenticationEntryPointFailureHandler(problems));
		bearer.setSuccessHandler((request, response, authentication) -> {
		});
		http.securityMatcher("/api/**", "/actuator/**")
			.sessionManagement((session) -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.csrf((csrf) -> csrf.disable())
			.httpBasic((basic) -> basic.authenticationEntryPoint(problems))
			.addFilterBefore(bearer, BasicAuthenticationFilter.class)
			.addFilterBefore(new LoginThrottleFilter(throttle, problems, false), BasicAuthenticationFilter.class)
			.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(problems)
				.accessDeniedHandler(denied.handler(problems)))
			.authorizeHttpRequests((authorize) -> authorize.requestMatchers("/actuator/health", "/actuator/health/**")
				.permitAll()
				.requestMatchers("/actuator/**")
				.hasRole(Roles.VIEWER)
				.requestMatchers("/api/audit", "/api/audit/**")
				.hasRole(Roles.OPERATOR)
				.requestMatchers("/api/tokens", "/api/tokens/**")
				.hasRole(Roles.VIEWER)
				.requestMatchers(HttpMethod.GET, "/api/jobs", "/api/jobs/**")
				.hasRole(Roles.VIEWER)
				.requestMatchers("/api/jobs", "/api/jobs/**")
				.hasRole(Roles.OPERATOR)
				.requestMatchers(HttpMethod.GET, "/api/repos", "/api/repos/**", "/api/journal")
				.hasRole(Roles.VIEWER)
				.requestMatchers("/api/repos/**")
				.hasRole(Roles.ADMIN)
				.anyRequest()
				.authenticated());
		return http.build();
	}

	/**
	 * Everything the console loads is its own: no inline script or style, no other
	 * origin, no framing.
	 */
	static final String CONSOLE_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; "
			+ "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
			+ "form-action 'self'; frame-ancestors 'none'";

	@Bean
	@Order(2)
	SecurityFilterChain consoleFilterChain(HttpSecurity http, ProblemSecurityHandlers problems, LoginThrottle throttle,
			DeniedRequestAudit denied, SecurityProperties properties, GroupRoles roles) throws Exception {
		if (properties.oidc().enabled()) {
			http.oauth2Login((oidc) -> oidc.loginPage("/login")
				.failureUrl("/login?sso-failed")
				.userInfoEndpoint((userInfo) -> userInfo.oidcUserService(new OidcUsers(roles))));
		}
		// the page to land on after signing in is a page, never a part of one: a live
		// page
		// polling (htmx) once its session ended would land the user on the bare fragment
		HttpSessionRequestCache pages = new HttpSessionRequestCache();
		pages.setRequestMatcher(new AndRequestMatcher((request) -> "GET".equals(request.getMethod()),
				new NegatedRequestMatcher(new RequestHeaderRequestMatcher("HX-Request")),
				new NegatedRequestMatcher(new RequestHeaderRequestMatcher("X-Requested-With", "XMLHttpRequest")),
				new NegatedRequestMatcher((request) -> request.getRequestURI().endsWith("/favicon.ico"))));
		http.requestCache((cache) -> cache.requestCache(pages));
		http.formLogin((form) -> form.loginPage("/login").permitAll())
			.exceptionHandling(
					(exceptions) -> exceptions.accessDeniedHandler(denied.handler(new AccessDeniedHandlerImpl())))
			.addFilterBefore(new LoginThrottleFilter(throttle, problems, true),
					UsernamePasswordAuthenticationFilter.class)
			.logout((logout) -> logout.permitAll())
			.headers((headers) -> headers.contentSecurityPolicy((csp) -> csp.policyDirectives(CONSOLE_CSP)))
			.authorizeHttpRequests((authorize) -> authorize
				.requestMatchers("/error", "/console/**", "/webjars/**", "/v3/api-docs", "/v3/api-docs/**",
						"/swagger-ui.html", "/swagger-ui/**")
				.permitAll()
				.anyRequest()
				.authenticated());
		return http.build();
	}

}
