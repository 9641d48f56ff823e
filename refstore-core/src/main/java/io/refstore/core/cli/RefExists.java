package io.refstore.core.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Optional;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.WorktreeRef;

/**
 * Whether one ref exists, as {@code git show-ref --exists} and {@code git refs exists}
 * ask: the exact name, no DWIM, symbolic refs not followed (a dangling one exists), the
 * object not looked at. Missing: exit 2 with {@code error: reference does not exist}.
 */
final class RefExists {

	/** git's exit code for a ref that does not exist. */
	static final int MISSING = 2;

	private RefExists() {
	}

	static int check(CommandContext context, String name) throws CommandFailure, IOException {
		if (!found(context, name)) {
			throw CommandFailure.error("reference does not exist", MISSING);
		}
		return 0;
	}

	private static boolean found(CommandContext context, String name) throws IOException {
		if (RefName.isPseudoRef(name)) {
			// FETCH_HEAD and MERGE_HEAD stay files beside the store in every format
			return Files.isRegularFile(context.repository().gitDir().resolve(name));
		}
		WorktreeRef.Scope scope = WorktreeRef.parse(name).scope();
		boolean otherWorktree = scope == WorktreeRef.Scope.OTHER || scope == WorktreeRef.Scope.MAIN;
		if (!name.startsWith("refs/") && !RefName.isRootRefSyntax(name) && !otherWorktree) {
			return false;
		}
		try {
			Optional<Ref> ref = context.refs().exactRef(name);
			return ref.isPresent();
		}
		catch (IllegalArgumentException ex) {
			// a name the store cannot hold (a directory's, a malformed one) is no ref
			return false;
		}
	}

}
