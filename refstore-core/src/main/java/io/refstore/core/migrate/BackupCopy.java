package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;

import io.refstore.core.io.Fsync;

/**
 * A rollback's copy of a backup's store into its work directory, byte for byte, every
 * file and directory synced: the backup itself is never moved, so it stays a whole copy
 * until the restored store is in place. Links in the backup are not followed: the walk
 * skips them, and a file that became one is refused.
 */
final class BackupCopy {

	/** Files of a backup that describe it and are not part of its store. */
	private static final Set<String> NOT_STORE = Set.of(BackupRecord.FILE, SwappedByJob.FILE);

	private BackupCopy() {
	}

	/**
	 * Copies the store kept in {@code backup} into {@code target}, which must not exist.
	 */
	static void copy(Path backup, Path target) throws IOException {
		Files.walkFileTree(backup, new SimpleFileVisitor<>() {

			@Override
			public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
				Files.createDirectories(target.resolve(backup.relativize(dir).toString()));
				return FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
				Path relative = backup.relativize(file);
				String name = relative.toString();
				if (attrs.isRegularFile() && !NOT_STORE.contains(name) && !name.endsWith(".lock")) {
					Path copy = target.resolve(name);
					// a file replaced by a link since the walk saw it is copied as the
					// link,
					// and refused
					Files.copy(file, copy, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
					if (Files.isSymbolicLink(copy)) {
						throw new MigrationException("the backup's file '" + relative + "' is a symbolic link");
					}
					Fsync.file(copy);
				}
				return FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult postVisitDirectory(Path dir, IOException ex) throws IOException {
				if (ex != null) {
					throw ex;
				}
				Fsync.directory(target.resolve(backup.relativize(dir).toString()));
				return FileVisitResult.CONTINUE;
			}

		});
	}

}
