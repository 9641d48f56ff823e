package io.refstore.benchmark;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Copies and deletes repositories on disk. Objects are shared through hard links: nothing
 * the benchmark runs writes objects, so a fresh copy of a repository for a mutating run
 * costs only its ref files. Stateless and thread-safe.
 */
final class RepoFiles {

	private RepoFiles() {
	}

	/**
	 * A fresh copy of a repository: ref files copied, everything under {@code objects/}
	 * hard-linked.
	 * @param from an existing repository
	 * @param to a path that must not exist yet
	 */
	static void copyRepo(Path from, Path to) throws IOException {
		Files.walkFileTree(from, new SimpleFileVisitor<>() {

			@Override
			public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
				Path target = to.resolve(from.relativize(dir));
				if (from.relativize(dir).toString().equals("objects")) {
					linkTree(dir, target);
					return FileVisitResult.SKIP_SUBTREE;
				}
				Files.createDirectory(target);
				return FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
				Files.copy(file, to.resolve(from.relativize(file)), StandardCopyOption.COPY_ATTRIBUTES,
						LinkOption.NOFOLLOW_LINKS);
				return FileVisitResult.CONTINUE;
			}

		});
	}

	/**
	 * Recreates the directory tree {@code from} at {@code to}, each file a hard link to
	 * the original.
	 */
	static void linkTree(Path from, Path to) throws IOException {
		Files.walkFileTree(from, new SimpleFileVisitor<>() {

			@Override
			public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
				Files.createDirectories(to.resolve(from.relativize(dir)));
				return FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
				Files.createLink(to.resolve(from.relativize(file)), file);
				return FileVisitResult.CONTINUE;
			}

		});
	}

	/**
	 * Writes every dirty page and pending journal entry of the file system holding
	 * {@code path} to disk.
	 */
	static void syncFileSystem(Path path) throws IOException {
		Process sync = new ProcessBuilder("sync", "-f", path.toString()).inheritIO().start();
		try {
			if (sync.waitFor() != 0) {
				throw new IOException("sync -f " + path + " failed with exit code " + sync.exitValue());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new java.io.InterruptedIOException("interrupted while syncing " + path);
		}
	}

	/** Deletes a directory tree; nothing happens if it does not exist. */
	static void deleteTree(Path root) throws IOException {
		if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
			return;
		}
		Files.walkFileTree(root, new SimpleFileVisitor<>() {

			@Override
			public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
				Files.delete(file);
				return FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
				if (failure != null) {
					throw failure;
				}
				Files.delete(dir);
				return FileVisitResult.CONTINUE;
			}

		});
	}

}
