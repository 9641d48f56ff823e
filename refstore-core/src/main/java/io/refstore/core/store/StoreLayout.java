package io.refstore.core.store;

import java.io.IOException;
import java.nio.file.Path;

import io.refstore.core.ref.RefFormat;

/**
 * How a whole store of one format moves in and out of a git directory, for a format swap:
 * what a migration needs of the backends, without knowing them. A layout of one format
 * also leaves behind what git of the other format expects (the reftable stubs in
 * {@code HEAD} and {@code refs/heads}). Every method returns only once its changes are
 * forced to the disk, directories included, so the step after it never rests on a change
 * a power cut could undo.
 */
public interface StoreLayout {

	/** The format of the stores this layout moves. */
	RefFormat format();

	/**
	 * Puts the store built in {@code staged} ({@link RefStores#initialWriter}) in place
	 * in {@code gitDir} while the configuration still names the other format, whose git
	 * ignores it; leftovers of an interrupted earlier staging are removed first, so that
	 * none resurfaces as a ref after the switch.
	 */
	void stage(Path staged, Path gitDir) throws IOException;

	/**
	 * Removes a store {@link #stage} put in {@code gitDir} that was never switched to,
	 * leaving the git directory as git of the other format (which the configuration still
	 * names) expects it.
	 */
	void unstage(Path gitDir) throws IOException;

	/**
	 * Moves this format's store out of {@code gitDir} into {@code backup} once the
	 * configuration names the other format, leaving what git of that format expects.
	 * Idempotent: a migration interrupted after the switch runs it again.
	 * @param strays where a {@code refs/heads} directory that a git process made anew
	 * after a files store was retired is moved (laid out like a git directory), for the
	 * caller to carry its refs; unused by reftable
	 */
	void retire(Path gitDir, Path backup, Path strays) throws IOException;

}
