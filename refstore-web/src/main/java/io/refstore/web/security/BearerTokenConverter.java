package io.refstore.web.security;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpHeaders;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.authentication.AuthenticationConverter;

/**
 * Reads {@code Authorization: Bearer <token>}; other schemes (Basic) are left to their
 * own filter. A bearer header without a token is refused rather than ignored, so a
 * client's mistake shows as a 401.
 */
final class BearerTokenConverter implements AuthenticationConverter {

	private static final String SCHEME = "Bearer";

	@Override
	public Authentication convert(HttpServletRequest request) {
		String header = request.getHeader(HttpHeaders.AUTHORIZATION);
		if (header == null || !header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())
				|| (header.length() > SCHEME.length() && header.charAt(SCHEME.length()) != ' ')) {
			return null;
		}
		String token = header.substring(SCHEME.length()).strip();
		if (token.isEmpty()) {
			throw new InvalidTokenException("the Authorization header names the Bearer scheme but carries no token");
		}
		return BearerTokenAuthentication.unauthenticated(token);
	}

}
