package io.refstore.core.ref;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The refs of one repository in one storage format. Both backends ({@code files} and
 * {@code reftable}) implement this contract identically, so callers never care which one
 * they hold.
 *
 * <p>
 * Implementations are safe for use by several threads; each cursor and transaction
 * belongs to one thread. Concurrent git processes are expected: every read sees a
 * consistent state and every write takes git's locks.
 */
public interface RefStore extends Closeable {

	/** Maximum depth of symbolic refs followed by {@link #resolve(String)}, as in git. */
	int MAX_SYMREF_DEPTH = 5;

	/** The storage format. */
	RefFormat format();

	/** The object hash of the repository. */
	HashAlgorithm hashAlgorithm();

	/**
	 * Looks up one ref by its exact name, without following symbolic refs.
	 * @param name a full name such as {@code refs/heads/main}, or a root ref such as
	 * {@code HEAD}
	 * @return the ref, or empty if it does not exist
	 * @throws IOException if the store cannot be read
	 */
	Optional<Ref> exactRef(String name) throws IOException;

	/**
	 * Looks up many refs by their exact names, as {@link #exactRef} would one by one, but
	 * from one reading of the store where it can (reftable: one snapshot of the stack,
	 * where each lookup alone checks {@code tables.list} again). The refs may come from
	 * an older state than the next {@code exactRef} sees: a writer that must not race
	 * checks again under its lock, as a transaction does.
	 * @param names full names, as for {@link #exactRef}
	 * @return the refs that exist, by the names asked for
	 * @throws IOException if the store cannot be read
	 */
	default Map<String, Ref> exactRefs(Collection<String> names) throws IOException {
		Map<String, Ref> found = new HashMap<>();
		for (String name : names) {
			Optional<Ref> ref = exactRef(name);
			if (ref.isPresent()) {
				found.put(name, ref.get());
			}
		}
		return found;
	}

	/**
	 * Looks up a ref and follows symbolic refs to the ref that holds an object id.
	 * @param name the name to start from
	 * @return the final direct ref (carrying the final name), or empty if the chain ends
	 * at a ref that does not exist (an unborn branch) or is longer than
	 * {@link #MAX_SYMREF_DEPTH}
	 * @throws IOException if the store cannot be read
	 */
	default Optional<DirectRef> resolve(String name) throws IOException {
		String current = name;
		for (int depth = 0; depth <= MAX_SYMREF_DEPTH; depth++) {
			Optional<Ref> ref = exactRef(current);
			if (ref.isEmpty()) {
				return Optional.empty();
			}
			if (ref.get() instanceof DirectRef direct) {
				return Optional.of(direct);
			}
			current = ((SymbolicRef) ref.get()).target();
		}
		return Optional.empty();
	}

	/**
	 * Iterates refs in bytewise name order.
	 * @param query prefix, seek-after cursor and whether root refs come too
	 * @return a cursor the caller must close
	 * @throws IOException if the store cannot be read
	 */
	RefCursor refs(RefQuery query) throws IOException;

	/** Starts a transaction. */
	RefTransaction newTransaction();

	/**
	 * Reads a ref's log, oldest entry first.
	 * @param name the ref
	 * @return the entries; empty if the ref has no log
	 * @throws IOException if the log cannot be read
	 */
	List<ReflogEntry> reflog(String name) throws IOException;

	/**
	 * Names of every ref that has a log (root refs such as {@code HEAD} included), in
	 * bytewise order.
	 * @throws IOException if the logs cannot be listed
	 */
	List<String> reflogNames() throws IOException;

	/** Whether the ref has a log (possibly without entries). */
	boolean hasReflog(String name) throws IOException;

	/** What {@link #forEachReflog} hands each log to. */
	@FunctionalInterface
	interface ReflogVisitor {

		/** One ref's log, oldest entry first (empty if it has none). */
		void accept(String name, List<ReflogEntry> entries) throws IOException;

	}

	/**
	 * Reads every log: what {@link #reflog} gives for each name of {@link #reflogNames},
	 * in that order. A store that can read them in one pass does (a reftable stack reads
	 * its log blocks once instead of seeking each ref's).
	 * @throws IOException if a log cannot be read
	 */
	default void forEachReflog(ReflogVisitor visitor) throws IOException {
		forEachReflog(reflogNames(), visitor);
	}

	/**
	 * Reads the logs of {@code names}: what {@link #reflog} gives for each, in that
	 * order, as fast as {@link #forEachReflog(ReflogVisitor)} reads them all. For a
	 * caller that listed the names already (to count them first, or from a walk it made
	 * anyway), so that a files store is not walked again.
	 * @param names names in bytewise order, as {@link #reflogNames} gives them
	 * @throws IOException if a log cannot be read
	 */
	default void forEachReflog(List<String> names, ReflogVisitor visitor) throws IOException {
		for (String name : names) {
			visitor.accept(name, reflog(name));
		}
	}

	/**
	 * Which of the refs have a log, as {@link #hasReflog} would tell one by one, but from
	 * one reading of the store where it can (reftable: one snapshot of the stack).
	 * @param names full names
	 * @return those of {@code names} that have a log
	 * @throws IOException if the logs cannot be read
	 */
	default Set<String> withReflogs(Collection<String> names) throws IOException {
		Set<String> found = new HashSet<>();
		for (String name : names) {
			if (hasReflog(name)) {
				found.add(name);
			}
		}
		return found;
	}

	/**
	 * Appends an entry to a ref's log, creating the log if needed, without changing the
	 * ref.
	 * @throws IOException if the log cannot be written (for example because the ref is
	 * locked)
	 */
	void appendReflog(String name, ReflogEntry entry) throws IOException;

	/**
	 * Appends entries to the logs of several refs, creating the logs as needed, without
	 * changing the refs: as {@link #appendReflog} for each entry in order, in fewer
	 * writes (one table for reftable). With {@code force}, every log it wrote reaches the
	 * disk before this returns, whatever {@code core.fsync} says, names and directories
	 * included: for entries that a record elsewhere promises (a restore reporting a chunk
	 * back). Not atomic: a failure may leave some of the logs appended.
	 * @param logs per ref name, the entries to append, oldest first
	 * @throws IOException if a log cannot be written or forced
	 */
	void appendReflogs(Map<String, List<ReflogEntry>> logs, boolean force) throws IOException;

	/**
	 * Packs refs: {@code git pack-refs} for files, a full compaction of the stack for
	 * reftable.
	 * @param options what to pack
	 * @throws IOException if packing fails; no ref is lost
	 */
	void packRefs(PackOptions options) throws IOException;

	/**
	 * Takes the locks that stop every writer of the store, git's included:
	 * {@code tables.list.lock} for reftable; {@code packed-refs.lock} and the lock of
	 * every existing loose ref for files (a writer creating a new loose ref is not
	 * stopped: callers that must see every write re-read after locking). Each lock file
	 * is a hard link of {@code ownerFile}, so it names its owner from the instant it
	 * exists, and {@link #breakLocks} can later remove the locks of an owner that died
	 * holding them.
	 * @param timeout how long to wait for each lock
	 * @param ownerFile a file on the repository's file system whose text names the holder
	 * (a process id and start time)
	 * @return the held locks; closing releases them
	 * @throws io.refstore.core.io.LockFailedException naming a lock another process holds
	 */
	java.io.Closeable lockStore(java.time.Duration timeout, java.nio.file.Path ownerFile) throws IOException;

	/**
	 * Keeps every other writer of the repository out, in every process, until the
	 * returned hold is closed by the same thread, whose own writes pass meanwhile: a bulk
	 * run's chunk, so that other writers wait for it (briefly, bounded) rather than meet
	 * its locks, and readers see none of it or all of it. Writers already inside finish
	 * first. A store no other writer shares has no one to keep out.
	 * @return the hold; closing it lets writers in again
	 * @throws IOException if writers stay inside, or a swap holds the repository, longer
	 * than writers wait
	 */
	default Hold exclusive() throws IOException {
		return () -> {
		};
	}

	/**
	 * Marks a bulk run of transactions (a deletion's or a restore's chunks): the upkeep
	 * the store does after each write (a reftable stack's geometric compaction) is done
	 * once over the whole store, when the returned bulk is closed; after each chunk it
	 * covers only what was written since the bulk began (a reftable stack compacts the
	 * tables added since among themselves). Nothing is less durable: each transaction is
	 * committed as before.
	 * @return the bulk; closing it does the upkeep left out
	 * @throws IOException if the store cannot be read
	 */
	default Bulk bulk() throws IOException {
		return () -> {
		};
	}

	/** What {@link #bulk} marks. */
	@FunctionalInterface
	interface Bulk extends AutoCloseable {

		@Override
		void close() throws IOException;

	}

	/** What {@link #exclusive} holds. */
	@FunctionalInterface
	interface Hold extends AutoCloseable {

		@Override
		void close();

	}

	/**
	 * Removes the lock files {@link #lockStore} left when its owner died: only files
	 * holding exactly {@code owner}, never a lock of git or of anyone else.
	 * @return how many locks were removed
	 */
	int breakLocks(String owner) throws IOException;

	/**
	 * Checks the store as git 2.55's {@code refs verify} does (names, file types and
	 * contents, symbolic targets, {@code packed-refs}' lines and order, table names, in
	 * every worktree), then refstore's deeper checks if the verification asks for them
	 * (every value names an object that exists, peeled values, every block of every
	 * table). Reads everything; changes nothing.
	 * @param verification where the findings go and how they count
	 * @throws IOException if the store cannot be read at all
	 */
	void verify(Verification verification) throws IOException;

	/**
	 * Every finding of git's checks and refstore's deeper ones, with git's default
	 * severities.
	 * @return every problem found, errors and warnings, in the order found; empty if the
	 * store is sound
	 * @throws IOException if the store cannot be read at all
	 */
	default List<VerifyProblem> verify() throws IOException {
		List<VerifyProblem> problems = new ArrayList<>();
		verify(Verification.of(problems::add, true));
		return problems;
	}

	/**
	 * Counts what the store holds on disk and tells whether maintenance is due by git's
	 * heuristics; reads directories and file sizes, not every ref.
	 * @throws IOException if the store cannot be read
	 */
	StoreStatistics statistics() throws IOException;

	/**
	 * A cheap token of the store's state on disk (file identities, not contents): a write
	 * of any ref or reflog, by refstore or git, changes it, so equal tokens taken at two
	 * moments mean nothing was written in between. Maintenance that rewrites files
	 * (packing, compaction) changes it too without changing a ref.
	 * @throws IOException if the store cannot be read
	 */
	String fingerprint() throws IOException;

	/**
	 * Options of {@link #packRefs(PackOptions)}.
	 *
	 * @param all pack every ref, not only tags and refs that are already packed
	 * ({@code --all})
	 * @param prune remove loose refs once they are packed ({@code --no-prune} turns it
	 * off)
	 * @param auto only if {@link #statistics()} says maintenance is due, and for reftable
	 * only the tables git's geometric rule picks instead of the whole stack
	 * ({@code --auto})
	 * @param includes globs of loose refs to pack besides tags ({@code --include}; given
	 * any, tags are packed only if one matches); the files format only
	 * @param excludes globs of loose refs never to pack ({@code --exclude}), over
	 * {@code all} and {@code includes}; the files format only
	 */
	record PackOptions(boolean all, boolean prune, boolean auto, List<String> includes, List<String> excludes) {

		/** git's default: tags and already-packed refs, pruned. */
		public static final PackOptions DEFAULT = new PackOptions(false, true);

		/** Options without {@code --auto}. */
		public PackOptions(boolean all, boolean prune) {
			this(all, prune, false);
		}

		/** Options without {@code --include} or {@code --exclude}. */
		public PackOptions(boolean all, boolean prune, boolean auto) {
			this(all, prune, auto, List.of(), List.of());
		}

		public PackOptions {
			includes = List.copyOf(includes);
			excludes = List.copyOf(excludes);
		}

		/** Whether a loose ref of this name is one to pack (before its value is read). */
		public boolean selects(String name) {
			byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
			for (String exclude : this.excludes) {
				if (Wildmatch.matches(exclude.getBytes(StandardCharsets.UTF_8), bytes, bytes.length)) {
					return false;
				}
			}
			if (this.all) {
				return true;
			}
			if (this.includes.isEmpty()) {
				return name.startsWith("refs/tags/");
			}
			for (String include : this.includes) {
				if (Wildmatch.matches(include.getBytes(StandardCharsets.UTF_8), bytes, bytes.length)) {
					return true;
				}
			}
			return false;
		}

	}

}
