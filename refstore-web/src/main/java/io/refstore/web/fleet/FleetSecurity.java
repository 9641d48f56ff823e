package io.refstore.web.fleet;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.csrf.HttpSessionCsrfTokenRepository;
import org.springframework.security.web.util.matcher.RequestMatcher;

import io.refstore.web.audit.ForwardedBy;

/**
 * The fleet's part in security: the node credentials ({@link NodeSignature}), their
 * authentication in security's filter chains ({@link NodeAuthenticationFilter}), and the
 * forwarding node the audit log records. Security does not know of it: Spring Security
 * applies every {@code Customizer<HttpSecurity>} bean to each chain before the chain's
 * own configuration.
 */
@Configuration(proxyBeanMethods = false)
class FleetSecurity {

	/**
	 * The fleet's node credentials, where {@code refstore.fleet.secret} is set: without
	 * it, this node neither forwards requests nor accepts forwarded ones.
	 */
	@Bean
	@ConditionalOnProperty("refstore.fleet.secret")
	NodeSignature nodeSignature(@Value("${refstore.fleet.secret}") String secret,
			@Value("${refstore.fleet.previous-secret:}") String previousSecret) {
		return new NodeSignature(secret, previousSecret, Clock.systemUTC());
	}

	/**
	 * Node authentication in every filter chain, ahead of every sign-in: placed before
	 * the form login, where the chains add their own sign-ins (the API's bearer tokens,
	 * sign-in throttle and HTTP Basic; the console's throttle) after this has run, so
	 * they come after it. A request with a node credential is authenticated by it or
	 * refused with 401 through security's entry point ({@code problems}), whatever else
	 * it carries. A console page another node forwards comes with a node credential and
	 * no session: no CSRF token to check (a forged credential is refused by the filter);
	 * the forms it renders carry the forwarding node's token, which is the one the
	 * browser's next post is checked against ({@link ForwardedCsrfTokenRepository}). The
	 * API's chain turns CSRF off after this.
	 */
	@Bean
	Customizer<HttpSecurity> nodeAuthentication(ObjectProvider<NodeSignature> signature,
			ObjectProvider<NodeChannel> channel, AuthenticationEntryPoint problems, ApplicationEventPublisher events) {
		RequestMatcher forwarded = (request) -> request.getHeader(NodeSignature.NODE) != null;
		return (http) -> http
			.csrf((csrf) -> csrf.ignoringRequestMatchers(forwarded)
				.csrfTokenRepository(new ForwardedCsrfTokenRepository(new HttpSessionCsrfTokenRepository())))
			.addFilterBefore(new NodeAuthenticationFilter(signature.getIfAvailable(), channel.getIfAvailable(),
					problems, events), UsernamePasswordAuthenticationFilter.class);
	}

	/** The node that forwarded the current request, for the audit log's {@code via}. */
	@Bean
	ForwardedBy forwardedBy() {
		return NodeForwardedAuthentication::current;
	}

}
