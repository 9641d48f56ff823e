package io.refstore.web.security;

import java.util.Locale;
import java.util.Map;

import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Component;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.RefJobParameters;
import io.refstore.batch.api.RefJobType;

/**
 * The one rule of which role a job needs, for every way of launching one: the API and the
 * console ({@code JobService}), the console's launch forms, schedules and campaigns.
 * Destructive execution needs ADMIN: a migration (it swaps the store), a rollback, a
 * restore, a deletion that is not a plan-only run, a plan that overrides the protected
 * refs, and a journal retention (it deletes journal entries for good). What changes
 * nothing or can be run again needs OPERATOR: a verification (a migration's dry run),
 * maintenance, an inventory, a deletion plan. Thread-safe.
 */
@Component
public class JobPolicy {

	private final RoleHierarchy hierarchy;

	JobPolicy(RoleHierarchy hierarchy) {
		this.hierarchy = hierarchy;
	}

	/**
	 * The role a job of {@code type} needs with these parameters.
	 * @param parameters by {@link io.refstore.batch.api.JobParameterNames} key, as a
	 * caller gives them or an execution holds them; only a deletion's change the answer
	 */
	public static String role(RefJobType type, Map<String, ?> parameters) {
		return switch (type) {
			case VERIFY, MAINTAIN, INVENTORY -> Roles.OPERATOR;
			case MIGRATE, ROLLBACK, RESTORE, REWIND, JOURNAL_RETENTION -> Roles.ADMIN;
			case DELETE -> (flag(parameters, JobParameterNames.PLAN_ONLY)
					&& !flag(parameters, JobParameterNames.OVERRIDE_PROTECTION)) ? Roles.OPERATOR : Roles.ADMIN;
		};
	}

	/**
	 * A flag as the typed parameters read it ({@code true} exactly; they refuse what is
	 * neither true nor false), read here without the checks of a whole selection so that
	 * any parameter set, even one about to be refused, gets an answer.
	 */
	private static boolean flag(Map<String, ?> parameters, String key) {
		Object value = parameters.get(key);
		return value != null && "true".equals(value.toString());
	}

	/** The role a job with these parameters needs. */
	public static String role(RefJobParameters parameters) {
		return role(parameters.type(), parameters.toMap());
	}

	/**
	 * Whether {@code actor} may launch a job of {@code type} with these parameters, its
	 * roles implied by the hierarchy included.
	 */
	public boolean allows(Authentication actor, RefJobType type, Map<String, ?> parameters) {
		String needed = "ROLE_" + role(type, parameters);
		return actor != null && this.hierarchy.getReachableGrantedAuthorities(actor.getAuthorities())
			.stream()
			.anyMatch((authority) -> needed.equals(authority.getAuthority()));
	}

	/**
	 * Whether {@code actor} may launch a job of the type {@code type} names (a
	 * {@link RefJobType} constant) without parameters: for a deletion, one that deletes.
	 * For method security's expressions.
	 */
	public boolean allows(Authentication actor, String type) {
		return allows(actor, RefJobType.valueOf(type), Map.of());
	}

	/**
	 * Whether {@code actor} may plan a deletion, overriding the protection or not. For
	 * method security's expressions.
	 */
	public boolean allowsPlan(Authentication actor, boolean overrideProtection) {
		return allows(actor, RefJobType.DELETE, Map.of(JobParameterNames.PLAN_ONLY, "true",
				JobParameterNames.OVERRIDE_PROTECTION, Boolean.toString(overrideProtection)));
	}

	/**
	 * Refuses {@code actor} a job it may not launch.
	 * @param launcher what would launch it, as the refusal says: {@code schedules},
	 * {@code campaigns}, {@code launches}
	 * @throws AccessDeniedException naming the role needed
	 */
	public void check(Authentication actor, RefJobType type, Map<String, ?> parameters, String launcher) {
		if (!allows(actor, type, parameters)) {
			throw new AccessDeniedException(launcher + " of " + type.name().toLowerCase(Locale.ROOT)
					+ " jobs like this need role " + role(type, parameters));
		}
	}

}
