package io.refstore.core.reftable;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Supplier;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.ReflogPolicy;

/**
 * What the reftable backend needs to know about its repository.
 *
 * @param gitDir the git directory (pseudorefs such as {@code FETCH_HEAD} stay plain files
 * here)
 * @param stackDir the stack's directory, {@code <common dir>/reftable}
 * @param reflogPolicy which refs get a reflog ({@code core.logAllRefUpdates})
 * @param stack how the stack writes and compacts
 * @param objects the object database, to check new values and peel tags
 * @param committer who reflog entries name, asked once per transaction
 */
public record ReftableOptions(Path gitDir, Path stackDir, ReflogPolicy reflogPolicy, StackOptions stack,
		ObjectDatabase objects, Supplier<PersonIdent> committer) {

	public ReftableOptions {
		Objects.requireNonNull(gitDir, "gitDir");
		Objects.requireNonNull(stackDir, "stackDir");
		Objects.requireNonNull(reflogPolicy, "reflogPolicy");
		Objects.requireNonNull(stack, "stack");
		Objects.requireNonNull(objects, "objects");
		Objects.requireNonNull(committer, "committer");
	}

}
