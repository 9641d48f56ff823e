package io.refstore.core.ref;

/**
 * A reference: a name and either an object id ({@link DirectRef}) or the name of another
 * reference ({@link SymbolicRef}).
 */
public sealed interface Ref permits DirectRef, SymbolicRef {

	/** The full name, such as {@code refs/heads/main} or {@code HEAD}. */
	String name();

	/** Whether this reference names another reference. */
	default boolean isSymbolic() {
		return this instanceof SymbolicRef;
	}

}
