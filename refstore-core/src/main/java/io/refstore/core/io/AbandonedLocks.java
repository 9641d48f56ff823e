package io.refstore.core.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;

/**
 * Telling a lock left by a dead refstore process from anyone else's, and removing it. A
 * lock of {@link LockOwner}'s is a hard link to its owner's record in
 * {@code refstore-owners/}; a lock with one link (git's, or one made by hand) is never
 * anyone's here and is never touched, nor is a link to a record whose owner may run.
 *
 * <p>
 * Every removal happens under the repository's break lock
 * ({@code refstore-owners/.break}, an advisory lock of the operating system, which the
 * kernel drops when its holder dies, so it never goes stale), after checking again under
 * it that the lock is still a link to the dead owner's record: without it, two processes
 * could both find the same dead lock, one remove it and take the lock anew, and the other
 * remove that live lock. New locks need no break lock: one exists only where no lock is,
 * and only a holder of the break lock removes a dead owner's lock.
 *
 * <p>
 * Thread-safe.
 */
final class AbandonedLocks {

	/** The break lock's file in the owners' directory. */
	static final String BREAK = ".break";

	/** The break lock within this process: an operating system lock is per process. */
	private static final Object IN_PROCESS = new Object();

	private AbandonedLocks() {
	}

	/** Work done under the break lock. */
	@FunctionalInterface
	interface Exclusive<T> {

		T run() throws IOException;

	}

	/**
	 * Runs {@code work} holding the break lock of the repository whose owners' directory
	 * is {@code ownersDir} (which must exist).
	 */
	static <T> T exclusively(Path ownersDir, Exclusive<T> work) throws IOException {
		synchronized (IN_PROCESS) {
			try (FileChannel channel = FileChannel.open(ownersDir.resolve(BREAK), StandardOpenOption.CREATE,
					StandardOpenOption.WRITE); FileLock held = channel.lock()) {
				return work.run();
			}
		}
	}

	/**
	 * Removes {@code lock} if it is a link to the record of an owner known to be gone (a
	 * refstore process that no longer runs on this host, or one of an earlier boot).
	 * @param ownersDir the repository's {@code refstore-owners} directory
	 * @return whether the lock was such a one and is gone
	 */
	static boolean breakIfAbandoned(Path ownersDir, Path lock) throws IOException {
		Object key = linkedKey(lock);
		if (key == null) {
			return false;
		}
		Path record = recordOf(ownersDir, key);
		if (record == null) {
			return breakIfSwapAbandoned(ownersDir, lock, key);
		}
		if (!ownerIsGone(record)) {
			return false;
		}
		return exclusively(ownersDir, () -> {
			if (!key.equals(linkedKey(lock)) || !key.equals(keyOf(record))) {
				return false;
			}
			removeLock(lock);
			removeRecordIfUnlinked(record);
			return true;
		});
	}

	/**
	 * Removes {@code lock} if it is a link to the owner file of a format migration or
	 * rollback (in {@value LockOwner#SWAP_DIR}) whose process is gone: a {@code refstore}
	 * command killed in its swap would otherwise keep every writer of the store out until
	 * someone runs it again. Before its switch the old store is whole and in use; after
	 * it the new one is, and a lock in the old one holds no writer of the new. The staged
	 * work and the journal stay: the swap's rerun finishes or restarts it. A swap owned
	 * by this process (a job of the application), or by a process of another host, is
	 * never taken for gone here.
	 */
	private static boolean breakIfSwapAbandoned(Path ownersDir, Path lock, Object key) throws IOException {
		Path owner = recordOf(ownersDir.resolveSibling(LockOwner.SWAP_DIR), key);
		if (owner == null || !swapOwnerIsGone(owner)) {
			return false;
		}
		return exclusively(ownersDir, () -> {
			if (!key.equals(linkedKey(lock)) || !key.equals(keyOf(owner))) {
				return false;
			}
			return removeLock(lock);
		});
	}

	private static boolean swapOwnerIsGone(Path owner) throws IOException {
		ProcessOwner process;
		try {
			process = ProcessOwner.parse(Files.readString(owner, StandardCharsets.UTF_8));
		}
		catch (NoSuchFileException ex) {
			return false;
		}
		return process.pid() >= 0 && process.pid() != ProcessHandle.current().pid() && process.isGone(null);
	}

	/**
	 * Deletes a dead owner's lock; for {@code packed-refs.lock}, first the
	 * {@code packed-refs.new} written under it (only its holder writes one).
	 * @return whether the lock was there
	 */
	static boolean removeLock(Path lock) throws IOException {
		if (lock.getFileName().toString().equals("packed-refs.lock")) {
			Files.deleteIfExists(lock.resolveSibling("packed-refs.new"));
		}
		return Files.deleteIfExists(lock);
	}

	/**
	 * Whether the owner of {@code record} (a record, one of its copies, or an unpublished
	 * {@code <id>.tmp}) is known to be gone. A lock linked to an unpublished record, or
	 * to one whose text is cut short, was left by a process that died with its machine: a
	 * record is whole before its rename publishes it, and published before any lock links
	 * to it, so only a power cut can leave either behind a lock.
	 */
	static boolean ownerIsGone(Path record) throws IOException {
		String name = record.getFileName().toString();
		int dot = name.indexOf('.');
		String id = (dot < 0) ? name : name.substring(0, dot);
		if (LockOwner.isLive(id)) {
			return false;
		}
		if (name.endsWith(LockOwner.TMP)) {
			return true;
		}
		Path main = record.resolveSibling(id);
		String text;
		try {
			text = Files.readString(Files.exists(main) ? main : record, StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			return false;
		}
		return LockOwner.cutShort(text) || ProcessOwner.parse(text).isGone(null);
	}

	/**
	 * The record (or copy) in {@code ownersDir} that is the same file as {@code key}, or
	 * {@code null}.
	 */
	private static Path recordOf(Path ownersDir, Object key) throws IOException {
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(ownersDir)) {
			for (Path entry : entries) {
				if (key.equals(keyOf(entry))) {
					return entry;
				}
			}
		}
		catch (NoSuchFileException ex) {
			return null;
		}
		return null;
	}

	/**
	 * Removes a dead owner's record with its copies and staged files once no lock links
	 * to any of them.
	 */
	static void removeRecordIfUnlinked(Path record) throws IOException {
		String name = record.getFileName().toString();
		int dot = name.indexOf('.');
		String id = (dot < 0) ? name : name.substring(0, dot);
		Path dir = record.getParent();
		try (DirectoryStream<Path> family = Files.newDirectoryStream(dir, id + "*")) {
			for (Path member : family) {
				if (Files.isRegularFile(member, LinkOption.NOFOLLOW_LINKS) && links(member) > 1) {
					return;
				}
			}
		}
		FileMoves.deleteTree(dir.resolve(id + LockOwner.STAGING));
		try (DirectoryStream<Path> family = Files.newDirectoryStream(dir, id + "*")) {
			for (Path member : family) {
				if (Files.isRegularFile(member, LinkOption.NOFOLLOW_LINKS)) {
					Files.deleteIfExists(member);
				}
			}
		}
	}

	/** The file key of {@code lock} if it is a regular file with more than one link. */
	private static Object linkedKey(Path lock) throws IOException {
		Map<String, Object> attributes;
		try {
			attributes = Files.readAttributes(lock, "unix:nlink,fileKey,isRegularFile", LinkOption.NOFOLLOW_LINKS);
		}
		catch (NoSuchFileException ex) {
			return null;
		}
		return (Boolean.TRUE.equals(attributes.get("isRegularFile"))
				&& ((Number) attributes.get("nlink")).intValue() > 1) ? attributes.get("fileKey") : null;
	}

	/** The file key of a regular file, or {@code null}. */
	static Object keyOf(Path file) throws IOException {
		try {
			BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
					LinkOption.NOFOLLOW_LINKS);
			return attributes.isRegularFile() ? attributes.fileKey() : null;
		}
		catch (NoSuchFileException ex) {
			return null;
		}
	}

	/** How many names {@code file} has. */
	static int links(Path file) throws IOException {
		return ((Number) Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).intValue();
	}

}
