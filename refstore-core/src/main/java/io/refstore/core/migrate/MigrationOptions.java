package io.refstore.core.migrate;

import java.util.Objects;

import io.refstore.core.ref.RefFormat;

/**
 * What a migration does.
 *
 * @param target the format to move to
 * @param dryRun build and verify the new store without swapping it in (it is left where
 * the report says)
 * @param reflogs carry reflogs over ({@code --no-reflog} drops them)
 */
public record MigrationOptions(RefFormat target, boolean dryRun, boolean reflogs) {

	public MigrationOptions {
		Objects.requireNonNull(target, "target");
	}

	/** A real migration to {@code target}, reflogs included. */
	public static MigrationOptions to(RefFormat target) {
		return new MigrationOptions(target, false, true);
	}

}
