package io.refstore.core.io;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A directory's entries, read with as few system calls as the JDK allows. Hand-written
 * for measured speed: NIO's directory stream opens a directory, duplicates the descriptor
 * and queries it (open, dup, fstat, two fcntl, two getdents, two close: 9 calls on
 * Linux), where {@link java.io.File#list()} reads it as git does (open, two getdents,
 * close, and an fstat). A ref store of one directory per pull request or change
 * ({@code refs/pull/<n>/head}, {@code refs/changes/<nn>/<n>/<m>}) is walked a directory
 * per ref, several times by a migration; on 2,000 such directories the listing took
 * 21,215 calls through NIO and 12,281 through {@code java.io} (strace -c, the JVM's own
 * 1,530 included).
 * <p>
 * {@code java.io} gives names decoded as the JVM names files ({@code sun.jnu.encoding};
 * the {@code refstore} launcher runs it in a UTF-8 locale), and a byte that does not
 * decode becomes {@code U+FFFD} (or {@code ?} in an ASCII locale), so such a name no
 * longer finds its file; and it says nothing of why it could not read a directory. So a
 * directory it cannot list, or with a name holding either character (git allows neither
 * in a ref's name), is read again through NIO, which keeps a name's bytes and throws the
 * exception that says why (no such directory, not a directory, access denied).
 * <p>
 * {@link #forEachLeaf} walks a tree without a {@code stat} per file where the file system
 * counts a directory's subdirectories in its link count (2 plus one per subdirectory, on
 * ext2 to ext4 and tmpfs): once a directory's subdirectories are all found, its other
 * entries are files, as GNU find's "leaf optimisation" assumes. A directory of a reflog
 * per branch is walked in its {@code getdents} calls alone: 100,000 logs cost 100,000
 * {@code statx} calls fewer per walk. Where the count does not tell (1 on btrfs, on ext4
 * past 65,000 subdirectories; any other file system), every entry is looked at.
 */
public final class Directories {

	/** File systems whose directories' link counts are 2 plus their subdirectories. */
	private static final Set<String> COUNTING = Set.of("ext2", "ext3", "ext4", "tmpfs");

	/**
	 * File systems of a local disk or of memory, whose directories' times the kernel
	 * keeps itself (no cache of a server's answers).
	 */
	private static final Set<String> LOCAL = Set.of("ext2", "ext3", "ext4", "tmpfs", "xfs", "btrfs");

	/** The attributes that tell whether a file system has link counts. */
	private static final String TYPE_AND_LINKS = "unix:isDirectory,nlink";

	private Directories() {
	}

	/** What {@link #forEachLeaf} does with each entry that is not a directory. */
	@FunctionalInterface
	public interface LeafAction {

		/**
		 * @param file the entry's path
		 * @param name its path below the walk's root, {@code /}-separated, after the
		 * walk's prefix
		 */
		void accept(Path file, String name) throws IOException;

	}

	/**
	 * Visits every entry below {@code root} that is not a directory (a file, or a
	 * symbolic link, which is not followed), depth first. An entry removed while the walk
	 * runs may be visited or not; a directory removed is skipped.
	 * @param prefix what each name starts with, such as {@code "refs/"}
	 * @return whether {@code root} is a directory that was walked
	 */
	public static boolean forEachLeaf(Path root, String prefix, LeafAction action) throws IOException {
		try {
			if (!Files.readAttributes(root, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isDirectory()) {
				return false;
			}
		}
		catch (NoSuchFileException ex) {
			return false;
		}
		walk(root, prefix, counts(root), action);
		return true;
	}

	/**
	 * Whether {@code dir} is on a local file system ({@code ext4}, {@code xfs},
	 * {@code btrfs}, {@code tmpfs} and their kind), where a directory's modification time
	 * is what the kernel last set: any name made, removed or renamed in it since changed
	 * it. A network file system's client may answer from a cache.
	 */
	public static boolean isLocal(Path dir) {
		try {
			return LOCAL.contains(Files.getFileStore(dir).type());
		}
		catch (IOException | SecurityException ex) {
			// a mount the JDK cannot find (some containers)
			return false;
		}
	}

	/**
	 * Whether the link counts of directories on {@code dir}'s file system count
	 * subdirectories.
	 */
	private static boolean counts(Path dir) {
		try {
			return COUNTING.contains(Files.getFileStore(dir).type())
					&& Files.readAttributes(dir, TYPE_AND_LINKS, LinkOption.NOFOLLOW_LINKS).containsKey("nlink");
		}
		catch (IOException | UnsupportedOperationException | IllegalArgumentException ex) {
			// no "unix" view, or a mount the JDK cannot find (some containers): every
			// entry is looked at
			return false;
		}
	}

	private static void walk(Path dir, String prefix, boolean counting, LeafAction action) throws IOException {
		List<Path> entries;
		int links = 0;
		try {
			entries = entries(dir);
			if (counting) {
				// counted after the listing: a subdirectory made since is in the count,
				// not the list, so every entry is looked at; one removed since is in the
				// list and fails its look
				links = (Integer) Files.getAttribute(dir, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
			}
		}
		catch (NoSuchFileException | NotDirectoryException ex) {
			return;
		}
		// subdirectories not found yet; -1 while unknown
		int subdirs = (links >= 2) ? links - 2 : -1;
		for (Path entry : entries) {
			String name = prefix + entry.getFileName();
			if (subdirs == 0) {
				action.accept(entry, name);
				continue;
			}
			boolean directory;
			try {
				directory = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
					.isDirectory();
			}
			catch (NoSuchFileException ex) {
				continue;
			}
			if (directory) {
				subdirs--;
				walk(entry, name + "/", counting, action);
			}
			else {
				action.accept(entry, name);
			}
		}
	}

	/**
	 * The entries of {@code dir}, in no particular order.
	 * @throws java.nio.file.NoSuchFileException if there is no such directory
	 * @throws java.nio.file.NotDirectoryException if it is not a directory
	 * @throws IOException if it cannot be read
	 */
	public static List<Path> entries(Path dir) throws IOException {
		String[] names = dir.toFile().list();
		if (names != null && decoded(names)) {
			List<Path> entries = new ArrayList<>(names.length);
			for (String name : names) {
				entries.add(dir.resolve(name));
			}
			return entries;
		}
		List<Path> entries = new ArrayList<>();
		try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
			for (Path entry : stream) {
				entries.add(entry);
			}
		}
		return entries;
	}

	/** Whether no name holds a character a failed decoding leaves. */
	private static boolean decoded(String[] names) {
		for (String name : names) {
			if (name.indexOf('\uFFFD') >= 0 || name.indexOf('?') >= 0) {
				return false;
			}
		}
		return true;
	}

}
