package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.refstore.core.io.Directories;
import io.refstore.core.ref.RefName;

/**
 * The identity (file key, size, modification time) of every file of a files store that
 * holds a ref or a log: {@code packed-refs}, root refs, loose refs and logs, lock files
 * left out. git replaces a ref file by renaming a new one over it and appends to logs, so
 * any write changes one of them: a snapshot taken before a migration reads the store and
 * one taken under the swap's locks are equal only if nothing was written between. The one
 * under the locks is also what {@link CarryOver} compares the backup with: one walk of
 * the store serves both (on a store of a reflog per ref the walks were a fifth of a
 * migration's time).
 * <p>
 * As {@link io.refstore.core.ref.RefStore#fingerprint()} does, a snapshot with a file
 * modified within {@link #RACY} of it equals no other: file times come from a coarse
 * clock and a freed inode can be reused at once, so two writes in one tick could leave a
 * file's identity as it was. Where the tick is known to be short, the window is too
 * ({@link #FINE_RACY}): a migration or rollback that begins soon after a write (a
 * rollback right after its migration, a busy repository) then need not read the whole
 * store again under the swap's locks.
 */
final class StoreFiles {

	/**
	 * How recent a modification makes a snapshot equal to none: two seconds, where a
	 * file's time may be kept in whole seconds (ext4 with small inodes, ext3) or two
	 * (FAT), or set by a server's clock.
	 */
	static final Duration RACY = Duration.ofSeconds(2);

	/**
	 * {@link #RACY} for a file on a local file system whose time has digits below the
	 * millisecond: the kernel times it with its own clock, whose tick is 10 ms at most
	 * (and an identity keeps milliseconds). A time of whole milliseconds is taken as
	 * coarse, whatever the file system.
	 */
	static final Duration FINE_RACY = Duration.ofMillis(100);

	private final Map<String, String> identities;

	private final Map<String, String> directories;

	private final boolean racy;

	private final List<String> reflogNames;

	private StoreFiles(Map<String, String> identities, Map<String, String> directories, boolean racy,
			List<String> reflogNames) {
		this.identities = identities;
		this.directories = directories;
		this.racy = racy;
		this.reflogNames = reflogNames;
	}

	/** The files of the files store laid out in {@code dir}, as they are now. */
	static StoreFiles of(Path dir) throws IOException {
		return since(dir, null);
	}

	/**
	 * {@link #of}, and the names of the store's logs as its
	 * {@link io.refstore.core.ref.RefStore#reflogNames()} lists them, from the same walk
	 * ({@link #reflogNames()}): a migration takes this snapshot before it reads the
	 * store, and a store of a reflog per ref was walked once more for the names alone.
	 */
	static StoreFiles withReflogNames(Path dir) throws IOException {
		return new Walk(dir, null, true).run();
	}

	/**
	 * {@link #of}, listing again only the directories of {@code refs/} changed since
	 * {@code earlier} (a snapshot of this store, or of the store that was moved to
	 * {@code dir}): a directory whose identity is as {@code earlier} recorded it holds
	 * the entries it held then, as every name made, removed or renamed in a directory
	 * changes its modification time; each of its files is looked at again. On a file
	 * system that keeps directories' times locally only ({@link Directories#isLocal}); a
	 * network file system may answer from a cache. {@code logs/} is not listed: its files
	 * are looked at by name ({@link Walk#visitLogsByName}).
	 * @param earlier a snapshot taken before, or {@code null} to list every directory
	 */
	static StoreFiles since(Path dir, StoreFiles earlier) throws IOException {
		return new Walk(dir, earlier, false).run();
	}

	/**
	 * A snapshot of the files and directories {@link #identities()} and
	 * {@link #directories()} recorded (as {@link CarryOver} keeps them on disk), to walk
	 * {@link #since} it.
	 */
	static StoreFiles recorded(Map<String, String> identities, Map<String, String> directories) {
		return new StoreFiles(identities, directories, false, null);
	}

	/** The identity of each file, by its path relative to the store. */
	Map<String, String> identities() {
		return this.identities;
	}

	/**
	 * The identity of each directory of {@code refs/} and {@code logs/} (those two
	 * included), by its path relative to the store, but those modified too recently to
	 * tell a later change by.
	 */
	Map<String, String> directories() {
		return this.directories;
	}

	/** One walk of a store. */
	private static final class Walk {

		private final Path dir;

		private final Instant racyAfter;

		private final Instant fineRacyAfter;

		/** Whether the store is on a local file system ({@link Directories#isLocal}). */
		private final boolean local;

		private final Map<String, String> identities = new HashMap<>();

		private final Map<String, String> directories = new HashMap<>();

		private final StoreFiles earlier;

		/** The entries of each directory of {@link #earlier}, or {@code null}. */
		private final Map<String, List<String>> known;

		private final List<byte[]> logs;

		private boolean racy;

		Walk(Path dir, StoreFiles earlier, boolean listLogs) {
			Instant now = Instant.now();
			this.racyAfter = now.minus(RACY);
			this.fineRacyAfter = now.minus(FINE_RACY);
			this.dir = dir;
			this.earlier = earlier;
			this.local = Directories.isLocal(dir);
			this.known = (earlier != null && !earlier.directories.isEmpty() && this.local) ? entriesOf(earlier) : null;
			// a logs directory reached through a link is listed by the store alone
			this.logs = (listLogs && !Files.isSymbolicLink(dir.resolve("logs"))) ? new ArrayList<>() : null;
		}

		StoreFiles run() throws IOException {
			for (String top : (this.earlier == null) ? List.of("refs", "logs") : List.of("refs")) {
				BasicFileAttributes attributes = attributes(this.dir.resolve(top), false);
				if (attributes != null && attributes.isDirectory()) {
					visitDirectory(this.dir.resolve(top), top, attributes);
				}
			}
			try (var files = Files.newDirectoryStream(this.dir)) {
				for (Path file : files) {
					String name = file.getFileName().toString();
					if (name.equals("packed-refs") || RefName.isRootRef(name)) {
						BasicFileAttributes attributes = attributes(file, true);
						if (attributes != null) {
							this.racy |= recent(attributes);
							this.identities.put(name, identity(attributes));
						}
					}
				}
			}
			if (this.earlier != null) {
				// as the full walk, none through a link
				BasicFileAttributes logs = attributes(this.dir.resolve("logs"), false);
				if (logs != null && logs.isDirectory()) {
					visitLogsByName();
				}
			}
			return new StoreFiles(this.identities, this.directories, this.racy,
					(this.logs != null) ? sortedNames(this.logs) : null);
		}

		/**
		 * Looks at the logs {@link #earlier} found and at the log of each ref file found
		 * now, each by its name, without listing {@code logs/}: git makes a log only with
		 * a write of its ref (a loose file, or {@code packed-refs} when a refstore writer
		 * packs it) or of a symbolic ref to it (always a loose file), so a log made since
		 * either has a ref file looked at here or comes with a changed
		 * {@code packed-refs}. A store of a reflog per ref has a directory per log: this
		 * makes one system call per log where listing them made seven on a network file
		 * system (two on a local one), on each of a swap's two later walks.
		 */
		private void visitLogsByName() throws IOException {
			Set<String> names = new HashSet<>();
			for (String file : this.earlier.identities.keySet()) {
				if (file.startsWith("logs/")) {
					names.add(file);
				}
			}
			for (String file : this.identities.keySet()) {
				if (!file.equals("packed-refs")) {
					names.add("logs/" + file);
				}
			}
			for (String log : names) {
				BasicFileAttributes attributes = attributesIfAny(this.dir.resolve(log));
				if (attributes != null) {
					visitLeaf(this.dir.resolve(log), log, attributes);
				}
			}
		}

		/**
		 * Visits the entries of a directory: those {@link #earlier} found if it is
		 * unchanged since, else those it holds now; entries removed while the walk runs
		 * are skipped (they differ from the next snapshot).
		 */
		private void visitDirectory(Path path, String relative, BasicFileAttributes attributes) throws IOException {
			String identity = identity(attributes);
			if (!recent(attributes)) {
				this.directories.put(relative, identity);
			}
			List<Path> entries = (this.known != null && identity.equals(this.earlier.directories.get(relative)))
					? resolve(path, this.known.getOrDefault(relative, List.of())) : list(path);
			for (Path entry : entries) {
				BasicFileAttributes entryAttributes = attributes(entry, false);
				if (entryAttributes == null) {
					continue;
				}
				String entryRelative = relative + "/" + entry.getFileName();
				if (entryAttributes.isDirectory()) {
					visitDirectory(entry, entryRelative, entryAttributes);
				}
				else {
					visitLeaf(entry, entryRelative, entryAttributes);
				}
			}
		}

		private void visitLeaf(Path file, String relative, BasicFileAttributes attributes) {
			if (attributes.isRegularFile() && !relative.endsWith(".lock")) {
				this.racy |= recent(attributes);
				this.identities.put(relative, identity(attributes));
			}
			if (this.logs != null && relative.startsWith("logs/")
					&& isReflog(relative.substring("logs/".length()), file, attributes)) {
				this.logs.add(relative.substring("logs/".length()).getBytes(StandardCharsets.UTF_8));
			}
		}

		private boolean recent(BasicFileAttributes attributes) {
			Instant modified = attributes.lastModifiedTime().toInstant();
			if (!modified.isAfter(this.racyAfter)) {
				return false;
			}
			boolean fine = this.local && modified.getNano() % 1_000_000 != 0;
			return !fine || modified.isAfter(this.fineRacyAfter);
		}

		private static List<Path> list(Path path) throws IOException {
			try {
				return Directories.entries(path);
			}
			catch (NoSuchFileException | NotDirectoryException ex) {
				return List.of();
			}
		}

		private static List<Path> resolve(Path path, List<String> names) {
			List<Path> entries = new ArrayList<>(names.size());
			for (String name : names) {
				entries.add(path.resolve(name));
			}
			return entries;
		}

		/**
		 * The entries of each directory of {@code earlier}: its files and directories,
		 * those too recent to be recorded included (as the parents of what they hold).
		 */
		private static Map<String, List<String>> entriesOf(StoreFiles earlier) {
			Map<String, List<String>> entries = new HashMap<>(earlier.directories.size() * 2);
			Set<String> placed = new HashSet<>();
			for (Map<String, String> paths : List.of(earlier.identities, earlier.directories)) {
				for (String path : paths.keySet()) {
					// the path in its parent's entries, and each directory above it not
					// placed yet in its own parent's
					String child = path;
					int slash = child.lastIndexOf('/');
					while (slash > 0 && placed.add(child)) {
						String parent = child.substring(0, slash);
						entries.computeIfAbsent(parent, (dir) -> new ArrayList<>(1)).add(child.substring(slash + 1));
						child = parent;
						slash = child.lastIndexOf('/');
					}
				}
			}
			return entries;
		}

	}

	/**
	 * Whether {@code name}, a path below {@code logs/}, is a log that
	 * {@link io.refstore.core.files.FilesRefStore#reflogNames()} lists: below
	 * {@code refs/}, anything but a directory with a ref's name (a symbolic link too, not
	 * followed); above it, a root ref's regular file, through a link too.
	 */
	private static boolean isReflog(String name, Path file, BasicFileAttributes attributes) {
		if (name.startsWith("refs/")) {
			return RefName.isValid(name, false);
		}
		return name.indexOf('/') < 0 && !name.equals("refs") && RefName.isValid(name, true)
				&& (attributes.isRegularFile() || attributes.isSymbolicLink() && Files.isRegularFile(file));
	}

	private static List<String> sortedNames(List<byte[]> names) {
		names.sort(Arrays::compareUnsigned);
		List<String> sorted = new ArrayList<>(names.size());
		for (byte[] name : names) {
			sorted.add(new String(name, StandardCharsets.UTF_8));
		}
		return sorted;
	}

	/**
	 * The names of the store's logs when the snapshot was taken, in bytewise order, if it
	 * was taken {@link #withReflogNames} (and its {@code logs} is no link); else
	 * {@code null}.
	 */
	List<String> reflogNames() {
		return this.reflogNames;
	}

	/**
	 * Whether nothing was written between this snapshot and {@code later}: never, if this
	 * one was taken while a file was too recent to tell.
	 */
	boolean unchangedIn(StoreFiles later) {
		return !this.racy && this.identities.equals(later.identities);
	}

	/**
	 * The files {@link CarryOver} keeps track of: loose refs, root refs but {@code HEAD}
	 * (locked and copied) and pseudo refs, logs but {@code HEAD}'s; temporary files and
	 * {@code packed-refs} (locked) left out.
	 */
	Map<String, String> carried() {
		Map<String, String> carried = new HashMap<>(this.identities.size() * 2);
		this.identities.forEach((file, identity) -> {
			if (isCarried(file)) {
				carried.put(file, identity);
			}
		});
		return carried;
	}

	/** Whether {@link #carried} keeps {@code file}, a path relative to the store. */
	static boolean isCarried(String file) {
		if (file.startsWith("refs/") || file.startsWith("logs/")) {
			return !file.contains(".refstore-tmp") && !file.equals("refs/heads") && !file.equals("logs/HEAD");
		}
		return !file.equals("HEAD") && !file.equals("packed-refs") && !RefName.isPseudoRef(file);
	}

	/**
	 * The attributes of {@code file}, not following a link, or {@code null} if it is gone
	 * (or, with {@code regularOnly}, is not a regular file).
	 */
	private static BasicFileAttributes attributes(Path file, boolean regularOnly) throws IOException {
		try {
			BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
					LinkOption.NOFOLLOW_LINKS);
			return (!regularOnly || attributes.isRegularFile()) ? attributes : null;
		}
		catch (NoSuchFileException ex) {
			return null;
		}
	}

	/**
	 * {@link #attributes}, or {@code null} also where a directory above {@code file} is
	 * not one (a log's path where a ref's name became a directory, or the reverse).
	 */
	private static BasicFileAttributes attributesIfAny(Path file) throws IOException {
		try {
			return attributes(file, false);
		}
		catch (FileSystemException ex) {
			if (Files.isDirectory(file.getParent(), LinkOption.NOFOLLOW_LINKS)) {
				throw ex;
			}
			return null;
		}
	}

	static String identity(BasicFileAttributes attributes) {
		return Objects.toString(attributes.fileKey()) + "/" + attributes.size() + "/"
				+ attributes.lastModifiedTime().toMillis();
	}

}
