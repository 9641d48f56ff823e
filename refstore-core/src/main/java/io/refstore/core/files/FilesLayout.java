package io.refstore.core.files;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

import io.refstore.core.io.FileMoves;
import io.refstore.core.io.Fsync;
import io.refstore.core.ref.RefName;

/**
 * Moves a whole files-format store in or out of a git directory, for a format swap. A
 * store directory holds {@code packed-refs}, {@code refs/}, {@code logs/}, {@code HEAD}
 * and root ref files, laid out as in a git directory (what {@link FilesInitialWriter}
 * writes, and what {@link #retire} leaves in a backup). Every method returns only once
 * its changes are forced to the disk (directories included), so the step after it never
 * rests on a change a power cut could undo; the files moved must have been forced before.
 */
public final class FilesLayout {

	private FilesLayout() {
	}

	/**
	 * Puts a staged store in place while the configuration still names another format
	 * (whose git ignores these files): every move is one rename, and {@code refs/} never
	 * disappears, so the repository stays recognisable to git at every instant.
	 */
	public static void stage(Path staged, Path gitDir) throws IOException {
		Path refs = gitDir.resolve("refs");
		Path stub = refs.resolve("heads");
		if (Files.isRegularFile(stub, LinkOption.NOFOLLOW_LINKS)) {
			Files.delete(stub);
		}
		Fsync.createDirectories(refs);
		try (DirectoryStream<Path> children = Files.newDirectoryStream(staged.resolve("refs"))) {
			for (Path child : children) {
				Path target = refs.resolve(child.getFileName().toString());
				FileMoves.deleteTree(target);
				FileMoves.move(child, target);
			}
		}
		FileMoves.move(staged.resolve("packed-refs"), gitDir.resolve("packed-refs"));
		FileMoves.deleteTree(gitDir.resolve("logs"));
		FileMoves.move(staged.resolve("logs"), gitDir.resolve("logs"));
		try (DirectoryStream<Path> files = Files.newDirectoryStream(staged)) {
			for (Path file : files) {
				String name = file.getFileName().toString();
				if (!name.equals("HEAD") && RefName.isRootRef(name) && Files.isRegularFile(file)) {
					FileMoves.move(file, gitDir.resolve(name));
				}
			}
		}
		FileMoves.move(staged.resolve("HEAD"), gitDir.resolve("HEAD"));
	}

	/**
	 * Removes files-format leftovers from a git directory whose configuration names
	 * reftable (whose git ignores them): an interrupted earlier staging must not
	 * resurface as refs after a later switch. Keeps {@code HEAD}, pseudorefs and git's
	 * {@code refs/heads} stub.
	 */
	public static void clear(Path gitDir) throws IOException {
		FileMoves.deleteTree(gitDir.resolve("packed-refs"));
		FileMoves.deleteTree(gitDir.resolve("logs"));
		Path refs = gitDir.resolve("refs");
		if (Files.isDirectory(refs, LinkOption.NOFOLLOW_LINKS)) {
			try (DirectoryStream<Path> children = Files.newDirectoryStream(refs)) {
				for (Path child : children) {
					if (!isHeadsStub(child)) {
						FileMoves.deleteTree(child);
					}
				}
			}
		}
		try (DirectoryStream<Path> files = Files.newDirectoryStream(gitDir)) {
			for (Path file : files) {
				String name = file.getFileName().toString();
				if (!name.equals("HEAD") && RefName.isRootRef(name) && Files.isRegularFile(file)) {
					Files.delete(file);
				}
			}
		}
		// the removals must be on disk before the staging that follows: a leftover must
		// not come back later
		if (Files.isDirectory(refs, LinkOption.NOFOLLOW_LINKS)) {
			Fsync.directory(refs);
		}
		Fsync.directory(gitDir);
	}

	/**
	 * Moves the files store of {@code gitDir} into {@code backup} (after the
	 * configuration names another format), with the lock files of its refs, which are
	 * then deleted. {@code HEAD} is copied, not moved: the repository always needs one.
	 * Idempotent, also once git's stubs are in place: a migration interrupted after the
	 * switch runs it again.
	 */
	public static void retire(Path gitDir, Path backup) throws IOException {
		Fsync.createDirectories(backup.resolve("refs"));
		FileMoves.move(gitDir.resolve("packed-refs"), backup.resolve("packed-refs"));
		FileMoves.move(gitDir.resolve("packed-refs.lock"), backup.resolve("packed-refs.lock"));
		FileMoves.moveFinishing(gitDir.resolve("logs"), backup.resolve("logs"));
		Path refs = gitDir.resolve("refs");
		if (Files.isDirectory(refs, LinkOption.NOFOLLOW_LINKS)) {
			try (DirectoryStream<Path> children = Files.newDirectoryStream(refs)) {
				for (Path child : children) {
					// a retire run again after git's stubs were written must leave the
					// stub where it is
					if (!isHeadsStub(child)) {
						FileMoves.moveFinishing(child, backup.resolve("refs").resolve(child.getFileName().toString()));
					}
				}
			}
		}
		try (DirectoryStream<Path> files = Files.newDirectoryStream(gitDir)) {
			for (Path file : files) {
				if (isRootRefOrItsLock(file.getFileName().toString()) && Files.isRegularFile(file)) {
					FileMoves.move(file, backup.resolve(file.getFileName().toString()));
				}
			}
		}
		if (Files.isRegularFile(gitDir.resolve("HEAD")) && !Files.exists(backup.resolve("HEAD"))) {
			// temp file and rename: a copy killed halfway must not leave a short HEAD
			// that a rerun would keep
			FileMoves.writeAtomically(backup.resolve("HEAD"), Files.readAllBytes(gitDir.resolve("HEAD")));
		}
		// the locks are of refs (git and refstore lock a ref to write its log): below
		// refs/ and beside packed-refs, never among the logs, which are not walked
		FileMoves.deleteLocks(backup.resolve("refs"));
		try (DirectoryStream<Path> locks = Files.newDirectoryStream(backup, "*.lock")) {
			for (Path lock : locks) {
				Files.deleteIfExists(lock);
			}
		}
	}

	/**
	 * Whether {@code child} of {@code refs/} is the file that reftable repositories keep
	 * as {@code refs/heads}.
	 */
	private static boolean isHeadsStub(Path child) {
		return child.getFileName().toString().equals("heads") && Files.isRegularFile(child, LinkOption.NOFOLLOW_LINKS);
	}

	/**
	 * A root ref other than {@code HEAD} (which stays), or the lock of any root ref: a
	 * migration killed after the switch leaves the locks it held, which must go with the
	 * store instead of blocking git later.
	 */
	private static boolean isRootRefOrItsLock(String name) {
		if (name.endsWith(".lock")) {
			return RefName.isRootRef(name.substring(0, name.length() - ".lock".length()));
		}
		return !name.equals("HEAD") && RefName.isRootRef(name);
	}

}
