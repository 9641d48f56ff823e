package io.refstore.core.io;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a file may be memory-mapped: on a local file system only
 * ({@link Directories#isLocal}). A network or FUSE file system keeps a file removed while
 * a process has it open or mapped under a hidden name ({@code .nfsXXXX},
 * {@code .fuse_hiddenXXXX}) until the process lets go of it, and the JDK unmaps a mapping
 * only when the garbage collector frees its buffer, long after the store that made it was
 * closed: removing the file's directory fails with "directory not empty" until then.
 * Measured on {@code bindfs}: a migration of a repository written in the two seconds
 * before (its staged table, mapped by the verification, then built again) failed every
 * time when it removed the staged directory. A file read through a channel instead is let
 * go of when its store is closed.
 */
public final class MemoryMaps {

	/** Directories told apart so far; cleared when it grows past {@link #KEPT}. */
	private static final Map<Path, Boolean> LOCAL = new ConcurrentHashMap<>();

	/**
	 * How many directories {@link #LOCAL} keeps, one per store of a fleet's repositories.
	 */
	private static final int KEPT = 4096;

	private MemoryMaps() {
	}

	/**
	 * Whether {@code file} may be mapped: whether its directory is on a local file system
	 * (the answer kept per directory, as finding a path's mount reads the mount table).
	 */
	public static boolean mayMap(Path file) {
		Path dir = file.toAbsolutePath().getParent();
		if (dir == null) {
			return false;
		}
		Boolean local = LOCAL.get(dir);
		if (local == null) {
			if (LOCAL.size() >= KEPT) {
				LOCAL.clear();
			}
			local = Directories.isLocal(dir);
			LOCAL.put(dir, local);
		}
		return local;
	}

}
