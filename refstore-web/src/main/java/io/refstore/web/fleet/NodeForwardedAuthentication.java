package io.refstore.web.fleet;

import java.util.Collection;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * A user another node of the fleet authenticated and forwarded a request for, with the
 * roles that node found: the name is the user's, so audit entries and reflogs name the
 * user; {@link #node()} says which node vouched for them.
 */
final class NodeForwardedAuthentication extends AbstractAuthenticationToken {

	private static final long serialVersionUID = 1L;

	private final String user;

	private final String node;

	NodeForwardedAuthentication(String user, String node, Collection<? extends GrantedAuthority> authorities) {
		super(authorities);
		this.user = user;
		this.node = node;
		setAuthenticated(true);
	}

	/** The node that forwarded the request. */
	String node() {
		return this.node;
	}

	/**
	 * The node that forwarded the current request for its user, or {@code null} for a
	 * request made here.
	 */
	static String current() {
		return (SecurityContextHolder.getContext().getAuthentication() instanceof NodeForwardedAuthentication forwarded)
				? forwarded.node() : null;
	}

	@Override
	public Object getCredentials() {
		return "";
	}

	@Override
	public Object getPrincipal() {
		return this.user;
	}

}
