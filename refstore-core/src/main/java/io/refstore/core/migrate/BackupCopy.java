package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
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
 * A rollback's copy of a backup's store into its work directory, every file and directory
 * synced: the backup itself is never moved, so it stays a whole copy until the restored
 * store is in place. Links in the backup are not followed: the walk skips them, and a
 * file that became one is refused.
 *
 * <p>
 * The copy is no copy of the bytes where the file system allows: a file is a second hard
 * link to the backup's, because no writer, refstore or git, changes a file of a store in
 * place. A loose ref, {@code packed-refs}, a reftable's {@code tables.list} are replaced
 * by a rename, a table is never written again once published. The exception, a files
 * store's reflog, to which git and refstore append, is copied. A file system without hard
 * links gets copies.
 */
final class BackupCopy {

	/** Files of a backup that describe it and are not part of its store. */
	private static final Set<String> NOT_STORE = Set.of(BackupRecord.FILE, SwappedByJob.FILE);

	/** The directory of a files store's reflogs, which writers append to. */
	private static final String LOGS = "logs";

	private BackupCopy() {
	}

	/**
	 * Copies the store kept in {@code backup} into {@code target}, which must not exist.
	 */
	static void copy(Path backup, Path target) throws IOException {
		boolean[] links = { true };
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
					// a file replaced by a symbolic link since the walk saw it is copied
					// or linked as the symbolic link (neither follows it), and refused
					boolean linked = false;
					if (links[0] && !relative.startsWith(LOGS)) {
						linked = link(file, copy);
						links[0] = linked;
					}
					if (!linked) {
						Files.copy(file, copy, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
					}
					if (Files.isSymbolicLink(copy)) {
						throw new MigrationException("the backup's file '" + relative + "' is a symbolic link");
					}
					// also a link: the backup holds its store as git left it, not
					// necessarily synced
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

	/**
	 * Makes {@code copy} a hard link to {@code file}; {@code false} where the file system
	 * has none (the caller copies).
	 */
	private static boolean link(Path file, Path copy) throws IOException {
		try {
			Files.createLink(copy, file);
			return true;
		}
		catch (FileAlreadyExistsException ex) {
			throw ex;
		}
		catch (UnsupportedOperationException | FileSystemException ex) {
			return false;
		}
	}

}
