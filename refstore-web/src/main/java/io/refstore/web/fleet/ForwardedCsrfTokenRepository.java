package io.refstore.web.fleet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.security.web.csrf.DefaultCsrfToken;
import org.springframework.security.web.csrf.HttpSessionCsrfTokenRepository;

/**
 * The console's CSRF tokens: the session's ({@link HttpSessionCsrfTokenRepository}), but
 * for a page another node of the fleet forwards, the forwarding node's token (header
 * {@value #HEADER}): the forms that page renders post back to that node, which checks
 * them against its session. A forwarded request never makes a session here.
 */
final class ForwardedCsrfTokenRepository implements CsrfTokenRepository {

	/** The header a forwarding node puts its session's raw token in. */
	static final String HEADER = "X-Refstore-Csrf";

	private final HttpSessionCsrfTokenRepository sessions;

	ForwardedCsrfTokenRepository(HttpSessionCsrfTokenRepository sessions) {
		this.sessions = sessions;
	}

	/**
	 * The raw token of {@code request}'s session, for a request this node forwards; made
	 * now if the session has none yet (a sign-in replaces the token lazily).
	 */
	static String rawToken(HttpServletRequest request) {
		if (request.getAttribute(CsrfToken.class.getName()) instanceof CsrfToken deferred) {
			// the deferred token: reading it makes and saves it
			deferred.getToken();
		}
		CsrfToken token = new HttpSessionCsrfTokenRepository().loadToken(request);
		return (token != null) ? token.getToken() : null;
	}

	@Override
	public CsrfToken generateToken(HttpServletRequest request) {
		String forwarded = forwarded(request);
		return (forwarded != null) ? token(forwarded) : this.sessions.generateToken(request);
	}

	@Override
	public void saveToken(CsrfToken token, HttpServletRequest request, HttpServletResponse response) {
		if (request.getHeader(NodeSignature.NODE) == null) {
			this.sessions.saveToken(token, request, response);
		}
	}

	@Override
	public CsrfToken loadToken(HttpServletRequest request) {
		String forwarded = forwarded(request);
		return (forwarded != null) ? token(forwarded) : this.sessions.loadToken(request);
	}

	private static String forwarded(HttpServletRequest request) {
		return (request.getHeader(NodeSignature.NODE) != null) ? request.getHeader(HEADER) : null;
	}

	private static CsrfToken token(String value) {
		return new DefaultCsrfToken("X-CSRF-TOKEN", "_csrf", value);
	}

}
