package io.refstore.web.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * The roles an identity provider's groups grant ({@link SecurityProperties.Sso}): every
 * role one of the groups is listed for, none when no group is. The same for OpenID
 * Connect sign-ins, bearer JWTs and LDAP. Thread-safe.
 */
final class GroupRoles {

	private final String groupsClaim;

	/** The roles of each group. */
	private final Map<String, Set<String>> roles = new LinkedHashMap<>();

	/**
	 * @throws IllegalArgumentException if a role is not one of {@link Roles#ALL}
	 */
	GroupRoles(SecurityProperties.Sso settings) {
		this.groupsClaim = settings.groupsClaim();
		settings.roles().forEach((role, groups) -> {
			String name = role.toUpperCase(Locale.ROOT);
			if (!Roles.ALL.contains(name)) {
				throw new IllegalArgumentException(
						"refstore.security.sso.roles: unknown role '" + role + "' (known: " + Roles.ALL + ")");
			}
			for (String group : groups) {
				this.roles.computeIfAbsent(group.strip(), (key) -> new LinkedHashSet<>()).add(name);
			}
		});
	}

	/** The {@code ROLE_} authorities that {@code groups} grant. */
	List<GrantedAuthority> authorities(Collection<String> groups) {
		Set<String> granted = new LinkedHashSet<>();
		for (String group : groups) {
			granted.addAll(this.roles.getOrDefault(group, Set.of()));
		}
		return granted.stream().<GrantedAuthority>map((role) -> new SimpleGrantedAuthority("ROLE_" + role)).toList();
	}

	/**
	 * The authorities that the groups claim among {@code claims} grants: the claim is a
	 * list of group names or one name; absent, it grants nothing.
	 */
	List<GrantedAuthority> authorities(Map<String, Object> claims) {
		Object claim = claims.get(this.groupsClaim);
		List<String> groups = new ArrayList<>();
		if (claim instanceof Collection<?> names) {
			names.forEach((name) -> groups.add(String.valueOf(name)));
		}
		else if (claim != null) {
			groups.add(String.valueOf(claim));
		}
		return authorities(groups);
	}

	/**
	 * The name refstore knows a signed-in user by (in the audit log, reflogs, the
	 * console's header): the claim {@code preferred_username} when there is one, the
	 * subject otherwise.
	 */
	static String userNameClaim(Map<String, Object> claims) {
		Object preferred = claims.get("preferred_username");
		return (preferred instanceof String name && !name.isBlank()) ? "preferred_username" : "sub";
	}

}
