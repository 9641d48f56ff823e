package io.refstore.core.files;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.refstore.core.io.LockFailedException;
import io.refstore.core.io.Fsync;
import io.refstore.core.io.LockFile;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore.PackOptions;
import io.refstore.core.ref.StoreStatistics;

/**
 * {@code git pack-refs} for the files backend.
 * <ol>
 * <li>Lock {@code packed-refs}.</li>
 * <li>Choose loose refs to pack: with {@code --all} every loose direct ref whose object
 * exists, otherwise loose tags only (records already in {@code packed-refs} are kept as
 * they are); never symbolic, broken or per-worktree refs. With {@code --auto}, stop here
 * unless they are at least {@link StoreStatistics#looseRefLimit git's limit} for the size
 * of {@code packed-refs}: git counts what it would pack, not every loose file.</li>
 * <li>Merge them with the packed records (a loose value replaces the packed one), peel
 * new values through the object database, write {@code packed-refs.new} and rename it
 * over {@code packed-refs}.</li>
 * <li>Prune: for each packed loose ref, lock it, check it still holds the packed value,
 * delete it.</li>
 * <li>Unlock {@code packed-refs}.</li>
 * </ol>
 * Readers see every ref throughout: a loose file is removed only after the packed copy is
 * committed.
 */
final class FilesPacker {

	private final FilesRefStore store;

	FilesPacker(FilesRefStore store) {
		this.store = store;
	}

	void pack(PackOptions options) throws IOException {
		try (LockFile packedLock = LockFile.acquire(this.store.packedFile(), this.store.options.packedLockTimeout(),
				this.store.options.owner())) {
			packedLock.closeChannel();
			PackedRefs packed = this.store.packedLocked();
			List<DirectRef> loose = chooseLoose(options);
			if (options.auto() && loose.size() < StoreStatistics.looseRefLimit(packedSize())) {
				return;
			}
			Path next = createNext(this.store.packedFile());
			// as git's pack-refs under core.fsync=reference: the new file's content
			// before its rename
			writeMerged(this.store.options.objects(), packed, loose, next, this.store.options.fsync());
			Files.move(next, this.store.packedFile(), StandardCopyOption.ATOMIC_MOVE,
					StandardCopyOption.REPLACE_EXISTING);
			if (options.prune()) {
				for (DirectRef ref : loose) {
					prune(ref);
				}
			}
		}
	}

	/**
	 * Creates {@code packed-refs.new} next to {@code packedFile}, exclusively as git
	 * does: one left by another writer is not ours to replace.
	 * @throws IOException naming the file if it exists
	 */
	static Path createNext(Path packedFile) throws IOException {
		Path next = packedFile.resolveSibling("packed-refs.new");
		try {
			Files.createFile(next);
		}
		catch (FileAlreadyExistsException ex) {
			throw new IOException("unable to create file " + next + ": File exists", ex);
		}
		return next;
	}

	/**
	 * The loose refs {@code options} pack, in name order: as git's {@code pack-refs}
	 * chooses them, and as its {@code --auto} counts them against the limit.
	 */
	private List<DirectRef> chooseLoose(PackOptions options) throws IOException {
		List<DirectRef> chosen = new ArrayList<>();
		for (byte[] nameBytes : LooseRefs.list(this.store.options.commonDir(), "")) {
			String name = new String(nameBytes, StandardCharsets.UTF_8);
			// without --all git packs loose tags only (or what --include names): a loose
			// branch that is also packed stays loose, and its packed record keeps its old
			// value
			if (options.selects(name)) {
				Ref ref = LooseRefs.read(this.store.refPath(name), name, this.store.hashAlgorithm());
				if (packs(this.store.options.objects(), name, ref)) {
					chosen.add((DirectRef) ref);
				}
			}
		}
		return chosen;
	}

	/**
	 * Whether {@code pack-refs} packs the loose ref {@code name} holding {@code ref}
	 * (once its options select the name): never a per-worktree ref, a symbolic ref or one
	 * whose object is missing.
	 */
	static boolean packs(ObjectDatabase objects, String name, Ref ref) throws IOException {
		if (name.startsWith("refs/worktree/") || name.startsWith("refs/bisect/")
				|| name.startsWith("refs/rewritten/")) {
			return false;
		}
		return ref instanceof DirectRef direct && objects.exists(direct.id());
	}

	private long packedSize() throws IOException {
		try {
			return Files.size(this.store.packedFile());
		}
		catch (NoSuchFileException ex) {
			return 0;
		}
	}

	/**
	 * Writes {@code packed} with {@code loose} (sorted by name, bytewise) merged in to
	 * {@code target}: a loose value replaces the packed one, new values are peeled
	 * through {@code objects}.
	 * @param fsync whether to force {@code target} to the disk
	 */
	static void writeMerged(ObjectDatabase objects, PackedRefs packed, List<DirectRef> loose, Path target,
			boolean fsync) throws IOException {
		writeMerged(objects, packed, loose, List.of(), target, fsync);
	}

	/**
	 * Writes {@code packed} with {@code loose} (sorted by name, bytewise) merged in and
	 * the records named in {@code dropped} (sorted bytewise, none of them in
	 * {@code loose}) left out to {@code target}.
	 * @param fsync whether to force {@code target} to the disk
	 */
	static void writeMerged(ObjectDatabase objects, PackedRefs packed, List<DirectRef> loose, List<byte[]> dropped,
			Path target, boolean fsync) throws IOException {
		try {
			try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(target), 1 << 16)) {
				merge(objects, packed, loose, new Dropped(dropped), new PackedRefsWriter(out, packed.hash.hexLength()));
			}
			if (fsync) {
				Fsync.file(target);
			}
		}
		catch (IOException | RuntimeException ex) {
			// a damaged packed-refs (or a full disk) must leave no half-written file
			// behind
			Files.deleteIfExists(target);
			throw ex;
		}
	}

	private static void merge(ObjectDatabase objects, PackedRefs packed, List<DirectRef> loose, Dropped dropped,
			PackedRefsWriter writer) throws IOException {
		int record = packed.start;
		for (DirectRef ref : loose) {
			byte[] name = ref.name().getBytes(StandardCharsets.UTF_8);
			while (record < packed.buf.length) {
				int nameEnd = packed.checkRecord(record);
				int nameStart = packed.nameStart(record);
				int cmp = Arrays.compareUnsigned(packed.buf, nameStart, nameEnd, name, 0, name.length);
				if (cmp > 0) {
					break;
				}
				if (cmp < 0 && !dropped.contains(packed.buf, nameStart, nameEnd)) {
					writePacked(packed, record, writer, objects);
				}
				record = packed.nextRecord(record);
			}
			writer.write(name, 0, name.length, ref.id(), objects.peel(ref.id()));
		}
		while (record < packed.buf.length) {
			int nameEnd = packed.checkRecord(record);
			if (!dropped.contains(packed.buf, packed.nameStart(record), nameEnd)) {
				writePacked(packed, record, writer, objects);
			}
			record = packed.nextRecord(record);
		}
	}

	/**
	 * Names to leave out, sorted bytewise, asked about in ascending order: each look
	 * moves a cursor, so a merge compares each packed name with one of them at most
	 * twice.
	 */
	private static final class Dropped {

		private final List<byte[]> names;

		private int next;

		Dropped(List<byte[]> names) {
			this.names = names;
		}

		boolean contains(byte[] buf, int from, int to) {
			while (this.next < this.names.size()) {
				byte[] name = this.names.get(this.next);
				int cmp = Arrays.compareUnsigned(name, 0, name.length, buf, from, to);
				if (cmp > 0) {
					return false;
				}
				this.next++;
				if (cmp == 0) {
					return true;
				}
			}
			return false;
		}

	}

	private static void writePacked(PackedRefs packed, int record, PackedRefsWriter writer, ObjectDatabase objects)
			throws IOException {
		ObjectId id = packed.id(record);
		ObjectId peeled = packed.hasPeeled(record) ? packed.peeled(record)
				: packed.peelKnown(record) ? null : objects.peel(id);
		int nameStart = packed.nameStart(record);
		writer.write(packed.buf, nameStart, packed.nameEnd(record) - nameStart, id, peeled);
	}

	/**
	 * Deletes a loose ref that is now packed, unless it changed meanwhile or is locked by
	 * someone.
	 */
	private void prune(DirectRef ref) throws IOException {
		Path path = this.store.refPath(ref.name());
		LockFile lock;
		try {
			lock = LockFile.acquire(path, this.store.options.looseLockTimeout(), this.store.options.owner());
		}
		catch (LockFailedException ex) {
			return;
		}
		try {
			Ref current = LooseRefs.read(path, ref.name(), this.store.hashAlgorithm());
			if (!(current instanceof DirectRef direct && direct.id().equals(ref.id()))) {
				return;
			}
			Files.deleteIfExists(path);
		}
		finally {
			lock.rollback();
		}
		FilesRefStore.removeEmptyParents(this.store.base(ref.name()), path);
	}

}
