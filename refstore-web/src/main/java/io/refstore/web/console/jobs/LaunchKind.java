package io.refstore.web.console.jobs;

import java.util.Locale;

import io.refstore.web.system.Problems;

/**
 * The launch forms the console offers, and the role each needs: OPERATOR for what can be
 * undone or changes nothing (migration, maintenance, a deletion plan), ADMIN for what
 * puts back older state (restore, rollback).
 */
public enum LaunchKind {

	/** Migration or its dry run. */
	MIGRATION("Migrate refs", false), MAINTENANCE("Maintenance", false), DELETION("Plan a deletion", false),
	RESTORE("Restore deleted refs", true), ROLLBACK("Roll back a migration", true);

	private final String title;

	private final boolean admin;

	LaunchKind(String title, boolean admin) {
		this.title = title;
		this.admin = admin;
	}

	public String title() {
		return this.title;
	}

	public boolean admin() {
		return this.admin;
	}

	public String path() {
		return name().toLowerCase(Locale.ROOT);
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
