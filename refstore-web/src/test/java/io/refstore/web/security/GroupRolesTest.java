package io.refstore.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.security.core.GrantedAuthority;

/**
 * The mapping of an identity provider's groups to roles: every role of every listed
 * group, none for unlisted groups or a missing claim, role names in any case, unknown
 * roles refused at start-up; and the name a user is known by.
 */
class GroupRolesTest {

	private final GroupRoles roles = new GroupRoles(new SecurityProperties.Sso("groups",
			Map.of("ADMIN", List.of("admins"), "operator", List.of("ops", "admins"), "VIEWER", List.of("staff"))));

	private static List<String> names(List<GrantedAuthority> authorities) {
		return authorities.stream().map(GrantedAuthority::getAuthority).toList();
	}

	@Test
	void eachListedGroupGrantsItsRoles() {
		assertThat(names(this.roles.authorities(List.of("admins")))).containsExactlyInAnyOrder("ROLE_ADMIN",
				"ROLE_OPERATOR");
		assertThat(names(this.roles.authorities(List.of("staff", "ops", "other"))))
			.containsExactlyInAnyOrder("ROLE_VIEWER", "ROLE_OPERATOR");
	}

	@Test
	void anUnlistedGroupOrNoGroupGrantsNothing() {
		assertThat(this.roles.authorities(List.of("other", "Admins"))).isEmpty();
		assertThat(this.roles.authorities(Map.of("sub", "alice"))).isEmpty();
		assertThat(this.roles.authorities(Map.of("groups", List.of()))).isEmpty();
	}

	@Test
	void theClaimIsAListOrOneName() {
		assertThat(names(this.roles.authorities(Map.of("groups", List.of("other", "staff")))))
			.containsExactly("ROLE_VIEWER");
		assertThat(names(this.roles.authorities(Map.of("groups", "staff")))).containsExactly("ROLE_VIEWER");
		GroupRoles roles = new GroupRoles(new SecurityProperties.Sso("roles", Map.of("ADMIN", List.of("staff"))));
		assertThat(names(roles.authorities(Map.of("groups", "staff", "roles", List.of("staff")))))
			.containsExactly("ROLE_ADMIN");
	}

	@Test
	void anUnknownRoleIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new GroupRoles(new SecurityProperties.Sso("groups", Map.of("OWNER", List.of("x")))))
			.withMessageContaining("unknown role 'OWNER'");
	}

	@Test
	void aUserIsNamedByPreferredUsernameOrSubject() {
		assertThat(GroupRoles.userNameClaim(Map.of("sub", "1234", "preferred_username", "alice")))
			.isEqualTo("preferred_username");
		assertThat(GroupRoles.userNameClaim(Map.of("sub", "1234", "preferred_username", " "))).isEqualTo("sub");
		assertThat(GroupRoles.userNameClaim(Map.of("sub", "1234"))).isEqualTo("sub");
	}

}
