package io.refstore.web.security;

import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

/**
 * The API's bearer tokens: a value shaped as a JWT (three parts separated by dots, which
 * refstore's own {@code rst_} tokens never have) is checked by the identity provider's
 * JWT decoder (signature, expiry, issuer), anything else is one of refstore's API tokens.
 * A JWT's user is named by {@code preferred_username} (or its subject) and has the roles
 * its groups claim grants ({@link GroupRoles}). Thread-safe.
 */
final class BearerAuthenticationManager implements AuthenticationManager {

	private final AuthenticationManager apiTokens;

	private final JwtAuthenticationProvider jwts;

	/**
	 * @param apiTokens checks refstore's API tokens
	 * @param decoder decodes and verifies the identity provider's JWTs
	 * @param roles the roles of the groups a JWT lists
	 */
	BearerAuthenticationManager(AuthenticationManager apiTokens, JwtDecoder decoder, GroupRoles roles) {
		this.apiTokens = apiTokens;
		this.jwts = new JwtAuthenticationProvider(decoder);
		this.jwts.setJwtAuthenticationConverter(new JwtUser(roles));
	}

	@Override
	public Authentication authenticate(Authentication authentication) {
		String token = (String) authentication.getCredentials();
		if (token == null || token.chars().filter((c) -> c == '.').count() != 2) {
			return this.apiTokens.authenticate(authentication);
		}
		try {
			return this.jwts.authenticate(new BearerTokenAuthenticationToken(token));
		}
		catch (OAuth2AuthenticationException ex) {
			throw new InvalidTokenException("the bearer JWT is malformed or expired, or was not signed by the "
					+ "identity provider's keys for this issuer");
		}
	}

	/** A verified JWT as its user: name and roles. */
	private record JwtUser(GroupRoles roles) implements Converter<Jwt, AbstractAuthenticationToken> {

		@Override
		public AbstractAuthenticationToken convert(Jwt jwt) {
			return new JwtAuthenticationToken(jwt, this.roles.authorities(jwt.getClaims()),
					jwt.getClaimAsString(GroupRoles.userNameClaim(jwt.getClaims())));
		}

	}

}
