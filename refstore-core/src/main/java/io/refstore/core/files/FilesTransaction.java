package io.refstore.core.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.refstore.core.io.LockFailedException;
import io.refstore.core.io.LockFile;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.txn.RefTransaction;
import io.refstore.core.txn.RefUpdate;
import io.refstore.core.txn.Rejection;
import io.refstore.core.txn.TransactionResult;
import io.refstore.core.txn.UpdateResult;

/**
 * A transaction of the files backend, in git's order of operations.
 *
 * <p>Prepare (any rejection releases every lock and changes nothing):
 * <ol>
 * <li>check names and duplicates; follow symbolic refs of updates that dereference;</li>
 * <li>lock every ref ({@code <ref>.lock}, exclusively) in name order, read its value under the lock, check
 * the expected old value, name conflicts and the new object, and write the new value into the lock;</li>
 * <li>if anything is deleted, lock {@code packed-refs} and write its new content to
 * {@code packed-refs.new}.</li>
 * </ol>
 * Commit: append reflogs then rename each lock over its ref; delete reflogs of deleted refs; rename
 * {@code packed-refs.new} over {@code packed-refs} (so a deleted ref vanishes at once, its loose file still
 * hiding the old packed value until then); unlink deleted loose files; release locks; remove empty
 * directories.
 */
final class FilesTransaction implements RefTransaction {

	private enum State {

		OPEN, PREPARED, CLOSED

	}

	private final FilesRefStore store;

	private final List<RefUpdate> updates = new ArrayList<>();

	private State state = State.OPEN;

	private PersonIdent committer;

	private String message;

	/** Work per locked ref, by final (dereferenced) name, in name order. */
	private final TreeMap<String, Work> work = new TreeMap<>(FilesTransaction::compareNames);

	private LockFile packedLock;

	private Path packedNew;

	FilesTransaction(FilesRefStore store) {
		this.store = store;
	}

	@Override
	public RefTransaction add(RefUpdate update) {
		requireState(State.OPEN);
		this.updates.add(update);
		return this;
	}

	@Override
	public RefTransaction committer(PersonIdent committer) {
		this.committer = committer;
		return this;
	}

	@Override
	public RefTransaction message(String message) {
		this.message = message;
		return this;
	}

	@Override
	public TransactionResult prepare() throws IOException {
		requireState(State.OPEN);
		try {
			Map<RefUpdate, UpdateResult> rejected = new HashMap<>();
			planWork(rejected);
			if (rejected.isEmpty()) {
				lockAndCheck(rejected);
			}
			if (rejected.isEmpty()) {
				preparePacked();
			}
			if (!rejected.isEmpty()) {
				abort();
				return result(false, rejected);
			}
			this.state = State.PREPARED;
			return result(false, rejected);
		}
		catch (IOException | RuntimeException ex) {
			abort();
			throw ex;
		}
	}

	@Override
	public TransactionResult commit() throws IOException {
		if (this.state == State.OPEN) {
			TransactionResult prepared = prepare();
			if (this.state != State.PREPARED) {
				return prepared;
			}
		}
		requireState(State.PREPARED);
		try {
			applyWork();
		}
		finally {
			abort();
		}
		return result(true, Map.of());
	}

	@Override
	public void abort() {
		for (Work item : this.work.values()) {
			if (item.lock != null) {
				item.lock.rollback();
			}
		}
		if (this.packedNew != null) {
			try {
				Files.deleteIfExists(this.packedNew);
			}
			catch (IOException ex) {
				// removed by the next writer that takes packed-refs.lock
			}
			this.packedNew = null;
		}
		if (this.packedLock != null) {
			this.packedLock.rollback();
			this.packedLock = null;
		}
		this.state = State.CLOSED;
	}

	@Override
	public void close() {
		if (this.state != State.CLOSED) {
			abort();
		}
	}

	private void requireState(State expected) {
		if (this.state != expected) {
			throw new IllegalStateException("transaction is " + this.state + ", expected " + expected);
		}
	}

	private TransactionResult result(boolean committed, Map<RefUpdate, UpdateResult> rejected) {
		List<UpdateResult> results = new ArrayList<>(this.updates.size());
		for (RefUpdate update : this.updates) {
			UpdateResult result = rejected.get(update);
			if (result == null) {
				result = rejected.isEmpty() ? new UpdateResult(update, null, null)
						: new UpdateResult(update, Rejection.NOT_ATTEMPTED, null);
			}
			results.add(result);
		}
		return new TransactionResult(committed && rejected.isEmpty(), results);
	}

	private static void reject(Map<RefUpdate, UpdateResult> rejected, RefUpdate update, Rejection rejection,
			String message) {
		rejected.putIfAbsent(update, new UpdateResult(update, rejection, message));
	}

	/** Step 1: names, duplicates, symbolic refs followed, HEAD's log when its branch moves. */
	private void planWork(Map<RefUpdate, UpdateResult> rejected) throws IOException {
		List<RefUpdate> sorted = new ArrayList<>(this.updates);
		sorted.sort(Comparator.comparing(RefUpdate::name, FilesTransaction::compareNames));
		for (int i = 0; i < sorted.size(); i++) {
			RefUpdate update = sorted.get(i);
			if (i > 0 && sorted.get(i - 1).name().equals(update.name())) {
				reject(rejected, update, Rejection.DUPLICATE_UPDATE,
						"multiple updates for ref '" + update.name() + "' not allowed");
				return;
			}
			if (!nameAllowed(update)) {
				reject(rejected, update, Rejection.INVALID_NAME,
						"refusing to update ref with bad name '" + RefName.printable(update.name()) + "'");
				return;
			}
		}
		for (RefUpdate update : sorted) {
			String target = update.name();
			String via = null;
			if (!update.noDeref()) {
				Ref ref = this.store.readRef(update.name());
				int depth = 0;
				while (ref instanceof SymbolicRef symbolic && depth++ < RefStore.MAX_SYMREF_DEPTH) {
					via = update.name();
					target = symbolic.target();
					ref = this.store.readRef(target);
				}
			}
			if (this.work.containsKey(target)) {
				String message = (via != null)
						? "multiple updates for '" + target + "' (including one via symref '" + via
								+ "') are not allowed"
						: "multiple updates for ref '" + target + "' not allowed";
				reject(rejected, update, Rejection.DUPLICATE_UPDATE, message);
				return;
			}
			Work item = new Work(update, target);
			if (via != null) {
				item.logOnly.add(via);
			}
			this.work.put(target, item);
		}
		Ref head = this.store.readRef("HEAD");
		if (head instanceof SymbolicRef symbolicHead) {
			Work item = this.work.get(symbolicHead.target());
			// git logs HEAD when its branch moves, not when the branch is turned into a symbolic ref
			if (item != null && !item.logOnly.contains("HEAD") && item.update.type() != RefUpdate.Type.SYMREF) {
				if (this.work.containsKey("HEAD")) {
					reject(rejected, item.update, Rejection.DUPLICATE_UPDATE, "multiple updates for 'HEAD' (including one"
							+ " via its referent '" + symbolicHead.target() + "') are not allowed");
					return;
				}
				item.logOnly.add("HEAD");
			}
		}
	}

	private static boolean nameAllowed(RefUpdate update) {
		if (update.isDelete() || update.type() == RefUpdate.Type.VERIFY) {
			// git checks only safety here: a valid one-level name such as "foo" is still refused
			return RefName.isSafe(update.name());
		}
		return RefName.isValid(update.name(), true);
	}

	/** Step 2: lock, read under the lock, check, write the new value into the lock. */
	private void lockAndCheck(Map<RefUpdate, UpdateResult> rejected) throws IOException {
		PackedRefs packed = this.store.packed();
		for (Work item : this.work.values()) {
			String problem = lock(item);
			if (problem != null) {
				reject(rejected, item.update, item.rejection, "cannot lock ref '" + item.name + "': " + problem);
				return;
			}
			item.old = this.store.readRef(item.name);
			if (item.old == LooseRefs.BROKEN) {
				item.old = null;
			}
			problem = check(item, packed);
			if (problem != null) {
				reject(rejected, item.update, item.rejection, problem);
				return;
			}
		}
	}

	private String lock(Work item) throws IOException {
		Path path = this.store.refPath(item.name);
		try {
			FilesRefStore.createParentDirectories(path);
		}
		catch (FileAlreadyExistsException | NotDirectoryException ex) {
			item.rejection = Rejection.NAME_CONFLICT;
			return "'" + existingParentRef(item.name) + "' exists; cannot create '" + item.name + "'";
		}
		if (Files.isDirectory(path) && !item.update.isDelete() && item.update.type() != RefUpdate.Type.VERIFY) {
			if (!removeEmptyTree(path)) {
				item.rejection = Rejection.NAME_CONFLICT;
				String child = firstRefBelow(item.name);
				return "'" + child + "' exists; cannot create '" + item.name + "'";
			}
		}
		try {
			item.lock = LockFile.acquire(path, this.store.options.looseLockTimeout());
			return null;
		}
		catch (LockFailedException ex) {
			item.rejection = Rejection.LOCK_FAILURE;
			return "Unable to create '" + ex.lockFile() + "': File exists.\n\nAnother git process seems to be"
					+ " running in this repository, e.g.\nan editor opened by 'git commit'. Please make sure all"
					+ " processes\nare terminated then try again. If it still fails, a git process\nmay have"
					+ " crashed in this repository earlier:\nremove the file manually to continue.";
		}
		catch (NoSuchFileException | NotDirectoryException ex) {
			item.rejection = Rejection.NAME_CONFLICT;
			return "'" + existingParentRef(item.name) + "' exists; cannot create '" + item.name + "'";
		}
	}

	/** The check of old value, name conflicts and object of one locked ref, or {@code null} if it passes. */
	private String check(Work item, PackedRefs packed) throws IOException {
		RefUpdate update = item.update;
		ObjectId oldId = (item.old instanceof DirectRef direct) ? direct.id() : null;
		ObjectId expected = update.expectedOld();
		if (update.type() == RefUpdate.Type.VERIFY && expected == null) {
			expected = this.store.hashAlgorithm().zeroId();
		}
		if (expected != null) {
			if (expected.isZero() && item.old != null) {
				item.rejection = Rejection.CREATE_EXISTS;
				return "cannot lock ref '" + item.name + "': reference already exists";
			}
			if (!expected.isZero() && item.old == null) {
				item.rejection = Rejection.NONEXISTENT_REF;
				return "cannot lock ref '" + item.name + "': unable to resolve reference '" + item.name + "'";
			}
			if (!expected.isZero() && !expected.equals(oldId)) {
				item.rejection = Rejection.INCORRECT_OLD_VALUE;
				return "cannot lock ref '" + item.name + "': is at " + ((oldId != null) ? oldId.name() : "(symref)")
						+ " but expected " + expected.name();
			}
		}
		if (update.type() == RefUpdate.Type.VERIFY || update.isDelete()) {
			item.delete = update.isDelete() && item.old != null;
			return null;
		}
		if (item.old == null) {
			String conflict = nameConflict(item.name, packed);
			if (conflict != null) {
				item.rejection = Rejection.NAME_CONFLICT;
				return "cannot lock ref '" + item.name + "': " + conflict;
			}
		}
		if (update.type() == RefUpdate.Type.SYMREF) {
			item.newRef = new SymbolicRef(item.name, update.newTarget());
		}
		else {
			item.newRef = new DirectRef(item.name, update.newId());
			if (update.newId().equals(oldId)) {
				return null;
			}
			String problem = checkObject(item.name, update.newId());
			if (problem != null) {
				item.rejection = Rejection.MISSING_OBJECT;
				return "cannot update ref '" + item.name + "': " + problem;
			}
		}
		item.lock.write(LooseRefs.format(item.newRef), this.store.options.fsync());
		item.write = true;
		return null;
	}

	private String checkObject(String name, ObjectId id) throws IOException {
		ObjectType type = this.store.options.objects().type(id);
		if (type == null) {
			return "trying to write ref '" + name + "' with nonexistent object " + id.name();
		}
		if (type != ObjectType.COMMIT && name.startsWith("refs/heads/")) {
			return "trying to write non-commit object " + id.name() + " to branch '" + name + "'";
		}
		return null;
	}

	/** A directory/file conflict of a new ref with packed refs or other updates, or {@code null}. */
	private String nameConflict(String name, PackedRefs packed) throws IOException {
		for (String other : this.work.keySet()) {
			if (!other.equals(name) && (other.startsWith(name + "/") || name.startsWith(other + "/"))) {
				String first = (compareNames(name, other) < 0) ? name : other;
				String second = first.equals(name) ? other : name;
				return "cannot process '" + first + "' and '" + second + "' at the same time";
			}
		}
		for (int slash = name.indexOf('/'); slash > 0; slash = name.indexOf('/', slash + 1)) {
			String parent = name.substring(0, slash);
			if (FilesRefStore.readPacked(packed, parent) != null) {
				return "'" + parent + "' exists; cannot create '" + name + "'";
			}
		}
		byte[] below = (name + "/").getBytes(StandardCharsets.UTF_8);
		int record = packed.lowerBound(below, below.length);
		if (record < packed.buf.length) {
			String child = packed.name(record);
			if (child.startsWith(name + "/")) {
				return "'" + child + "' exists; cannot create '" + name + "'";
			}
		}
		return null;
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

	private String firstRefBelow(String name) throws IOException {
		List<byte[]> below = LooseRefs.list(this.store.options.commonDir(), name + "/");
		return below.isEmpty() ? name + "/" : new String(below.get(0), StandardCharsets.UTF_8);
	}

	/** Removes a tree of empty directories; {@code false} if it holds any file. */
	private static boolean removeEmptyTree(Path dir) throws IOException {
		try (var entries = Files.newDirectoryStream(dir)) {
			for (Path entry : entries) {
				if (!Files.isDirectory(entry, java.nio.file.LinkOption.NOFOLLOW_LINKS) || !removeEmptyTree(entry)) {
					return false;
				}
			}
		}
		Files.delete(dir);
		return true;
	}

	/** Step 3: lock packed-refs if anything is deleted; write the new file if a deleted ref is packed. */
	private void preparePacked() throws IOException {
		List<byte[]> deleted = new ArrayList<>();
		for (Work item : this.work.values()) {
			if (item.delete) {
				deleted.add(item.name.getBytes(StandardCharsets.UTF_8));
			}
		}
		if (deleted.isEmpty()) {
			return;
		}
		this.packedLock = LockFile.acquire(this.store.packedFile(), this.store.options.packedLockTimeout());
		this.packedLock.closeChannel();
		PackedRefs packed = this.store.packed();
		byte[] content = PackedRefsWriter.without(packed, deleted, this.store.options.objects());
		if (content != null) {
			this.packedNew = this.store.packedFile().resolveSibling("packed-refs.new");
			Files.write(this.packedNew, content);
		}
	}

	/** Commit: reflogs, renames, packed-refs, unlinks, in git's order. */
	private void applyWork() throws IOException {
		PersonIdent who = (this.committer != null) ? this.committer : this.store.options.committer().get();
		for (Work item : this.work.values()) {
			writeLogs(item, who);
			if (item.write) {
				item.lock.commit();
			}
		}
		for (Work item : this.work.values()) {
			if (item.delete) {
				Path log = this.store.logPath(item.name);
				if (LockFile.deleteIfExists(log)) {
					FilesRefStore.removeEmptyParents(logsRoot(item.name), log);
				}
			}
		}
		if (this.packedNew != null) {
			Files.move(this.packedNew, this.store.packedFile(), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
					java.nio.file.StandardCopyOption.REPLACE_EXISTING);
			this.packedNew = null;
		}
		for (Work item : this.work.values()) {
			if (item.delete) {
				Path path = this.store.refPath(item.name);
				deleteLoose(path);
				item.lock.rollback();
				FilesRefStore.removeEmptyParents(refsRoot(item.name), path);
			}
		}
	}

	private static void deleteLoose(Path path) throws IOException {
		try {
			Files.deleteIfExists(path);
		}
		catch (FileSystemException ex) {
			if (!Files.isDirectory(path)) {
				throw ex;
			}
		}
	}

	private Path refsRoot(String name) {
		return this.store.base(name);
	}

	private Path logsRoot(String name) {
		return this.store.base(name).resolve("logs");
	}

	private void writeLogs(Work item, PersonIdent who) throws IOException {
		RefUpdate update = item.update;
		String text = (update.message() != null) ? update.message() : this.message;
		ObjectId zero = this.store.hashAlgorithm().zeroId();
		ObjectId oldId = resolvedId(item.old);
		ObjectId newId;
		if (update.type() == RefUpdate.Type.VERIFY || (update.isDelete() && item.old == null)) {
			return;
		}
		if (update.type() == RefUpdate.Type.SYMREF) {
			newId = resolvedId(this.store.readRef(update.newTarget()));
			if (newId == null) {
				return;
			}
		}
		else {
			newId = update.isDelete() ? zero : update.newId();
		}
		ReflogEntry entry = new ReflogEntry((oldId != null) ? oldId : zero, newId, who, (text != null) ? text : "");
		if (item.write) {
			FilesReflog.append(this.store.logPath(item.name), entry,
					this.store.options.reflogPolicy().createsLogFor(item.name));
		}
		for (String symref : item.logOnly) {
			FilesReflog.append(this.store.logPath(symref), entry,
					this.store.options.reflogPolicy().createsLogFor(symref));
		}
	}

	private ObjectId resolvedId(Ref ref) throws IOException {
		int depth = 0;
		while (ref instanceof SymbolicRef symbolic && depth++ < RefStore.MAX_SYMREF_DEPTH) {
			ref = this.store.readRef(symbolic.target());
		}
		return (ref instanceof DirectRef direct) ? direct.id() : null;
	}

	/** Bytewise order of the UTF-8 names, git's order. */
	static int compareNames(String a, String b) {
		return java.util.Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
	}

	/** One locked ref. */
	private static final class Work {

		final RefUpdate update;

		final String name;

		final List<String> logOnly = new ArrayList<>(1);

		LockFile lock;

		Ref old;

		Ref newRef;

		boolean write;

		boolean delete;

		Rejection rejection;

		Work(RefUpdate update, String name) {
			this.update = update;
			this.name = name;
		}

	}

}
