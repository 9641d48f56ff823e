package io.refstore.core.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a file may be memory-mapped: not on a network or FUSE file system. Those keep a
 * file removed while a process has it open or mapped under a hidden name
 * ({@code .nfsXXXX}, {@code .fuse_hiddenXXXX}) until the process lets go of it, and the
 * JDK unmaps a mapping only when the garbage collector frees its buffer, long after the
 * store that made it was closed: removing the file's directory fails with "directory not
 * empty" until then. Measured on {@code bindfs}: a migration of a repository written in
 * the two seconds before (its staged table, mapped by the verification, then built again)
 * failed every time when it removed the staged directory. A file read through a channel
 * instead is let go of when its store is closed. Local file systems (ext4, XFS, Btrfs,
 * ZFS, tmpfs, overlayfs) remove a mapped file at once.
 */
public final class MemoryMaps {

	/**
	 * File system types that keep a removed file while it is open or mapped: NFS's "silly
	 * rename", SMB's, 9p's, AFS's; and every FUSE file system ({@code fuse},
	 * {@code fuse.<name>}, {@code fuseblk}), whose library hides such a file unless
	 * mounted with {@code hard_remove}.
	 */
	private static final Set<String> HIDING = Set.of("nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "ncpfs");

	/** Directories told apart so far; cleared when it grows past {@link #KEPT}. */
	private static final Map<Path, Boolean> MAPPABLE = new ConcurrentHashMap<>();

	/**
	 * How many directories {@link #MAPPABLE} keeps, one per store of a fleet's
	 * repositories.
	 */
	private static final int KEPT = 4096;

	private MemoryMaps() {
	}

	/**
	 * Whether {@code file} may be mapped: whether its directory is on a file system other
	 * than those above (the answer kept per directory, as finding a path's mount reads
	 * the mount table). Where the mount cannot be found (some containers), it may.
	 */
	public static boolean mayMap(Path file) {
		Path dir = file.toAbsolutePath().getParent();
		if (dir == null) {
			return true;
		}
		Boolean mappable = MAPPABLE.get(dir);
		if (mappable == null) {
			if (MAPPABLE.size() >= KEPT) {
				MAPPABLE.clear();
			}
			mappable = mappable(dir);
			MAPPABLE.put(dir, mappable);
		}
		return mappable;
	}

	/** Whether a file system of type {@code type} removes a mapped file at once. */
	static boolean mappableType(String type) {
		return !type.startsWith("fuse") && !HIDING.contains(type);
	}

	private static boolean mappable(Path dir) {
		try {
			return mappableType(Files.getFileStore(dir).type());
		}
		catch (IOException | SecurityException ex) {
			return true;
		}
	}

}
