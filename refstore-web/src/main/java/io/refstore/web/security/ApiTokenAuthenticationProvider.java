package io.refstore.web.security;

import java.util.Optional;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;

/**
 * Accepts a {@link BearerTokenAuthentication} whose secret belongs to a valid token of a
 * user who is still configured and enabled; the result carries that user's current roles
 * (a token never has more rights than its owner has now). Thread-safe.
 */
final class ApiTokenAuthenticationProvider implements AuthenticationProvider {

	private final ApiTokenStore tokens;

	private final UserDetailsService users;

	ApiTokenAuthenticationProvider(ApiTokenStore tokens, UserDetailsService users) {
		this.tokens = tokens;
		this.users = users;
	}

	@Override
	public Authentication authenticate(Authentication authentication) {
		String secret = (String) authentication.getCredentials();
		Optional<ApiToken> token = (secret == null) ? Optional.empty() : this.tokens.authenticate(secret);
		if (token.isEmpty()) {
			throw new InvalidTokenException(
					"the bearer token is unknown or revoked, or has expired, or the token it was made with has");
		}
		UserDetails owner;
		try {
			owner = this.users.loadUserByUsername(token.get().owner());
		}
		catch (UsernameNotFoundException ex) {
			throw new InvalidTokenException("the bearer token's owner is no longer a configured user");
		}
		if (!owner.isEnabled()) {
			throw new InvalidTokenException("the bearer token's owner is disabled");
		}
		return BearerTokenAuthentication.authenticated(owner.getUsername(), token.get().id(), owner.getAuthorities());
	}

	@Override
	public boolean supports(Class<?> authentication) {
		return BearerTokenAuthentication.class.isAssignableFrom(authentication);
	}

}
