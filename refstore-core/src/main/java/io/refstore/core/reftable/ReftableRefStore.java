package io.refstore.core.reftable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.refstore.core.io.LockFile;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.StoreStatistics;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.ref.Verification;
import io.refstore.core.ref.WorktreeRef;
import io.refstore.core.reftable.format.LogRecord;
import io.refstore.core.reftable.format.MergedTable;
import io.refstore.core.reftable.format.RecordCursor;
import io.refstore.core.reftable.format.RefLookup;
import io.refstore.core.reftable.format.RefRecord;
import io.refstore.core.reftable.format.ReftableRefCursor;

/**
 * The reftable backend: refs and reflogs in the table stack under {@code reftable/}, read
 * through a merged view of the tables and written one table per transaction, with git's
 * locks and compaction.
 *
 * <p>
 * In a linked worktree, as in git, the worktree's own refs ({@link WorktreeRef}: its
 * {@code HEAD}, {@code refs/bisect/*}, ...) live in a stack of their own in the
 * worktree's git directory and the shared ones in the common directory's: reads and
 * listings merge the two, a transaction adds a table to each stack it changes. Another
 * worktree's stack is reached through {@code worktrees/<name>/<ref>}, the main one's
 * through {@code main-worktree/<ref>}.
 *
 * <p>
 * Thread-safe. Every read takes a snapshot of the stack, reloaded when another process
 * changed it.
 */
public final class ReftableRefStore implements RefStore {

	final ReftableOptions options;

	/** The common directory's stack: every shared ref, and the main worktree's own. */
	final ReftableStack stack;

	/**
	 * The current linked worktree's stack of its own refs, or {@code null} in the main
	 * worktree (or a store outside a repository).
	 */
	private final ReftableStack worktreeStack;

	/** Other worktrees' stacks, opened when a name first reaches them. */
	private final Map<String, ReftableStack> otherStacks = new ConcurrentHashMap<>();

	private ReftableRefStore(ReftableOptions options, ReftableStack stack, ReftableStack worktreeStack) {
		this.options = options;
		this.stack = stack;
		this.worktreeStack = worktreeStack;
	}

	/**
	 * Opens the stack in {@code options.stackDir()}.
	 * @throws io.refstore.core.ref.CorruptRefStoreException if a listed table is missing
	 * or damaged
	 */
	public static ReftableRefStore open(ReftableOptions options) throws IOException {
		HashAlgorithm hash = options.stack().writeOptions().hash();
		ReftableStack stack = ReftableStack.open(options.stackDir(), hash, options.stack());
		Path own = options.gitDir().resolve("reftable");
		if (own.equals(options.stackDir())) {
			return new ReftableRefStore(options, stack, null);
		}
		try {
			return new ReftableRefStore(options, stack, ReftableStack.open(own, hash, options.stack()));
		}
		catch (IOException | RuntimeException ex) {
			stack.close();
			throw ex;
		}
	}

	/**
	 * Where a ref lives: the stack that holds it and its name there.
	 */
	record Place(ReftableStack stack, String name) {

	}

	/**
	 * The stack a full ref name belongs to ({@code worktrees/<name>/} and
	 * {@code main-worktree/} resolved), as git's reftable backend routes it.
	 */
	Place place(String name) throws IOException {
		WorktreeRef ref = WorktreeRef.parse(name);
		return switch (ref.scope()) {
			case SHARED, MAIN -> new Place(this.stack, ref.name());
			case CURRENT -> new Place(ownStack(), ref.name());
			case OTHER -> new Place(otherStack(ref.worktree()), ref.name());
		};
	}

	private ReftableStack otherStack(String worktree) throws IOException {
		ReftableStack open = this.otherStacks.get(worktree);
		if (open != null) {
			return open;
		}
		Path dir = this.options.stackDir().getParent().resolve("worktrees").resolve(worktree).resolve("reftable");
		if (this.worktreeStack != null && dir.equals(this.worktreeStack.dir())) {
			return this.worktreeStack;
		}
		synchronized (this.otherStacks) {
			open = this.otherStacks.get(worktree);
			if (open == null) {
				open = ReftableStack.open(dir, hashAlgorithm(), this.options.stack());
				this.otherStacks.put(worktree, open);
			}
			return open;
		}
	}

	/** Whether this store sees a linked worktree's refs beside the shared ones. */
	boolean inLinkedWorktree() {
		return this.worktreeStack != null;
	}

	/**
	 * The stack of this worktree's own refs: the linked worktree's, else the common one;
	 * the one {@code pack-refs} compacts here, as git's does.
	 */
	private ReftableStack ownStack() {
		return (this.worktreeStack != null) ? this.worktreeStack : this.stack;
	}

	@Override
	public RefFormat format() {
		return RefFormat.REFTABLE;
	}

	@Override
	public HashAlgorithm hashAlgorithm() {
		return this.stack.hashAlgorithm();
	}

	/** The stack itself, for maintenance (compaction) and inspection. */
	ReftableStack stack() {
		return this.stack;
	}

	@Override
	public Optional<Ref> exactRef(String name) throws IOException {
		if (!RefName.isValid(name, true)) {
			return Optional.empty();
		}
		if (RefName.isPseudoRef(name)) {
			return Optional.ofNullable(readPseudoRef(name));
		}
		Place place = place(name);
		try (ReftableStack.Snapshot snapshot = place.stack().snapshot()) {
			return Optional.ofNullable(named(read(snapshot, place.name()), name));
		}
	}

	/** One snapshot per stack for the whole batch, not one per name. */
	@Override
	public Map<String, Ref> exactRefs(Collection<String> names) throws IOException {
		Map<String, Ref> found = new HashMap<>();
		Map<ReftableStack, ReftableStack.Snapshot> snapshots = new HashMap<>();
		Map<ReftableStack, RefLookup> lookups = new HashMap<>();
		try {
			for (String name : names) {
				Ref ref;
				if (!RefName.isValid(name, true) || RefName.isPseudoRef(name)) {
					ref = exactRef(name).orElse(null);
				}
				else {
					Place place = place(name);
					RefLookup lookup = lookups.get(place.stack());
					if (lookup == null) {
						ReftableStack.Snapshot snapshot = place.stack().snapshot();
						snapshots.put(place.stack(), snapshot);
						lookup = new MergedTable(snapshot.readers()).lookup();
						lookups.put(place.stack(), lookup);
					}
					ref = named(read(lookup, place.name()), name);
				}
				if (ref != null) {
					found.put(name, ref);
				}
			}
		}
		finally {
			lookups.values().forEach(RefLookup::close);
			for (ReftableStack.Snapshot snapshot : snapshots.values()) {
				snapshot.close();
			}
		}
		return found;
	}

	/**
	 * {@code ref} under the name it was asked for ({@code main-worktree/HEAD} for the
	 * main stack's {@code HEAD}); {@code null} stays {@code null}.
	 */
	static Ref named(Ref ref, String name) {
		if (ref == null || ref.name().equals(name)) {
			return ref;
		}
		if (ref instanceof DirectRef direct) {
			return new DirectRef(name, direct.id(), direct.peeled());
		}
		return new SymbolicRef(name, ((SymbolicRef) ref).target());
	}

	/** Reads a ref from a snapshot; {@code null} if it does not exist. */
	Ref read(ReftableStack.Snapshot snapshot, String name) throws IOException {
		return read(new MergedTable(snapshot.readers()), name);
	}

	/**
	 * Reads a ref from a merged view of a snapshot; {@code null} if it does not exist.
	 */
	Ref read(MergedTable merged, String name) throws IOException {
		RefRecord record = merged.exactRef(name);
		return (record != null) ? record.toRef(hashAlgorithm()) : null;
	}

	/** Reads a ref through a lookup; {@code null} if it does not exist. */
	Ref read(RefLookup lookup, String name) throws IOException {
		RefRecord record = lookup.exactRef(name);
		return (record != null) ? record.toRef(hashAlgorithm()) : null;
	}

	Ref readPseudoRef(String name) throws IOException {
		byte[] content;
		try {
			content = Files.readAllBytes(this.options.gitDir().resolve(name));
		}
		catch (NoSuchFileException ex) {
			return null;
		}
		String text = new String(content, StandardCharsets.UTF_8);
		int end = Math.min(text.length(), hashAlgorithm().hexLength());
		ObjectId id = ObjectId.tryParse(hashAlgorithm(), text.substring(0, end));
		return (id != null) ? new DirectRef(name, id) : null;
	}

	@Override
	public RefCursor refs(RefQuery query) throws IOException {
		if (this.worktreeStack == null) {
			return refs(this.stack, query);
		}
		RefCursor shared = refs(this.stack, query);
		try {
			return new WorktreeCursor(shared, refs(this.worktreeStack, query));
		}
		catch (IOException | RuntimeException ex) {
			shared.close();
			throw ex;
		}
	}

	private RefCursor refs(ReftableStack stack, RefQuery query) throws IOException {
		ReftableStack.Snapshot snapshot = stack.snapshot();
		try {
			byte[] prefix = query.prefix().getBytes(StandardCharsets.UTF_8);
			byte[] after = query.startAfter().getBytes(StandardCharsets.UTF_8);
			byte[] seek = (java.util.Arrays.compareUnsigned(prefix, after) >= 0) ? prefix : after;
			MergedTable merged = new MergedTable(snapshot.readers());
			return new StoreCursor(new ReftableRefCursor(merged.refs(prefix, seek), hashAlgorithm()), snapshot, after,
					query.includeRootRefs());
		}
		catch (IOException | RuntimeException ex) {
			snapshot.close();
			throw ex;
		}
	}

	@Override
	public RefTransaction newTransaction() {
		return new ReftableTransaction(this);
	}

	@Override
	public List<ReflogEntry> reflog(String name) throws IOException {
		List<ReflogEntry> entries = new ArrayList<>();
		Place place = place(name);
		try (ReftableStack.Snapshot snapshot = place.stack().snapshot();
				RecordCursor<LogRecord> logs = new MergedTable(snapshot.readers()).logsFor(place.name())) {
			while (logs.next()) {
				LogRecord log = logs.record();
				if (!log.isExistenceMarker()) {
					entries.add(log.toEntry(hashAlgorithm()));
				}
			}
		}
		Collections.reverse(entries);
		return entries;
	}

	@Override
	public List<String> reflogNames() throws IOException {
		if (this.worktreeStack == null) {
			return reflogNames(this.stack);
		}
		List<String> names = new ArrayList<>();
		for (String name : reflogNames(this.stack)) {
			if (!WorktreeRef.isPerWorktree(name)) {
				names.add(name);
			}
		}
		for (String name : reflogNames(this.worktreeStack)) {
			if (WorktreeRef.isPerWorktree(name)) {
				names.add(name);
			}
		}
		names.sort(ReftableRefStore::compareNames);
		return names;
	}

	private static int compareNames(String a, String b) {
		return java.util.Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * One pass over the stack's logs, which are ordered by name and each ref's newest
	 * first, where a linked worktree's store does not merge two stacks.
	 */
	@Override
	public void forEachReflog(ReflogVisitor visitor) throws IOException {
		if (this.worktreeStack != null) {
			RefStore.super.forEachReflog(visitor);
			return;
		}
		try (ReftableStack.Snapshot snapshot = this.stack.snapshot();
				RecordCursor<LogRecord> logs = new MergedTable(snapshot.readers()).allLogs(false)) {
			String name = null;
			List<ReflogEntry> entries = new ArrayList<>();
			while (logs.next()) {
				LogRecord log = logs.record();
				if (name == null || !name.equals(log.refName())) {
					if (name != null) {
						Collections.reverse(entries);
						visitor.accept(name, entries);
						entries = new ArrayList<>();
					}
					name = log.refName();
				}
				if (!log.isExistenceMarker()) {
					entries.add(log.toEntry(hashAlgorithm()));
				}
			}
			if (name != null) {
				Collections.reverse(entries);
				visitor.accept(name, entries);
			}
		}
	}

	/**
	 * The one pass of {@link #forEachReflog(ReflogVisitor)}, each log handed on if its
	 * name is among {@code names} (both in bytewise order), a name without a log with no
	 * entries.
	 */
	@Override
	public void forEachReflog(List<String> names, ReflogVisitor visitor) throws IOException {
		if (this.worktreeStack != null) {
			RefStore.super.forEachReflog(names, visitor);
			return;
		}
		int[] next = { 0 };
		forEachReflog((name, entries) -> {
			while (next[0] < names.size() && compareNames(names.get(next[0]), name) < 0) {
				visitor.accept(names.get(next[0]++), List.of());
			}
			if (next[0] < names.size() && names.get(next[0]).equals(name)) {
				visitor.accept(names.get(next[0]++), entries);
			}
		});
		while (next[0] < names.size()) {
			visitor.accept(names.get(next[0]++), List.of());
		}
	}

	private List<String> reflogNames(ReftableStack stack) throws IOException {
		List<String> names = new ArrayList<>();
		try (ReftableStack.Snapshot snapshot = stack.snapshot();
				RecordCursor<LogRecord> logs = new MergedTable(snapshot.readers()).allLogs(false)) {
			byte[] last = null;
			int lastLength = 0;
			while (logs.next()) {
				LogRecord log = logs.record();
				if (last == null
						|| !java.util.Arrays.equals(last, 0, lastLength, log.refNameBuffer(), 0, log.refNameLength())) {
					names.add(log.refName());
					last = java.util.Arrays.copyOf(log.refNameBuffer(), log.refNameLength());
					lastLength = log.refNameLength();
				}
			}
		}
		return names;
	}

	@Override
	public boolean hasReflog(String name) throws IOException {
		Place place = place(name);
		try (ReftableStack.Snapshot snapshot = place.stack().snapshot()) {
			return hasReflog(snapshot, place.name());
		}
	}

	/** One snapshot per stack for the whole batch, not one per name. */
	@Override
	public Set<String> withReflogs(Collection<String> names) throws IOException {
		Set<String> found = new HashSet<>();
		Map<ReftableStack, ReftableStack.Snapshot> snapshots = new HashMap<>();
		Map<ReftableStack, RefLookup> lookups = new HashMap<>();
		try {
			for (String name : names) {
				Place place = place(name);
				RefLookup lookup = lookups.get(place.stack());
				if (lookup == null) {
					ReftableStack.Snapshot snapshot = place.stack().snapshot();
					snapshots.put(place.stack(), snapshot);
					lookup = new MergedTable(snapshot.readers()).lookup();
					lookups.put(place.stack(), lookup);
				}
				if (lookup.hasLog(place.name())) {
					found.add(name);
				}
			}
		}
		finally {
			lookups.values().forEach(RefLookup::close);
			for (ReftableStack.Snapshot snapshot : snapshots.values()) {
				snapshot.close();
			}
		}
		return found;
	}

	boolean hasReflog(ReftableStack.Snapshot snapshot, String name) throws IOException {
		try (RecordCursor<LogRecord> logs = new MergedTable(snapshot.readers()).logsFor(name)) {
			return logs.next();
		}
	}

	/**
	 * Update indices of every live log entry of {@code name} (the existence marker
	 * included).
	 */
	List<Long> logIndices(ReftableStack.Snapshot snapshot, String name) throws IOException {
		List<Long> indices = new ArrayList<>();
		try (RecordCursor<LogRecord> logs = new MergedTable(snapshot.readers()).logsFor(name)) {
			while (logs.next()) {
				indices.add(logs.record().updateIndex());
			}
		}
		return indices;
	}

	@Override
	public void appendReflog(String name, ReflogEntry entry) throws IOException {
		RefName.check(name, true);
		int maxMessage = this.options.stack().writeOptions().maxLogMessage();
		Place place = place(name);
		try (ReftableStack.Addition addition = place.stack().newAddition()) {
			long index = addition.updateIndex();
			addition.write((writer) -> {
				writer.addLog(LogRecord.of(place.name(), index, entry).truncateMessage(maxMessage));
				return true;
			});
			addition.commit();
		}
	}

	/**
	 * One table per stack: the entries of a ref at consecutive update indices, oldest
	 * lowest, so the table spans as many indices as the longest list. With {@code force},
	 * the table, {@code tables.list} and the directory are forced, as for a forced
	 * transaction.
	 */
	@Override
	public void appendReflogs(Map<String, List<ReflogEntry>> logs, boolean force) throws IOException {
		Map<ReftableStack, Map<String, List<ReflogEntry>>> byStack = new LinkedHashMap<>();
		for (Map.Entry<String, List<ReflogEntry>> log : logs.entrySet()) {
			RefName.check(log.getKey(), true);
			if (!log.getValue().isEmpty()) {
				Place place = place(log.getKey());
				byStack.computeIfAbsent(place.stack(), (stack) -> new LinkedHashMap<>())
					.put(place.name(), log.getValue());
			}
		}
		int maxMessage = this.options.stack().writeOptions().maxLogMessage();
		for (Map.Entry<ReftableStack, Map<String, List<ReflogEntry>>> stack : byStack.entrySet()) {
			try (ReftableStack.Addition addition = stack.getKey().newAddition(force)) {
				long first = addition.updateIndex();
				List<LogRecord> records = new ArrayList<>();
				int longest = 0;
				for (Map.Entry<String, List<ReflogEntry>> log : stack.getValue().entrySet()) {
					List<ReflogEntry> entries = log.getValue();
					for (int i = 0; i < entries.size(); i++) {
						records.add(LogRecord.of(log.getKey(), first + i, entries.get(i)).truncateMessage(maxMessage));
					}
					longest = Math.max(longest, entries.size());
				}
				// by name, then newest first: the order of log keys
				records.sort(LogRecord::compareKeys);
				addition.write(first + longest - 1, (writer) -> {
					for (LogRecord record : records) {
						writer.addLog(record);
					}
					return true;
				});
				addition.commit();
			}
		}
	}

	@Override
	public Bulk bulk() throws IOException {
		return this.stack.deferCompaction();
	}

	@Override
	public void packRefs(PackOptions options) throws IOException {
		if (options.auto()) {
			ownStack().autoCompact();
		}
		else {
			ownStack().compactAll();
		}
	}

	@Override
	public StoreStatistics statistics() throws IOException {
		return this.stack.statistics();
	}

	/**
	 * The bytes of {@code tables.list}: every write adds a table and rewrites the list.
	 */
	@Override
	public String fingerprint() throws IOException {
		Path list = this.options.stackDir().resolve(ReftableStack.TABLES_LIST);
		try {
			return java.util.HexFormat.of().formatHex(Files.readAllBytes(list));
		}
		catch (NoSuchFileException ex) {
			return "";
		}
	}

	@Override
	public java.io.Closeable lockStore(java.time.Duration timeout, Path ownerFile) throws IOException {
		LockFile lock = LockFile.acquireLinked(this.options.stackDir().resolve(ReftableStack.TABLES_LIST), timeout,
				ownerFile);
		return lock::rollback;
	}

	@Override
	public int breakLocks(String owner) throws IOException {
		Path lock = this.options.stackDir().resolve(ReftableStack.TABLES_LIST + ".lock");
		return LockFile.deleteIfOwned(lock, owner.getBytes(StandardCharsets.UTF_8)) ? 1 : 0;
	}

	@Override
	public void verify(Verification verification) throws IOException {
		new ReftableVerifier(this, verification).verify();
	}

	@Override
	public void close() {
		this.stack.close();
		if (this.worktreeStack != null) {
			this.worktreeStack.close();
		}
		for (ReftableStack other : this.otherStacks.values()) {
			other.close();
		}
	}

	/**
	 * A ref cursor over one snapshot: skips the start-after name itself and names outside
	 * {@code refs/} (root refs only when asked for), and releases the snapshot when
	 * closed.
	 */
	private static final class StoreCursor extends ForwardingCursor {

		private final RefCursor delegate;

		private final ReftableStack.Snapshot snapshot;

		private final byte[] after;

		private final boolean rootRefs;

		StoreCursor(RefCursor delegate, ReftableStack.Snapshot snapshot, byte[] after, boolean rootRefs) {
			this.delegate = delegate;
			this.snapshot = snapshot;
			this.after = after;
			this.rootRefs = rootRefs;
		}

		@Override
		public boolean next() throws IOException {
			while (this.delegate.next()) {
				byte[] name = this.delegate.nameBuffer();
				int length = this.delegate.nameLength();
				if (this.after.length > 0
						&& java.util.Arrays.equals(name, 0, length, this.after, 0, this.after.length)) {
					continue;
				}
				if (length > 5 && name[0] == 'r' && name[1] == 'e' && name[2] == 'f' && name[3] == 's'
						&& name[4] == '/') {
					return true;
				}
				if (this.rootRefs && RefName.isRootRef(this.delegate.name())) {
					return true;
				}
			}
			return false;
		}

		@Override
		protected RefCursor current() {
			return this.delegate;
		}

		@Override
		public void close() throws IOException {
			try {
				this.delegate.close();
			}
			finally {
				this.snapshot.close();
			}
		}

	}

}
