package io.refstore.core.reftable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

import io.refstore.core.io.FileMoves;
import io.refstore.core.io.Fsync;

/**
 * Moves a whole reftable store ({@code reftable/}) in or out of a git directory, for a
 * format swap, and writes the stubs that make old gits stop at a reftable repository
 * instead of misreading it. Every method returns only once its changes are forced to the
 * disk, directories included.
 */
public final class ReftableLayout {

	/**
	 * What git leaves in {@code HEAD} of a reftable repository: not a valid ref name, on
	 * purpose.
	 */
	static final String HEAD_STUB = "ref: refs/heads/.invalid\n";

	/** The content of the {@code refs/heads} stub file. */
	static final String REFS_HEADS_STUB = "this repository uses the reftable format\n";

	private ReftableLayout() {
	}

	/**
	 * Puts {@code staged/reftable} in place while the configuration still names the files
	 * format.
	 */
	public static void stage(Path staged, Path gitDir) throws IOException {
		Path target = gitDir.resolve("reftable");
		FileMoves.deleteTree(target);
		FileMoves.move(staged.resolve("reftable"), target);
	}

	/**
	 * Writes git's stubs: {@code HEAD} pointing at an invalid name and a regular file
	 * {@code refs/heads}, so no old git can create loose branches here.
	 */
	public static void writeStubs(Path gitDir) throws IOException {
		writeStubs(gitDir, null);
	}

	/**
	 * As {@link #writeStubs(Path)}, moving a {@code refs/heads} directory that is in the
	 * way into {@code strays} (laid out like a git directory) instead of deleting it:
	 * right after a files store was retired, a git process that read the configuration
	 * before the switch may have made it anew and written a ref there, which the caller
	 * then carries into the new store.
	 * @param strays where such a directory goes, or {@code null} to delete it (a store
	 * that is the caller's own)
	 */
	public static void writeStubs(Path gitDir, Path strays) throws IOException {
		FileMoves.writeAtomically(gitDir.resolve("HEAD"), HEAD_STUB.getBytes(StandardCharsets.US_ASCII));
		Path heads = gitDir.resolve("refs/heads");
		Fsync.createDirectories(heads.getParent());
		if (!Files.isRegularFile(heads, LinkOption.NOFOLLOW_LINKS)) {
			if (strays != null && Files.isDirectory(heads, LinkOption.NOFOLLOW_LINKS)) {
				FileMoves.move(heads, strays.resolve("refs/heads"));
			}
			FileMoves.deleteTree(heads);
			// the temporary file is not made in refs/: left there by a kill, a later
			// retire would move it
			// into the backup as if it were a ref
			FileMoves.writeAtomically(heads, REFS_HEADS_STUB.getBytes(StandardCharsets.US_ASCII),
					gitDir.resolve("refs-heads.refstore-tmp"));
		}
	}

	/**
	 * Moves {@code reftable/} into {@code backup} (after the configuration names the
	 * files format).
	 */
	public static void retire(Path gitDir, Path backup) throws IOException {
		FileMoves.moveFinishing(gitDir.resolve("reftable"), backup.resolve("reftable"));
		FileMoves.deleteLocks(backup);
	}

}
