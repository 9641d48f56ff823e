package io.refstore.core.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import io.refstore.core.io.Fsync;
import io.refstore.core.io.LockFile;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.Ref;
import io.refstore.core.txn.PlannedUpdate;

/**
 * The {@code packed-refs} part of a {@link FilesTransaction} that deletes refs:
 * {@code packed-refs.lock} taken once anything is deleted, {@code packed-refs.new}
 * written without the deleted refs while preparing, and renamed over {@code packed-refs}
 * on commit (after the loose refs' renames, before their unlinks, as git does).
 */
final class PackedRefsUpdate {

	private final FilesRefStore store;

	private LockFile lock;

	/**
	 * The prepared {@code packed-refs.new}, or {@code null} if no deleted ref is packed.
	 */
	private Path next;

	PackedRefsUpdate(FilesRefStore store) {
		this.store = store;
	}

	/**
	 * Locks {@code packed-refs} if {@code planned} deletes anything or {@code always};
	 * writes the new file if a deleted ref is packed.
	 */
	void prepare(Collection<PlannedUpdate> planned, boolean fsync, boolean always) throws IOException {
		List<byte[]> deleted = deletedNames(planned);
		if (deleted.isEmpty() && !always) {
			return;
		}
		this.lock = LockFile.acquire(this.store.packedFile(), this.store.options.packedLockTimeout(),
				this.store.options.owner());
		this.lock.closeChannel();
		if (deleted.isEmpty()) {
			return;
		}
		Path next = FilesPacker.createNext(this.store.packedFile());
		// read under packed-refs.lock: no other writer can replace the file now
		if (PackedRefsDeletion.writeWithout(this.store.packedFile(), this.store.hashAlgorithm(), deleted,
				this.store.options.objects(), next, fsync, this.store::packedLocked)) {
			this.next = next;
		}
		else {
			Files.deleteIfExists(next);
		}
	}

	/**
	 * Whether the prepared update rewrites {@code packed-refs} (a deleted ref is packed).
	 */
	boolean rewrites() {
		return this.next != null;
	}

	/**
	 * For a forced transaction (a chunk of a bulk deletion), makes the deletion of every
	 * ref one rename: the deleted refs that have a loose file are first packed with the
	 * value they have (readers see no change), and their loose files removed, both
	 * forced; then {@code packed-refs} without them is prepared anew, so that its rename
	 * removes every deleted ref at once. Otherwise a reader, a kill or a power cut could
	 * find the loose refs of the transaction going one by one after {@code packed-refs}
	 * is replaced, as with git. Costs one more rewrite of {@code packed-refs} when a
	 * deleted ref is loose. A symbolic ref, or one whose object is missing, cannot be
	 * packed and is removed as git removes it.
	 * @param looseDeleted the loose files of deleted refs, as read under their locks
	 */
	void packLooseDeletions(Collection<PlannedUpdate> planned, Map<String, Ref> looseDeleted) throws IOException {
		if (!packLoose(packable(planned, looseDeleted, Map.of()))) {
			return;
		}
		Path packedFile = this.store.packedFile();
		Path next = packedFile.resolveSibling("packed-refs.new");
		if (PackedRefsDeletion.writeWithout(packedFile, this.store.hashAlgorithm(), deletedNames(planned),
				this.store.options.objects(), next, true, this.store::packedLocked)) {
			this.next = next;
		}
	}

	/**
	 * Makes a transaction of several refs, each a ref of {@code refs/} written with an
	 * object id or deleted, one rename of {@code packed-refs}, for a power cut, a kill or
	 * a reader to find it all done or not at all: the refs it changes that have a loose
	 * file are first packed with the value they have and their files removed (readers see
	 * no change), both forced; then {@code packed-refs} with the new values and without
	 * the deleted refs is prepared and forced, for {@link #commit()} to rename. git
	 * renames each loose ref into place, one after another. Costs one or two rewrites of
	 * {@code packed-refs}.
	 * @param looseDeleted the loose files of deleted refs, as read under their locks
	 * @param looseWritten the loose files of written refs, as read under their locks;
	 * each a direct ref whose object exists
	 * @param written the new values, sorted by name (bytewise)
	 */
	void packWrites(Collection<PlannedUpdate> planned, Map<String, Ref> looseDeleted, Map<String, Ref> looseWritten,
			List<DirectRef> written) throws IOException {
		packLoose(packable(planned, looseDeleted, looseWritten));
		Path packedFile = this.store.packedFile();
		Path next = packedFile.resolveSibling("packed-refs.new");
		PackedRefsDeletion.writeChanged(packedFile, this.store.hashAlgorithm(), deletedNames(planned), written,
				this.store.options.objects(), next, true, this.store::packedLocked);
		this.next = next;
	}

	/**
	 * The loose files to pack before the rename that commits: deleted refs' and written
	 * refs' that are direct refs naming objects that exist (a symbolic ref, or one whose
	 * object is missing, cannot be packed and is removed as git removes it), sorted by
	 * name.
	 */
	private List<DirectRef> packable(Collection<PlannedUpdate> planned, Map<String, Ref> looseDeleted,
			Map<String, Ref> looseWritten) throws IOException {
		ObjectDatabase objects = this.store.options.objects();
		List<DirectRef> loose = new ArrayList<>();
		for (PlannedUpdate item : planned) {
			Ref current = item.deletesExisting() ? looseDeleted.get(item.name()) : looseWritten.get(item.name());
			if (current instanceof DirectRef direct && objects.exists(direct.id())) {
				loose.add(direct);
			}
		}
		loose.sort((a, b) -> Arrays.compareUnsigned(a.name().getBytes(StandardCharsets.UTF_8),
				b.name().getBytes(StandardCharsets.UTF_8)));
		return loose;
	}

	/**
	 * Packs {@code loose} with the values they have and removes their files, both forced;
	 * drops a prepared {@code packed-refs.new}, which no longer holds what is packed.
	 * @return whether anything was packed
	 */
	private boolean packLoose(List<DirectRef> loose) throws IOException {
		if (loose.isEmpty()) {
			return false;
		}
		Path packedFile = this.store.packedFile();
		Path next = packedFile.resolveSibling("packed-refs.new");
		Files.deleteIfExists(next);
		this.next = null;
		PackedRefsDeletion.writeChanged(packedFile, this.store.hashAlgorithm(), List.of(), loose,
				this.store.options.objects(), next, true, this.store::packedLocked);
		Fsync.rename(next, packedFile);
		List<Path> dirs = new ArrayList<>();
		for (DirectRef ref : loose) {
			Path path = this.store.refPath(ref.name());
			Files.deleteIfExists(path);
			dirs.add(path.getParent());
		}
		Fsync.nearestDirectories(dirs);
		return true;
	}

	/**
	 * Renames the prepared {@code packed-refs.new} over {@code packed-refs}, if there is
	 * one.
	 */
	void commit() throws IOException {
		if (this.next != null) {
			Files.move(this.next, this.store.packedFile(), StandardCopyOption.ATOMIC_MOVE,
					StandardCopyOption.REPLACE_EXISTING);
			this.next = null;
		}
	}

	/**
	 * Removes an uncommitted {@code packed-refs.new} and releases the lock. Idempotent.
	 */
	void release() {
		if (this.next != null) {
			try {
				Files.deleteIfExists(this.next);
			}
			catch (IOException ex) {
				// replaced by the next writer that takes packed-refs.lock
			}
			this.next = null;
		}
		if (this.lock != null) {
			this.lock.rollback();
			this.lock = null;
		}
	}

	/** The names of the refs {@code planned} deletes, as UTF-8. */
	private static List<byte[]> deletedNames(Collection<PlannedUpdate> planned) {
		List<byte[]> deleted = new ArrayList<>();
		for (PlannedUpdate item : planned) {
			if (item.deletesExisting()) {
				deleted.add(item.name().getBytes(StandardCharsets.UTF_8));
			}
		}
		return deleted;
	}

}
