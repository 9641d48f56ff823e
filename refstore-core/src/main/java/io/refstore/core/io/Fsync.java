package io.refstore.core.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Forcing files and directories to the disk, so that what a power cut leaves is what was
 * forced. A file's content reaches the disk with {@code fsync} of the file; its name (a
 * create, rename or unlink) only with {@code fsync} of the directory holding it. A failed
 * sync is an error: the page cache may have dropped the data already, so nothing may be
 * built on it (a later sync can report success for data that was lost). Stateless.
 */
public final class Fsync {

	/** Files forced to the disk by this process ({@link #force}). */
	private static final AtomicLong FILE_FLUSHES = new AtomicLong();

	private Fsync() {
	}

	/**
	 * Forces an open file's content and metadata to the disk, and counts it: every file
	 * sync of refstore goes through here (directories are not counted, as git counts only
	 * its file syncs).
	 */
	public static void force(FileChannel channel) throws IOException {
		channel.force(true);
		FILE_FLUSHES.incrementAndGet();
	}

	/** Counts a flush made otherwise ({@link FileSystemSync}): one, as git counts one. */
	static void counted() {
		FILE_FLUSHES.incrementAndGet();
	}

	/**
	 * How many files this process forced to the disk so far (git's trace2 counter
	 * {@code fsync/hardware-flush}).
	 */
	public static long fileFlushes() {
		return FILE_FLUSHES.get();
	}

	/** Forces {@code file}'s content and metadata to the disk. */
	public static void file(Path file) throws IOException {
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			force(channel);
		}
	}

	/**
	 * Forces {@code dir}'s entries (the names created, renamed or removed in it) to the
	 * disk. Linux opens a directory for reading and syncs it like a file.
	 */
	public static void directory(Path dir) throws IOException {
		try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
			channel.force(true);
		}
	}

	/** Forces each directory once, however often it is named. */
	public static void directories(Collection<Path> dirs) throws IOException {
		Set<Path> seen = new LinkedHashSet<>();
		for (Path dir : dirs) {
			if (seen.add(dir.toAbsolutePath().normalize())) {
				directory(dir);
			}
		}
	}

	/**
	 * Forces each directory once, or where it no longer exists (an emptied directory
	 * removed after a file in it was), its nearest existing ancestor: the one whose entry
	 * changed. Checks existence once per distinct directory, never per file, so a bulk
	 * caller may name a directory per ref.
	 */
	public static void nearestDirectories(Collection<Path> dirs) throws IOException {
		Set<Path> distinct = new LinkedHashSet<>();
		for (Path dir : dirs) {
			distinct.add(dir.toAbsolutePath().normalize());
		}
		List<Path> existing = new ArrayList<>(distinct.size());
		for (Path dir : distinct) {
			Path at = dir;
			while (at != null && !Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
				at = at.getParent();
			}
			if (at != null) {
				existing.add(at);
			}
		}
		directories(existing);
	}

	/**
	 * Each directory named and every directory above it up to {@code top} (included),
	 * each once: what to force ({@link #directories}) so that files created in them are
	 * found after a power cut, together with the entries naming those directories,
	 * whoever made them (a directory found existing is not known to be on the disk: a run
	 * killed before its sync may have made it).
	 * @param dirs directories at or below {@code top}
	 */
	public static Set<Path> withParentsUpTo(Collection<Path> dirs, Path top) {
		Path last = top.toAbsolutePath().normalize();
		Set<Path> chain = new LinkedHashSet<>();
		for (Path dir : dirs) {
			Path at = dir.toAbsolutePath().normalize();
			if (!at.startsWith(last)) {
				throw new IllegalArgumentException(dir + " is not below " + top);
			}
			while (chain.add(at) && !at.equals(last)) {
				at = at.getParent();
			}
		}
		return chain;
	}

	/**
	 * Creates {@code dir} and any missing parents, and forces the parent of each
	 * directory it created, so the new directories survive a power cut along with
	 * whatever is then put in them.
	 */
	public static void createDirectories(Path dir) throws IOException {
		Path absolute = dir.toAbsolutePath().normalize();
		List<Path> missing = new ArrayList<>();
		for (Path p = absolute; p != null && !Files.isDirectory(p); p = p.getParent()) {
			missing.add(p);
		}
		if (missing.isEmpty()) {
			return;
		}
		Files.createDirectories(absolute);
		List<Path> parents = new ArrayList<>(missing.size());
		for (Path created : missing) {
			parents.add(created.getParent());
		}
		directories(parents);
	}

	/**
	 * Writes the first {@code length} bytes of {@code content} to {@code temp}, forces
	 * it, renames it over {@code file} and forces the directory: after a power cut
	 * {@code file} holds the old content or the new one, never a part, and once this
	 * returns the new one.
	 * @param temp a path in {@code file}'s directory
	 */
	public static void writeAtomically(Path file, byte[] content, int length, Path temp) throws IOException {
		try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
				StandardOpenOption.TRUNCATE_EXISTING)) {
			FileBytes.write(channel, content, length);
			force(channel);
		}
		rename(temp, file);
	}

	/**
	 * Renames {@code from} (forced already, if a file) over {@code to} and forces the
	 * directories of both, each once: the new name and the removal of the old one reach
	 * the disk together with what they name.
	 */
	public static void rename(Path from, Path to) throws IOException {
		Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
		directories(List.of(to.toAbsolutePath().getParent(), from.toAbsolutePath().getParent()));
	}

	/**
	 * Forces the content of every file named, on several threads ({@link ParallelIo}):
	 * syncs that wait together share the file system's journal commits.
	 * @throws IOException the first failure, in the order of {@code files}, once all have
	 * been tried
	 */
	public static void files(List<Path> files) throws IOException {
		for (ParallelIo.Outcome<Void> forced : ParallelIo.map(files, Fsync::forceFile)) {
			forced.get();
		}
	}

	private static Void forceFile(Path file) throws IOException {
		file(file);
		return null;
	}

	/**
	 * Forces {@code path}'s parent directory, if {@code path} is not a file system root.
	 */
	public static void parentOf(Path path) throws IOException {
		Path parent = path.toAbsolutePath().getParent();
		if (parent != null && Files.isDirectory(parent, LinkOption.NOFOLLOW_LINKS)) {
			directory(parent);
		}
	}

}
