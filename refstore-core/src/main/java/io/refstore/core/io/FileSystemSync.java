package io.refstore.core.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One sync of a whole file system instead of one {@code fsync} per file, for files
 * written in bulk (a migration's reflogs: one file per ref). Linux's {@code syncfs(2)}
 * writes back every dirty file of the file system and commits its journal with a cache
 * flush, and reports a write-back error the file system met since (Linux 5.8 on). Java
 * cannot call it, so it runs through coreutils' {@code sync --file-system}, once per bulk
 * write: a process start (a few milliseconds) against one sync per file (110,000 reflogs:
 * 110,000 syncs that kept the disk busy for 10 to 40 seconds, measured on ext4, where one
 * {@code syncfs} of the same data took 1.5 s).
 * <p>
 * Only where {@code syncfs} is known to be a full barrier for every file written: ext4,
 * xfs and btrfs. Elsewhere (FUSE, network file systems, whose {@code syncfs} may sync
 * nothing the server sees) and where the {@code sync} command is missing or too old to
 * have the option, the caller forces each file as before ({@link #tried} says which). A
 * sync that ran and failed is an error, never a reason to fall back: the data may be gone
 * from the page cache already, and a later per-file sync could report success.
 */
public final class FileSystemSync {

	/** Fewer files than this are forced one by one: a process start is not worth it. */
	public static final int FROM_FILES = 1000;

	/** File systems whose {@code syncfs} forces every file's data and metadata. */
	private static final Set<String> FULL_BARRIER = Set.of("ext4", "xfs", "btrfs");

	private static final List<Path> COMMANDS = List.of(Path.of("/usr/bin/sync"), Path.of("/bin/sync"));

	private FileSystemSync() {
	}

	/**
	 * Forces everything written on the file system holding {@code dir} to the disk with
	 * one {@code syncfs}, if {@code files} were written there, there are enough to be
	 * worth it and the file system honours it.
	 * @param dir a directory holding what was written (existing)
	 * @param files how many files were written
	 * @return whether the file system was synced; {@code false}: the caller forces each
	 * file and directory itself
	 * @throws IOException if the sync ran and failed: what was written may not be on the
	 * disk
	 */
	public static boolean tried(Path dir, long files) throws IOException {
		if (files < FROM_FILES || !FULL_BARRIER.contains(Files.getFileStore(dir).type())) {
			return false;
		}
		Optional<Path> command = COMMANDS.stream().filter(Files::isExecutable).findFirst();
		if (command.isEmpty()) {
			return false;
		}
		Process sync = new ProcessBuilder(command.get().toString(), "--file-system", dir.toString())
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		String error;
		int code;
		try {
			sync.getOutputStream().close();
			error = new String(sync.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			code = sync.waitFor();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			sync.destroy();
			throw new IOException("interrupted while syncing the file system of " + dir, ex);
		}
		if (code == 0) {
			Fsync.counted();
			return true;
		}
		if (error.contains("unrecognized option") || error.contains("invalid option")) {
			// coreutils before 8.24: no syncfs
			return false;
		}
		// "sync: error syncing 'DIR': Input/output error"
		String cause = error.substring(error.lastIndexOf(':') + 1).strip();
		throw new IOException(
				"syncing the file system of " + dir + " failed: " + (cause.isEmpty() ? "exit status " + code : cause));
	}

}
