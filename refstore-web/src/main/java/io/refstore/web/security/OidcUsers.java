package io.refstore.web.security;

import org.springframework.security.oauth2.client.oidc.userinfo.OidcUserRequest;
import org.springframework.security.oauth2.client.oidc.userinfo.OidcUserService;
import org.springframework.security.oauth2.client.userinfo.OAuth2UserService;
import org.springframework.security.oauth2.core.oidc.user.DefaultOidcUser;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;

/**
 * The user of an OpenID Connect sign-in: Spring Security's (ID token and user info
 * claims), named by {@code preferred_username} (or the subject) and with the roles its
 * groups claim grants ({@link GroupRoles}) as its only authorities. Thread-safe.
 */
final class OidcUsers implements OAuth2UserService<OidcUserRequest, OidcUser> {

	private final OidcUserService claims = new OidcUserService();

	private final GroupRoles roles;

	OidcUsers(GroupRoles roles) {
		this.roles = roles;
	}

	@Override
	public OidcUser loadUser(OidcUserRequest request) {
		OidcUser user = this.claims.loadUser(request);
		return new DefaultOidcUser(this.roles.authorities(user.getClaims()), user.getIdToken(), user.getUserInfo(),
				GroupRoles.userNameClaim(user.getClaims()));
	}

}
