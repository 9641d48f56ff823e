package io.refstore.web.security;

import java.util.Collection;
import java.util.List;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;

/**
 * An API token presented as {@code Authorization: Bearer <token>}: unauthenticated it
 * carries the secret; once {@link ApiTokenAuthenticationProvider} accepted it, the
 * owner's name, the token id and the owner's current authorities (the secret is dropped).
 */
final class BearerTokenAuthentication extends AbstractAuthenticationToken {

	private static final long serialVersionUID = 1L;

	private final String owner;

	private final long tokenId;

	private transient String secret;

	private BearerTokenAuthentication(String secret) {
		super(List.of());
		this.owner = null;
		this.tokenId = -1;
		this.secret = secret;
	}

	private BearerTokenAuthentication(String owner, long tokenId, Collection<? extends GrantedAuthority> authorities) {
		super(authorities);
		this.owner = owner;
		this.tokenId = tokenId;
		setAuthenticated(true);
	}

	static BearerTokenAuthentication unauthenticated(String secret) {
		return new BearerTokenAuthentication(secret);
	}

	static BearerTokenAuthentication authenticated(String owner, long tokenId,
			Collection<? extends GrantedAuthority> authorities) {
		return new BearerTokenAuthentication(owner, tokenId, authorities);
	}

	@Override
	public Object getCredentials() {
		return this.secret;
	}

	@Override
	public Object getPrincipal() {
		return this.owner;
	}

	@Override
	public String getName() {
		return (this.owner == null) ? "" : this.owner;
	}

	/** The id of the token used, or -1 before authentication. */
	long tokenId() {
		return this.tokenId;
	}

	@Override
	public void eraseCredentials() {
		this.secret = null;
		super.eraseCredentials();
	}

}
