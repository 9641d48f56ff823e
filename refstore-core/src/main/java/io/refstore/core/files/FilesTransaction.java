package io.refstore.core.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

import io.refstore.core.io.Fsync;
import io.refstore.core.io.LockFailedException;
import io.refstore.core.io.LockFile;
import io.refstore.core.io.ParallelIo;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.Rejection;
import io.refstore.core.ref.TransactionAbortedByHookException;
import io.refstore.core.ref.WorktreeRef;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.txn.Outcome;
import io.refstore.core.txn.PlannedUpdate;
import io.refstore.core.txn.ReflogEntries;
import io.refstore.core.txn.StagedTransaction;
import io.refstore.core.txn.UpdateChecks;

/**
 * A transaction of the files backend, in git's order of operations.
 *
 * <p>
 * Prepare (any rejection releases every lock and changes nothing):
 * <ol>
 * <li>check names and duplicates; follow symbolic refs of updates that dereference
 * ({@link UpdateChecks});</li>
 * <li>lock every ref ({@code <ref>.lock}, exclusively; {@link RefLocks}), read its value
 * under the lock, and in submission order check the expected old value, name conflicts
 * and the new object;</li>
 * <li>write each new value into its lock, unless the transaction packs them
 * ({@link #packsWrites()});</li>
 * <li>if anything is deleted, lock {@code packed-refs} and write its new content to
 * {@code packed-refs.new} ({@link PackedRefsUpdate}).</li>
 * </ol>
 * Commit: append reflogs then rename each lock over its ref; delete reflogs of deleted
 * refs; rename {@code packed-refs.new} over {@code packed-refs} (so a deleted ref
 * vanishes at once, its loose file still hiding the old packed value until then); unlink
 * deleted loose files; release locks; remove empty directories. A transaction that syncs
 * its directories ({@link #packsWrites()}) removes the reflogs after the new
 * {@code packed-refs} is on the disk instead, so that no ref survives a power cut without
 * its reflog.
 */
final class FilesTransaction extends StagedTransaction {

	private final FilesRefStore store;

	private NavigableMap<String, PlannedUpdate> planned = new TreeMap<>();

	private final RefLocks locks;

	/** Names of refs that get a new value (in their lock, or packed). */
	private final Set<String> written = new HashSet<>();

	/**
	 * The new loose file of each written ref, written into its lock once the transaction
	 * knows that it renames the locks rather than packing the values
	 * ({@link #packWrites}).
	 */
	private final Map<String, byte[]> lockContents = new HashMap<>();

	/** Names of refs whose path was found, under the lock, not to be a directory. */
	private final Set<String> checkedNotDirectory = new HashSet<>();

	/** The loose files of deleted refs, as read under their locks. */
	private final Map<String, Ref> looseDeleted = new HashMap<>();

	/** The loose files of written refs, as read under their locks. */
	private final Map<String, Ref> looseWritten = new HashMap<>();

	/**
	 * Whether the written values go into {@code packed-refs}, with the deletions, in one
	 * rename ({@link #packsWrites()}).
	 */
	private boolean packWrites;

	/**
	 * Whether the deletions are one rename of {@code packed-refs}: their loose files
	 * packed first ({@link PackedRefsUpdate#packLooseDeletions}).
	 */
	private boolean packDeletions;

	private final PackedRefsUpdate packed;

	/**
	 * A forced transaction's locks link to a record whose name is forced too, whatever
	 * {@code core.fsync} says: its forced renames and directory syncs can make a lock
	 * durable, which a power cut then leaves linked to nothing known (a rewind cut on a
	 * fault-injecting file system left {@code packed-refs.lock}, and its rerun was
	 * refused).
	 */
	@Override
	protected void forcing() {
		if (this.store.options.owner() != null) {
			this.store.options.owner().makeDurable();
		}
	}

	FilesTransaction(FilesRefStore store) {
		super(store.hashAlgorithm(), store.options.committer());
		this.store = store;
		this.locks = new RefLocks(store);
		this.packed = new PackedRefsUpdate(store);
	}

	/**
	 * Planning reads only to follow symbolic refs, and a packed ref is never symbolic:
	 * the loose file alone answers, without a look at {@code packed-refs} per ref (the
	 * value that counts is read under the lock).
	 */
	@Override
	protected Ref readUnlocked(String name) throws IOException {
		if (!RefName.isValid(name, true)) {
			return null;
		}
		Ref ref = LooseRefs.read(this.store.refPath(name), name, this.store.hashAlgorithm());
		return (ref == LooseRefs.BROKEN) ? null : ref;
	}

	private Ref readExisting(String name) throws IOException {
		Ref ref = this.store.readRef(name);
		return (ref == LooseRefs.BROKEN) ? null : ref;
	}

	@Override
	protected void lockAndCheck(NavigableMap<String, PlannedUpdate> planned, Outcome outcome) throws IOException {
		this.planned = planned;
		lockAndCheck(outcome);
		if (outcome.isClean()) {
			// step 3
			this.packWrites = packsWrites();
			if (!this.packWrites) {
				// packed writes are never renamed from their locks: no file, no sync per
				// ref
				for (Map.Entry<String, byte[]> content : this.lockContents.entrySet()) {
					this.locks.get(content.getKey()).write(content.getValue(), fsync());
				}
			}
			this.packed.prepare(this.planned.values(), fsync(), this.packWrites);
			packedHook();
		}
	}

	/**
	 * Runs the hook for the deletions as git's files backend does for the transaction it
	 * makes on {@code packed-refs}: prepared if a deleted ref is packed (committed with
	 * the rest), else aborted at once.
	 */
	private void packedHook() throws IOException {
		this.packedHookLines = packedDeletionLines(submissionOrder());
		if (this.packedHookLines.isEmpty()) {
			return;
		}
		if (!this.packed.rewrites()) {
			runHook("aborted", this.packedHookLines);
			this.packedHookLines = List.of();
			return;
		}
		for (String state : List.of("preparing", "prepared")) {
			if (runHook(state, this.packedHookLines) != 0) {
				throw new TransactionAbortedByHookException(state);
			}
		}
	}

	/** The lines of the packed-refs transaction while it is prepared, else empty. */
	private List<String> packedHookLines = List.of();

	@Override
	protected void release() {
		this.locks.releaseAll();
		this.packed.release();
	}

	/**
	 * Step 2: lock, read under the lock, check, write the new value into the lock. The
	 * lock files are made ahead ({@link RefLocks}); their outcomes are taken in
	 * submission order.
	 */
	private void lockAndCheck(Outcome outcome) throws IOException {
		ObjectId zero = this.store.hashAlgorithm().zeroId();
		List<PlannedUpdate> order = submissionOrder();
		// nested names (a beside a/b) are locked one after another, each checked before
		// the next is locked, as
		// git does: making a/b.lock makes the directory a/, which the check of a would
		// then find
		if (!hasNestedNames()) {
			this.locks.takeAhead(order.stream().map(PlannedUpdate::name).toList());
		}
		for (int i = 0; i < order.size(); i++) {
			PlannedUpdate item = order.get(i);
			ParallelIo.Outcome<RefLocks.Taken> mine = this.locks.take(i, item.name());
			if (!lock(item, mine, outcome) || isBroken(item, mine.get().loose(), outcome)) {
				this.locks.releaseAfter(i, item.name(), false);
				return;
			}
			if (mine.get().loose() != null) {
				(item.update().isDelete() ? this.looseDeleted : this.looseWritten).put(item.name(), mine.get().loose());
			}
			PackedRefs packed = null;
			if (expectsMissing(item)) {
				// a create checks its name against all of packed-refs anyway: one look at
				// the file for both
				packed = this.store.packed();
			}
			item.setOld(lockedValue(item.name(), mine.get().loose(), packed), this::readExisting);
			if (!UpdateChecks.checkExpected(item, zero, outcome) || !check(item, packed, outcome)) {
				this.locks.releaseAfter(i, item.name(), refusedUnderLock(item, outcome));
				return;
			}
		}
	}

	/**
	 * Whether git held the lock of a refused update when it refused it, and so prunes the
	 * directories made for it: a missing ref that had to exist and a name conflict are
	 * found while git takes the lock (which it then gives up), anything else after.
	 */
	private static boolean refusedUnderLock(PlannedUpdate item, Outcome outcome) {
		Rejection why = outcome.rejectionOf(item.update());
		return !(why == Rejection.NAME_CONFLICT || (why == Rejection.NONEXISTENT_REF && item.old() == null));
	}

	/**
	 * The planned updates in the order they were submitted, in which git locks and writes
	 * them. It matters beyond git's choice of the first rejection: file systems allocate
	 * files made in one directory after another (name order) much more slowly than files
	 * spread over directories (ext4 skips recently deleted inodes, scanning its bitmaps
	 * anew for each file).
	 */
	private List<PlannedUpdate> submissionOrder() {
		if (this.inSubmissionOrder == null) {
			this.inSubmissionOrder = new ArrayList<>(this.planned.values());
			this.inSubmissionOrder.sort(java.util.Comparator.comparingInt(PlannedUpdate::submitted));
		}
		return this.inSubmissionOrder;
	}

	private List<PlannedUpdate> inSubmissionOrder;

	/** Whether a planned name is a directory of another ({@code a} and {@code a/b}). */
	private boolean hasNestedNames() {
		for (String name : this.planned.keySet()) {
			String below = this.planned.ceilingKey(name + "/");
			if (below != null && below.startsWith(name + "/")) {
				return true;
			}
		}
		return false;
	}

	private static boolean expectsMissing(PlannedUpdate item) {
		return item.update().expectedOld() != null && item.update().expectedOld().isZero();
	}

	/**
	 * {@link FilesRefStore#readRef} for a locked ref whose loose file was read when the
	 * lock was taken: only a lock holder changes a loose file. The packed value comes
	 * from {@code packed} when given.
	 */
	private Ref lockedValue(String name, Ref loose, PackedRefs packed) throws IOException {
		if (!RefName.isValid(name, true)) {
			return null;
		}
		if (loose != null || RefName.isPseudoRef(name)) {
			return loose;
		}
		return (packed != null) ? FilesRefStore.readPacked(packed, name) : this.store.lookupPacked(name);
	}

	/**
	 * Takes the outcome of making a ref's lock: a refusal, or the checks of a path that
	 * will hold a value.
	 */
	private boolean lock(PlannedUpdate item, ParallelIo.Outcome<RefLocks.Taken> taken, Outcome outcome)
			throws IOException {
		String name = item.name();
		Path path = this.store.refPath(name);
		String conflict = null;
		try {
			taken.get();
			if (!item.writesValue()) {
				return true;
			}
			// a directory where the ref's file goes: git removes it if it holds no ref
			if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
				this.checkedNotDirectory.add(name);
				return true;
			}
			ObjectId expected = item.update().expectedOld();
			if (expected != null && !expected.isZero() && this.store.lookupPacked(name) == null) {
				// git: a directory stands where a ref that must exist would be, and no
				// packed ref has the name
				outcome.reject(item.update(), Rejection.NONEXISTENT_REF,
						"cannot lock ref '" + item.update().name() + "': unable to resolve reference '" + name + "'");
				return false;
			}
			if (removeEmptyTree(path)) {
				this.checkedNotDirectory.add(name);
				return true;
			}
			conflict = firstRefBelow(name);
			if (conflict == null) {
				// else the directory holds the lock of a ref below that this transaction
				// creates, or no ref at all
				String inTransaction = UpdateChecks.conflictInTransaction(name, this.planned);
				outcome.reject(item.update(), Rejection.NAME_CONFLICT,
						"cannot lock ref '" + item.update().name() + "': "
								+ ((inTransaction != null) ? inTransaction : "there is a non-empty directory '"
										+ displayPath(path) + "' blocking reference '" + name + "'"));
				return false;
			}
		}
		catch (LockFailedException ex) {
			outcome.reject(item.update(), Rejection.LOCK_FAILURE, "cannot lock ref '" + name + "': Unable to create '"
					+ ex.lockFile() + "': File exists.\n\nAnother git process seems to be running in this repository,"
					+ " e.g.\nan editor opened by 'git commit'. Please make sure all processes\nare terminated then"
					+ " try again. If it still fails, a git process\nmay have crashed in this repository earlier:\n"
					+ "remove the file manually to continue.");
			return false;
		}
		catch (FileAlreadyExistsException | NoSuchFileException | NotDirectoryException ex) {
			conflict = existingParentRef(name);
		}
		outcome.reject(item.update(), Rejection.NAME_CONFLICT, "cannot lock ref '" + item.update().name() + "': '"
				+ conflict + "' exists; cannot create '" + name + "'");
		return false;
	}

	/**
	 * Refuses a ref whose loose file does not parse, as git does, whatever the update:
	 * the file may be something else's (a loose object whose path is a valid ref name),
	 * and it is never overwritten.
	 */
	private static boolean isBroken(PlannedUpdate item, Ref loose, Outcome outcome) {
		if (loose != LooseRefs.BROKEN) {
			return false;
		}
		outcome.reject(item.update(), Rejection.BROKEN_REF, "cannot lock ref '" + item.update().name()
				+ "': unable to resolve reference '" + item.name() + "': reference broken");
		return true;
	}

	/** Name conflicts, the new object, and the new value written into the lock. */
	private boolean check(PlannedUpdate item, PackedRefs packedRead, Outcome outcome) throws IOException {
		// as in git, a ref that does not exist must be creatable, whatever the update
		// does with it
		if (item.old() == null) {
			// the whole packed-refs only when a name must be checked against it (never
			// for deletions of refs
			// that exist): the store keeps it while the file is unchanged
			PackedRefs packed = (packedRead != null) ? packedRead : this.store.packed();
			String conflict = nameConflict(item.name(), packed);
			if (conflict != null) {
				outcome.reject(item.update(), Rejection.NAME_CONFLICT,
						"cannot lock ref '" + item.update().name() + "': " + conflict);
				return false;
			}
		}
		if (!item.writesValue()) {
			return true;
		}
		Ref newRef;
		if (item.update().type() == RefUpdate.Type.SYMREF) {
			newRef = new SymbolicRef(item.name(), item.update().newTarget());
		}
		else {
			if (item.isNoOp()) {
				return true;
			}
			if (!UpdateChecks.checkObject(item, this.store.options.objects(), outcome)) {
				return false;
			}
			newRef = new DirectRef(item.name(), item.update().newId());
		}
		this.lockContents.put(item.name(), LooseRefs.format(newRef));
		this.written.add(item.name());
		return true;
	}

	/**
	 * A directory/file conflict of a new ref with packed refs or other updates, or
	 * {@code null}.
	 */
	private String nameConflict(String name, PackedRefs packed) throws IOException {
		Path path = this.store.refPath(name);
		if (!this.checkedNotDirectory.contains(name) && Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
			List<byte[]> below = LooseRefs.list(this.store.options.commonDir(), name + "/");
			if (!below.isEmpty()) {
				return "'" + new String(below.get(0), StandardCharsets.UTF_8) + "' exists; cannot create '" + name
						+ "'";
			}
		}
		for (int slash = name.indexOf('/'); slash > 0; slash = name.indexOf('/', slash + 1)) {
			String parent = name.substring(0, slash);
			if (FilesRefStore.readPacked(packed, parent) != null) {
				return "'" + parent + "' exists; cannot create '" + name + "'";
			}
		}
		String child = packed.firstBelow(name);
		if (child != null) {
			return "'" + child + "' exists; cannot create '" + name + "'";
		}
		return UpdateChecks.conflictInTransaction(name, this.planned);
	}

	private String existingParentRef(String name) {
		for (int slash = name.indexOf('/'); slash > 0; slash = name.indexOf('/', slash + 1)) {
			String parent = name.substring(0, slash);
			if (Files.isRegularFile(this.store.refPath(parent))) {
				return parent;
			}
		}
		return name;
	}

	/**
	 * The ref below {@code name} that keeps its directory from being removed: a loose
	 * one, else a packed one whose loose file this transaction locked (a deletion of it),
	 * else {@code null}.
	 */
	private String firstRefBelow(String name) throws IOException {
		List<byte[]> below = LooseRefs.list(this.store.options.commonDir(), name + "/");
		if (!below.isEmpty()) {
			return new String(below.get(0), StandardCharsets.UTF_8);
		}
		return this.store.packed().firstBelow(name);
	}

	/**
	 * A path in the git directory as git names it in messages: git works from the top of
	 * the worktree, so the main {@code .git} directory is {@code .git}; others are named
	 * in full.
	 */
	private String displayPath(Path path) {
		Path common = this.store.options.commonDir();
		if (common.equals(this.store.options.gitDir()) && common.getFileName() != null
				&& common.getFileName().toString().equals(".git") && path.startsWith(common)) {
			return ".git/" + common.relativize(path);
		}
		return path.toString();
	}

	/** Removes a tree of empty directories; {@code false} if it holds any file. */
	private static boolean removeEmptyTree(Path dir) throws IOException {
		try (var entries = Files.newDirectoryStream(dir)) {
			for (Path entry : entries) {
				if (!Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS) || !removeEmptyTree(entry)) {
					return false;
				}
			}
		}
		Files.delete(dir);
		return true;
	}

	/**
	 * Whether this transaction is made all or nothing for a power cut: where
	 * {@code core.fsync} covers references (or the transaction is forced, as a restore's
	 * chunk is), a transaction that changes more than one ref, each a ref of
	 * {@code refs/} shared by the worktrees and written with an object id (or deleted),
	 * goes into {@code packed-refs} in one rename ({@link PackedRefsUpdate#packWrites}).
	 * git renames each loose ref into place, so a power cut (or a kill) between two
	 * renames leaves part of the transaction; a single ref's rename is all or nothing by
	 * itself, and a symbolic ref, a root ref or a worktree's own ref cannot be packed.
	 * Decides too whether the deletions of such a transaction (or of a forced one) are
	 * one rename ({@link #packDeletions}).
	 */
	private boolean packsWrites() throws IOException {
		if (!fsync()) {
			return false;
		}
		int changed = 0;
		for (PlannedUpdate item : this.planned.values()) {
			if (this.written.contains(item.name()) || item.deletesExisting()) {
				changed++;
			}
		}
		// several deletions alone: git removes the loose files one by one after
		// packed-refs, unless they are packed first
		this.packDeletions = forced() || changed > 1;
		// a bulk run's chunk (a restore's) too: one rewrite of packed-refs costs less
		// than a forced file and directory sync per ref
		if (changed < 2 || this.written.isEmpty()) {
			return false;
		}
		for (String name : this.written) {
			PlannedUpdate item = this.planned.get(name);
			if (item.update().type() == RefUpdate.Type.SYMREF || !name.startsWith("refs/")
					|| WorktreeRef.parse(name).scope() != WorktreeRef.Scope.SHARED) {
				return false;
			}
			Ref loose = this.looseWritten.get(name);
			if (loose != null
					&& !(loose instanceof DirectRef direct && this.store.options.objects().exists(direct.id()))) {
				return false;
			}
		}
		return true;
	}

	/** The new values of the written refs, sorted by name (bytewise). */
	private List<DirectRef> writtenValues() {
		List<DirectRef> values = new ArrayList<>();
		for (PlannedUpdate item : this.planned.values()) {
			if (this.written.contains(item.name())) {
				values.add(new DirectRef(item.name(), item.update().newId()));
			}
		}
		values.sort((a, b) -> Arrays.compareUnsigned(a.name().getBytes(StandardCharsets.UTF_8),
				b.name().getBytes(StandardCharsets.UTF_8)));
		return values;
	}

	/**
	 * Commit: reflogs, renames, packed-refs, unlinks, in git's order; or reflogs, then
	 * every change in one rename of packed-refs ({@link #packsWrites()}).
	 */
	@Override
	protected void apply(NavigableMap<String, PlannedUpdate> planned, PersonIdent who) throws IOException {
		for (PlannedUpdate item : submissionOrder()) {
			writeLogs(item, who);
			if (this.written.contains(item.name()) && !this.packWrites) {
				this.locks.get(item.name()).commit();
			}
		}
		if (this.packWrites) {
			// the locks keep the new values until they are released, never renamed
			this.packed.packWrites(this.planned.values(), this.looseDeleted, this.looseWritten, writtenValues());
		}
		else if (this.packDeletions) {
			this.packed.packLooseDeletions(this.planned.values(), this.looseDeleted);
		}
		List<Path> removedLogs = new ArrayList<>();
		if (!this.packDeletions) {
			// git's order: a kill in between leaves a ref without its reflog rather than
			// a reflog without its ref
			removeDeletedLogs(removedLogs);
		}
		this.packed.commit();
		if (!this.packedHookLines.isEmpty()) {
			// its exit code changes nothing: the updates are in
			runHook("committed", this.packedHookLines);
		}
		if (this.packDeletions) {
			// a transaction that syncs: the deletion is on the disk before the reflogs go
			// (still under the refs' locks), so no kill or power cut leaves a ref that
			// is still there without its reflog; one in between leaves the reflogs of
			// deleted refs, which the next deletion of the name removes, as git does
			Fsync.directory(this.store.packedFile().getParent());
			removeDeletedLogs(removedLogs);
		}
		List<String> deleted = new ArrayList<>();
		for (PlannedUpdate item : this.planned.values()) {
			if (item.deletesExisting()) {
				deleted.add(item.name());
			}
		}
		this.locks.removeDeleted(deleted);
		if (this.packDeletions) {
			syncDirectories(removedLogs);
		}
	}

	/**
	 * Removes the reflog of every deleted ref, as git does: of a ref that did not exist
	 * too (a log left behind by a kill). Where there is no logs directory at all, there
	 * is none to look for. The refs are locked, and only a lock holder writes a ref's
	 * reflog.
	 * @param removedLogs receives the directory of each removed log
	 */
	private void removeDeletedLogs(List<Path> removedLogs) throws IOException {
		Map<Path, Boolean> logsDirectories = new HashMap<>();
		for (PlannedUpdate item : this.planned.values()) {
			if (item.update().isDelete() && logsDirectories.computeIfAbsent(this.store.base(item.name()),
					(base) -> Files.isDirectory(base.resolve("logs")))) {
				Path log = this.store.logPath(item.name());
				if (deleteLog(log)) {
					FilesRefStore.removeEmptyParents(this.store.base(item.name()).resolve("logs"), log);
					removedLogs.add(log.getParent());
				}
			}
		}
	}

	private static boolean deleteLog(Path log) throws IOException {
		try {
			return LockFile.deleteIfExists(log);
		}
		catch (DirectoryNotEmptyException ex) {
			// the logs of refs below an absent ref's name, not a log of its own
			return false;
		}
	}

	/**
	 * Whether files are forced before their rename: {@code core.fsync} covers references,
	 * or the caller asks.
	 */
	private boolean fsync() {
		return this.store.options.fsync() || forced();
	}

	/**
	 * For a {@link #forceSync()} transaction: forces every directory in which a ref file,
	 * a reflog (those in {@code removedLogs}) or {@code packed-refs} was renamed or
	 * removed, each once (git syncs none of them); for a ref written as a loose file, the
	 * directories above its own too, up to the git directory holding it, since a new ref
	 * may have needed new directories ({@code refs/heads/old/} for
	 * {@code refs/heads/old/a}).
	 */
	private void syncDirectories(List<Path> removedLogs) throws IOException {
		List<Path> dirs = new ArrayList<>(removedLogs);
		dirs.add(this.store.packedFile().getParent());
		Map<Path, Set<Path>> writtenDirs = new HashMap<>();
		for (PlannedUpdate item : this.planned.values()) {
			if (this.written.contains(item.name())) {
				// packed writes rename nothing into the refs' directories (their loose
				// files were packed and removed, forced, before): a restore's chunk had a
				// directory sync per ref for the locks alone
				if (!this.packWrites) {
					writtenDirs.computeIfAbsent(this.store.base(item.name()), (base) -> new HashSet<>())
						.add(this.store.refPath(item.name()).getParent());
				}
			}
			else if (item.deletesExisting()) {
				dirs.add(this.store.refPath(item.name()).getParent());
			}
		}
		for (Map.Entry<Path, Set<Path>> base : writtenDirs.entrySet()) {
			dirs.addAll(Fsync.withParentsUpTo(base.getValue(), base.getKey()));
		}
		Fsync.nearestDirectories(dirs);
	}

	/**
	 * git's files backend logs a verify made through a symbolic ref (or of the branch
	 * {@code HEAD} names) in the symbolic ref's log, as a change from the current value
	 * to nothing and without a message: the log-only half of the split update carries
	 * neither. Kept for byte-identical reflogs.
	 */
	private static ReflogEntry verifyEntry(PlannedUpdate item, PersonIdent who, ObjectId zero) {
		if (item.logOnly().isEmpty()) {
			return null;
		}
		ObjectId old = (item.resolvedOld() != null) ? item.resolvedOld() : zero;
		return new ReflogEntry(old, zero, who, "");
	}

	private void writeLogs(PlannedUpdate item, PersonIdent who) throws IOException {
		ObjectId zero = this.store.hashAlgorithm().zeroId();
		ReflogEntry entry = ReflogEntries.forUpdate(item, who, message(), this::readExisting, zero);
		if (item.update().type() == RefUpdate.Type.VERIFY) {
			entry = verifyEntry(item, who, zero);
		}
		if (entry == null) {
			return;
		}
		if (this.written.contains(item.name())) {
			FilesReflog.append(this.store.logPath(item.name()), entry,
					this.store.options.reflogPolicy().createsLogFor(item.name())
							|| forcesLog(item.update(), item.name()));
		}
		for (String symref : item.logOnly()) {
			FilesReflog.append(this.store.logPath(symref), entry,
					this.store.options.reflogPolicy().createsLogFor(symref) || forcesLog(item.update(), symref));
		}
	}

}
