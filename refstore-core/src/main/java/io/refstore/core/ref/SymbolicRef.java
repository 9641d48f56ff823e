package io.refstore.core.ref;

import java.util.Objects;

/**
 * A reference that names another reference, as {@code HEAD} names the checked-out branch.
 *
 * @param name the full ref name
 * @param target the full name of the referenced ref, which need not exist (an unborn
 * branch)
 */
public record SymbolicRef(String name, String target) implements Ref {

	public SymbolicRef {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(target, "target");
	}

}
