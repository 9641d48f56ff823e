package io.refstore.web.jobs;

import java.util.Locale;
import java.util.Map;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.security.JobPolicy;
import io.refstore.web.security.Roles;
import io.refstore.web.system.Problems;

/**
 * The launch forms the console offers, each with the least of the jobs it launches: who
 * may launch that one ({@link JobPolicy}) sees the form, and the service checks the job
 * the form asks for (a migration form's real migration needs ADMIN, its dry run
 * OPERATOR).
 */
public enum LaunchKind {

	/** Migration or its dry run (a verification). */
	MIGRATION("Migrate refs", RefJobType.VERIFY, Map.of()), MAINTENANCE("Maintenance", RefJobType.MAINTAIN, Map.of()),
	DELETION("Plan a deletion", RefJobType.DELETE, Map.of(JobParameterNames.PLAN_ONLY, "true")),
	RESTORE("Restore deleted refs", RefJobType.RESTORE, Map.of()),
	ROLLBACK("Roll back a migration", RefJobType.ROLLBACK, Map.of()),
	/** An inventory of the refs for the history; it changes nothing. */
	INVENTORY("Run an inventory", RefJobType.INVENTORY, Map.of());

	private final String title;

	private final RefJobType least;

	private final Map<String, String> leastParameters;

	LaunchKind(String title, RefJobType least, Map<String, String> leastParameters) {
		this.title = title;
		this.least = least;
		this.leastParameters = leastParameters;
	}

	/** The type of the least job the form launches. */
	public RefJobType least() {
		return this.least;
	}

	/** The parameters that make it the least. */
	public Map<String, String> leastParameters() {
		return this.leastParameters;
	}

	public String title() {
		return this.title;
	}

	/** Whether only ADMIN sees the form. */
	public boolean admin() {
		return Roles.ADMIN.equals(JobPolicy.role(this.least, this.leastParameters));
	}

	public String path() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * Whether the form asks for the repository's name again before it launches: a
	 * rollback replaces the live store, a restore rewrites refs.
	 */
	public boolean confirmed() {
		return this == ROLLBACK || this == RESTORE;
	}

	/**
	 * @throws org.springframework.web.ErrorResponseException 404 for a kind the console
	 * does not offer
	 */
	static LaunchKind of(String path) {
		for (LaunchKind kind : values()) {
			if (kind.path().equals(path)) {
				return kind;
			}
		}
		throw Problems.notFound("launch-form-not-found", "there is no launch form '" + Problems.printable(path) + "'",
				java.util.Map.of());
	}

}
