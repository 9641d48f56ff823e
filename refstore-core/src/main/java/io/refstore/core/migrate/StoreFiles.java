package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.refstore.core.io.FileMoves;
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
 * file's identity as it was.
 */
final class StoreFiles {

	/** How recent a modification makes a snapshot equal to none. */
	static final Duration RACY = Duration.ofSeconds(2);

	private final Map<String, String> identities;

	private final boolean racy;

	private final List<String> reflogNames;

	private StoreFiles(Map<String, String> identities, boolean racy, List<String> reflogNames) {
		this.identities = identities;
		this.racy = racy;
		this.reflogNames = reflogNames;
	}

	/** The files of the files store laid out in {@code dir}, as they are now. */
	static StoreFiles of(Path dir) throws IOException {
		return of(dir, false);
	}

	/**
	 * {@link #of}, and the names of the store's logs as its
	 * {@link io.refstore.core.ref.RefStore#reflogNames()} lists them, from the same walk
	 * ({@link #reflogNames()}): a migration takes this snapshot before it reads the
	 * store, and a store of a reflog per ref was walked once more for the names alone.
	 */
	static StoreFiles withReflogNames(Path dir) throws IOException {
		return of(dir, true);
	}

	private static StoreFiles of(Path dir, boolean listLogs) throws IOException {
		Instant racyAfter = Instant.now().minus(RACY);
		Map<String, String> identities = new HashMap<>();
		// a logs directory reached through a link is listed by the store alone
		List<byte[]> logs = (listLogs && !Files.isSymbolicLink(dir.resolve("logs"))) ? new ArrayList<>() : null;
		boolean[] racy = { false };
		for (String top : List.of("refs", "logs")) {
			Path root = dir.resolve(top);
			if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
				continue;
			}
			// tolerating files removed while walking: they differ from the next snapshot
			FileMoves.forEachLeaf(root, (file, attributes) -> {
				String relative = dir.relativize(file).toString().replace('\\', '/');
				if (attributes.isRegularFile() && !relative.endsWith(".lock")) {
					racy[0] |= attributes.lastModifiedTime().toInstant().isAfter(racyAfter);
					identities.put(relative, identity(attributes));
				}
				if (logs != null && top.equals("logs")
						&& isReflog(relative.substring("logs/".length()), file, attributes)) {
					logs.add(relative.substring("logs/".length()).getBytes(StandardCharsets.UTF_8));
				}
			});
		}
		try (var files = Files.newDirectoryStream(dir)) {
			for (Path file : files) {
				String name = file.getFileName().toString();
				if (name.equals("packed-refs") || RefName.isRootRef(name)) {
					BasicFileAttributes attributes = attributes(file);
					if (attributes != null) {
						racy[0] |= attributes.lastModifiedTime().toInstant().isAfter(racyAfter);
						identities.put(name, identity(attributes));
					}
				}
			}
		}
		return new StoreFiles(identities, racy[0], (logs != null) ? sortedNames(logs) : null);
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

	private static BasicFileAttributes attributes(Path file) throws IOException {
		try {
			BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
					LinkOption.NOFOLLOW_LINKS);
			return attributes.isRegularFile() ? attributes : null;
		}
		catch (NoSuchFileException ex) {
			return null;
		}
	}

	static String identity(BasicFileAttributes attributes) {
		return Objects.toString(attributes.fileKey()) + "/" + attributes.size() + "/"
				+ attributes.lastModifiedTime().toMillis();
	}

}
