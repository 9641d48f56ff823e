package io.refstore.core.io;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Whole-file and whole-directory moves within one file system, each one atomic
 * {@code rename}, and the helpers a store swap needs. Every method is idempotent: a
 * source that is already gone is done. Moves and atomic writes are durable when they
 * return (see {@link Fsync}): a swap takes its next step only on what a power cut would
 * keep.
 */
public final class FileMoves {

	/** The longest path Linux takes, in bytes, its terminating zero byte included. */
	public static final int PATH_MAX = 4096;

	private FileMoves() {
	}

	/**
	 * Renames {@code from} to {@code to}, replacing a file at {@code to}; creates
	 * {@code to}'s parent. The directories of both are forced after the rename (the
	 * content moved must have been forced before).
	 * @return whether anything was moved ({@code false} if {@code from} did not exist)
	 */
	public static boolean move(Path from, Path to) throws IOException {
		if (!Files.exists(from, LinkOption.NOFOLLOW_LINKS)) {
			return false;
		}
		Fsync.createDirectories(to.getParent());
		Fsync.rename(from, to);
		return true;
	}

	/**
	 * {@link #move} for a store moved into its backup, which also finishes such a move
	 * that a power cut left half durable: on a file system that keeps each directory's
	 * entries apart, a cut between the syncs of the two directories a rename touched can
	 * leave a directory both at {@code to} and at {@code from}. Where {@code to} already
	 * is a directory that is not empty, what {@code from} holds beyond it is moved in,
	 * what both hold must be equal (the same bytes, or links to the same target) and goes
	 * from {@code from}, and {@code from} is removed last.
	 * @return whether anything was moved or removed
	 * @throws IOException naming both places if they hold different contents under one
	 * name (nothing of that name is removed)
	 */
	public static boolean moveFinishing(Path from, Path to) throws IOException {
		if (Files.isDirectory(from, LinkOption.NOFOLLOW_LINKS) && Files.isDirectory(to, LinkOption.NOFOLLOW_LINKS)
				&& !isEmptyDirectory(to)) {
			merge(from, to);
			Fsync.nearestDirectories(List.of(from.getParent()));
			return true;
		}
		return move(from, to);
	}

	private static void merge(Path from, Path to) throws IOException {
		try (DirectoryStream<Path> children = Files.newDirectoryStream(from)) {
			for (Path child : children) {
				Path target = to.resolve(child.getFileName().toString());
				if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
					Fsync.rename(child, target);
				}
				else if (Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS)
						&& Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
					merge(child, target);
				}
				else if (sameEntry(child, target)) {
					Files.delete(child);
				}
				else {
					throw new IOException("'" + child + "' and '" + target + "' differ, and a move of '" + from
							+ "' into the backup left both: compare them and keep the right one by hand");
				}
			}
		}
		Files.delete(from);
	}

	private static boolean sameEntry(Path a, Path b) throws IOException {
		if (Files.isSymbolicLink(a) && Files.isSymbolicLink(b)) {
			return Files.readSymbolicLink(a).equals(Files.readSymbolicLink(b));
		}
		return Files.isRegularFile(a, LinkOption.NOFOLLOW_LINKS) && Files.isRegularFile(b, LinkOption.NOFOLLOW_LINKS)
				&& Files.mismatch(a, b) == -1;
	}

	private static boolean isEmptyDirectory(Path dir) throws IOException {
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
			return !entries.iterator().hasNext();
		}
	}

	/**
	 * Replaces {@code file}'s content atomically and durably (a forced temporary file
	 * beside it renamed over it).
	 */
	public static void writeAtomically(Path file, byte[] content) throws IOException {
		writeAtomically(file, content, file.resolveSibling(file.getFileName() + ".refstore-tmp"));
	}

	/**
	 * Replaces {@code file}'s content atomically through {@code temp} (same file system),
	 * for a file whose directory must not see a temporary file that a kill could leave
	 * behind. Durable as {@link Fsync#writeAtomically}, with the temporary file's
	 * directory forced too.
	 */
	public static void writeAtomically(Path file, byte[] content, Path temp) throws IOException {
		Fsync.writeAtomically(file, content, content.length, temp);
	}

	/** Deletes a file or a directory tree; a missing path is fine. */
	public static void deleteTree(Path path) throws IOException {
		if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
			return;
		}
		Files.walkFileTree(path, new SimpleFileVisitor<>() {

			@Override
			public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
				deleteQuietly(file);
				return FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult postVisitDirectory(Path dir, IOException ex) throws IOException {
				deleteQuietly(dir);
				return FileVisitResult.CONTINUE;
			}

		});
	}

	/** What {@link #forEachFile} does with each regular file and its attributes. */
	@FunctionalInterface
	public interface FileAction {

		void accept(Path file, BasicFileAttributes attributes) throws IOException;

	}

	/**
	 * Visits every regular file below {@code root}, skipping what disappears while the
	 * walk runs: git's writers create and remove lock files and loose refs all the time,
	 * and a walk of a live store must not fail on them.
	 */
	public static void forEachFile(Path root, FileAction action) throws IOException {
		BasicFileAttributes attributes;
		try {
			attributes = Files.readAttributes(root, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
		}
		catch (NoSuchFileException ex) {
			return;
		}
		visit(root, attributes, action);
	}

	/**
	 * {@link #forEachFile} below {@code path}: a directory's entries through
	 * {@link Directories} (fewer system calls than {@link Files#walkFileTree}), links not
	 * followed.
	 */
	private static void visit(Path path, BasicFileAttributes attributes, FileAction action) throws IOException {
		if (attributes.isRegularFile()) {
			action.accept(path, attributes);
			return;
		}
		if (!attributes.isDirectory()) {
			return;
		}
		List<Path> entries;
		try {
			entries = Directories.entries(path);
		}
		catch (NoSuchFileException ex) {
			return;
		}
		for (Path entry : entries) {
			BasicFileAttributes entryAttributes;
			try {
				entryAttributes = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
			}
			catch (NoSuchFileException ex) {
				continue;
			}
			visit(entry, entryAttributes, action);
		}
	}

	/**
	 * Deletes every {@code *.lock} file below {@code dir} (locks that moved along with a
	 * retired store).
	 */
	public static void deleteLocks(Path dir) throws IOException {
		List<Path> locks = new ArrayList<>();
		Directories.forEachLeaf(dir, "", (file, name) -> {
			if (name.endsWith(".lock")) {
				locks.add(file);
			}
		});
		for (Path lock : locks) {
			deleteQuietly(lock);
		}
	}

	private static void deleteQuietly(Path path) throws IOException {
		try {
			Files.delete(path);
		}
		catch (NoSuchFileException ex) {
			// already gone
		}
	}

}
