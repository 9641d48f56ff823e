package io.refstore.web.security;

import java.util.Collection;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;

/**
 * A user another node of the fleet authenticated and forwarded a request for, with the
 * roles that node found: the name is the user's, so audit entries and reflogs name the
 * user; {@link #node()} says which node vouched for them.
 */
public final class NodeForwardedAuthentication extends AbstractAuthenticationToken {

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
	public String node() {
		return this.node;
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
