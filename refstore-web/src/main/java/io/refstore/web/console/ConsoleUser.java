package io.refstore.web.console;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;

import io.refstore.batch.api.RefJobType;
import io.refstore.web.security.JobPolicy;
import io.refstore.web.security.Roles;

/**
 * Who is looking at a console page, for deciding which controls to show: the user name,
 * the strongest role, and what that role (through the role hierarchy) allows. Showing a
 * control is a courtesy; the services refuse anything the role does not allow whatever
 * the page showed.
 *
 * @param name the user name, or {@code null} when nobody is logged in
 * @param role the strongest role held ({@code ADMIN}, {@code OPERATOR}, {@code VIEWER})
 * or {@code NONE}
 * @param operator whether the user may run jobs, dry runs and plans and read the audit
 * log
 * @param admin whether the user may run destructive jobs (execute a deletion, roll back,
 * restore)
 */
public record ConsoleUser(String name, String role, boolean operator, boolean admin) {

	/** Nobody logged in. */
	public static final ConsoleUser ANONYMOUS = new ConsoleUser(null, "NONE", false, false);

	/**
	 * The user of {@code authentication} ({@link #ANONYMOUS} for none), with roles
	 * expanded by {@code hierarchy}.
	 */
	public static ConsoleUser of(Authentication authentication, RoleHierarchy hierarchy) {
		if (authentication == null || !authentication.isAuthenticated()
				|| authentication instanceof AnonymousAuthenticationToken) {
			return ANONYMOUS;
		}
		Collection<? extends GrantedAuthority> reachable = hierarchy
			.getReachableGrantedAuthorities(authentication.getAuthorities());
		Set<String> roles = reachable.stream().map(GrantedAuthority::getAuthority).collect(Collectors.toSet());
		boolean admin = roles.contains("ROLE_ADMIN");
		boolean operator = roles.contains("ROLE_OPERATOR");
		String role = admin ? "ADMIN" : operator ? "OPERATOR" : roles.contains("ROLE_VIEWER") ? "VIEWER" : "NONE";
		return new ConsoleUser(authentication.getName(), role, operator, admin);
	}

	/**
	 * Whether the role may launch a job of {@code type} with these parameters, and so
	 * restart it, or create, change, pause or cancel a schedule or campaign that launches
	 * it: the role {@link JobPolicy#role} names, or a stronger one.
	 * @param type the job's type; {@code null} (a job refstore does not know) for none
	 */
	public boolean mayRun(RefJobType type, Map<String, ?> parameters) {
		if (type == null) {
			return false;
		}
		String needed = JobPolicy.role(type, (parameters != null) ? parameters : Map.of());
		return Roles.ADMIN.equals(needed) ? this.admin : this.operator;
	}

}
