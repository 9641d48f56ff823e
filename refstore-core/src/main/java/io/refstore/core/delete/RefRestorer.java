package io.refstore.core.delete;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.refstore.core.delete.Manifest.ChunkState;
import io.refstore.core.delete.ManifestReader.Chunk;
import io.refstore.core.delete.ManifestReader.SavedRef;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.Rejection;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.ref.UpdateResult;

/**
 * Puts back what a {@link RefDeleter} run deleted, from its {@link Manifest}: the refs of
 * every chunk that committed (or may have), with their values, symbolic refs as symbolic
 * refs, and their reflog entries.
 *
 * <ol>
 * <li>Check: read the whole manifest once and look up every ref to restore. If one exists
 * with another value (or kind), refuse with a conflict naming it, before changing
 * anything.</li>
 * <li>Per chunk: one transaction creating the chunk's missing refs, each expected not to
 * exist (so a ref created meanwhile fails the chunk instead of being overwritten); then
 * append each recreated ref's saved reflog entries, oldest first. Both are forced to the
 * disk, directories included, whatever {@code core.fsync} says, before the chunk is
 * reported back: the refs before their logs, so a log never comes back without its
 * ref.</li>
 * </ol>
 * A restorer may be limited to some names of the manifest
 * ({@link #RefRestorer(RefStore, Set)}): one branch restored where the deletion left it,
 * the others left deleted; the steps are the same for those names, and the others are
 * neither checked nor written. A ref found with the manifest's value is left alone; if
 * its reflog is a beginning of the saved one (an earlier restore stopped while
 * appending), the rest is appended, so running a restore again is safe. A missing ref's
 * reflog that is a beginning of the saved one (a deletion killed after its commit left
 * it) is removed before the ref is recreated.
 *
 * <p>
 * For the reflogs to come back exactly, recreating a ref must not log an entry of its
 * own: open the store with
 * {@code RefStores.open(repository, ReflogPolicy.EXISTING_ONLY)}. A symbolic ref such as
 * {@code HEAD} that points at a restored branch does log the recreation, as git would. A
 * chunk's entries are appended together ({@link RefStore#appendReflogs}, one table with
 * reftable).
 *
 * <p>
 * Memory holds one chunk. Not thread-safe.
 */
public final class RefRestorer {

	/**
	 * The reflog message of the recreations (seen only in the logs of symbolic refs
	 * pointing at them).
	 */
	public static final String MESSAGE = "refstore restore-refs";

	private final RefStore store;

	/** The names to restore, or {@code null} for every ref of the manifest. */
	private final Set<String> names;

	/**
	 * @param store the refs to restore into, opened as described above; the caller keeps
	 * ownership
	 */
	public RefRestorer(RefStore store) {
		this(store, null);
	}

	/**
	 * A restorer of some refs of a manifest only.
	 * @param store the refs to restore into, opened as described above; the caller keeps
	 * ownership
	 * @param names the full names of the refs to restore (those the manifest does not
	 * hold are not restored); {@code null} for every ref of the manifest
	 */
	public RefRestorer(RefStore store, Set<String> names) {
		this.store = store;
		this.names = (names == null) ? null : Set.copyOf(names);
	}

	/** The refs of {@code chunk} this restorer restores. */
	private List<SavedRef> wanted(Chunk chunk) {
		if (this.names == null) {
			return chunk.refs();
		}
		return chunk.refs().stream().filter((saved) -> this.names.contains(saved.ref().name())).toList();
	}

	/**
	 * The refs a deletion deleted (or may have: its committed and in-doubt chunks), as
	 * the manifest saved them, whose names start with {@code prefix}: at most
	 * {@code limit}, in the manifest's order. For a person to pick what to restore; reads
	 * the manifest until it has them.
	 * @param manifest the manifest a deletion wrote
	 * @throws IOException if the manifest is malformed or of another hash
	 */
	public List<Ref> deletedRefs(Path manifest, String prefix, int limit) throws IOException {
		List<Ref> refs = new ArrayList<>();
		try (ManifestReader reader = open(manifest)) {
			for (Chunk chunk = reader.next(); chunk != null && refs.size() < limit; chunk = reader.next()) {
				if (mayBeDeleted(chunk)) {
					for (SavedRef saved : wanted(chunk)) {
						if (saved.ref().name().startsWith(prefix) && refs.size() < limit) {
							refs.add(saved.ref());
						}
					}
				}
			}
		}
		return refs;
	}

	/**
	 * Restores from a manifest.
	 * @param manifest the manifest a deletion wrote
	 * @param listener hears about each restored chunk
	 * @return the counts, or the conflict or failure that stopped the restore
	 * @throws IOException if the manifest is malformed or of another hash, or the store
	 * cannot be read
	 */
	public RestoreResult restore(Path manifest, ChunkListener listener) throws IOException {
		ChunkFailure conflict = check(manifest);
		if (conflict != null) {
			return new RestoreResult(0, 0, 0, 0, 0, conflict, null);
		}
		Counts counts = new Counts();
		try (ManifestReader reader = open(manifest); RefStore.Bulk bulk = this.store.bulk()) {
			for (Chunk chunk = reader.next(); chunk != null; chunk = reader.next()) {
				if (!mayBeDeleted(chunk)) {
					counts.skipped++;
					continue;
				}
				if (wanted(chunk).isEmpty()) {
					// none of the names asked for
					continue;
				}
				ChunkFailure failure = restoreChunk(chunk, counts, listener);
				if (failure != null) {
					return counts.result(failure);
				}
				counts.chunks++;
			}
		}
		return counts.result(null);
	}

	/**
	 * The refs {@link #restore} puts back from a manifest, or finds back already: those
	 * of the chunks that committed or may have. For a progress total; reads the manifest
	 * once.
	 * @param manifest the manifest a deletion wrote
	 * @return the count
	 * @throws IOException if the manifest is malformed or of another hash
	 */
	public long countRefs(Path manifest) throws IOException {
		long count = 0;
		try (ManifestReader reader = open(manifest)) {
			for (Chunk chunk = reader.next(); chunk != null; chunk = reader.next()) {
				if (mayBeDeleted(chunk)) {
					count += wanted(chunk).size();
				}
			}
		}
		return count;
	}

	private ManifestReader open(Path manifest) throws IOException {
		ManifestReader reader = ManifestReader.open(manifest);
		if (reader.hash() != this.store.hashAlgorithm()) {
			reader.close();
			throw new IOException(manifest + ": the manifest holds " + reader.hash().configName()
					+ " ids, but the repository uses " + this.store.hashAlgorithm().configName());
		}
		return reader;
	}

	private static boolean mayBeDeleted(Chunk chunk) {
		return chunk.state() == ChunkState.COMMITTED || chunk.state() == ChunkState.IN_DOUBT;
	}

	/**
	 * Step 1: the first ref to restore that exists with another value, as a conflict;
	 * {@code null} if none.
	 */
	private ChunkFailure check(Path manifest) throws IOException {
		try (ManifestReader reader = open(manifest)) {
			for (Chunk chunk = reader.next(); chunk != null; chunk = reader.next()) {
				if (mayBeDeleted(chunk)) {
					Map<String, Ref> current = currentRefs(chunk);
					for (SavedRef saved : wanted(chunk)) {
						ChunkFailure conflict = conflict(chunk.number(), saved.ref(),
								Optional.ofNullable(current.get(saved.ref().name())));
						if (conflict != null) {
							return conflict;
						}
					}
				}
			}
		}
		return null;
	}

	/**
	 * The chunk's refs that exist now, read together (one snapshot with reftable, not one
	 * per ref).
	 */
	private Map<String, Ref> currentRefs(Chunk chunk) throws IOException {
		List<SavedRef> refs = wanted(chunk);
		List<String> names = new ArrayList<>(refs.size());
		for (SavedRef saved : refs) {
			names.add(saved.ref().name());
		}
		return this.store.exactRefs(names);
	}

	/**
	 * A conflict if {@code saved}'s name exists ({@code current}) with another value;
	 * {@code null} if absent or equal.
	 */
	private static ChunkFailure conflict(int chunk, Ref saved, Optional<Ref> current) {
		if (current.isEmpty() || sameValue(current.get(), saved)) {
			return null;
		}
		return new ChunkFailure(chunk, saved.name(), Rejection.CREATE_EXISTS, "cannot restore '" + saved.name()
				+ "': it exists as " + describe(current.get()) + ", the manifest has " + describe(saved), false);
	}

	private static boolean sameValue(Ref a, Ref b) {
		if (a instanceof DirectRef x && b instanceof DirectRef y) {
			return x.id().equals(y.id());
		}
		return a instanceof SymbolicRef x && b instanceof SymbolicRef y && x.target().equals(y.target());
	}

	private static String describe(Ref ref) {
		return (ref instanceof DirectRef direct) ? direct.id().name()
				: "a symbolic ref to '" + ((SymbolicRef) ref).target() + "'";
	}

	/**
	 * Step 2 for one chunk; returns its failure, or {@code null} once its refs and
	 * reflogs are back.
	 */
	private ChunkFailure restoreChunk(Chunk chunk, Counts counts, ChunkListener listener) throws IOException {
		// one step for every other writer and reader: the checks, the refs and their
		// reflogs
		try (RefStore.Hold hold = this.store.exclusive()) {
			return restoreHeld(chunk, counts, listener);
		}
	}

	private ChunkFailure restoreHeld(Chunk chunk, Counts counts, ChunkListener listener) throws IOException {
		List<SavedRef> missing = new ArrayList<>();
		List<SavedRef> present = new ArrayList<>();
		// the creation expects each missing ref still missing under the lock, so a ref
		// created after this reading fails the chunk instead of being overwritten
		Map<String, Ref> refsNow = currentRefs(chunk);
		for (SavedRef saved : wanted(chunk)) {
			Optional<Ref> current = Optional.ofNullable(refsNow.get(saved.ref().name()));
			ChunkFailure conflict = conflict(chunk.number(), saved.ref(), current);
			if (conflict != null) {
				return conflict;
			}
			(current.isPresent() ? present : missing).add(saved);
		}
		List<Ref> refs = missing.stream().map(SavedRef::ref).toList();
		ChunkFailure failure = removeLeftLogs(chunk.number(), missing);
		if (failure == null && !missing.isEmpty()) {
			failure = create(chunk.number(), refs, listener);
		}
		if (failure != null) {
			return failure;
		}
		counts.restored += missing.size();
		counts.present += present.size();
		Map<String, List<ReflogEntry>> logs = new LinkedHashMap<>();
		for (SavedRef saved : missing) {
			logs.put(saved.ref().name(), saved.log());
		}
		for (SavedRef saved : present) {
			List<ReflogEntry> current = this.store.reflog(saved.ref().name());
			if (current.size() < saved.log().size() && saved.log().subList(0, current.size()).equals(current)) {
				logs.put(saved.ref().name(), saved.log().subList(current.size(), saved.log().size()));
			}
		}
		// forced as the refs were: the chunk is reported back with its reflogs
		this.store.appendReflogs(logs, true);
		for (List<ReflogEntry> log : logs.values()) {
			counts.entries += log.size();
		}
		listener.afterCommit(chunk.number(), refs);
		return null;
	}

	/**
	 * A deletion killed (or cut) after its commit but before it removed the reflogs of
	 * the refs it deleted leaves them (files): each that is a beginning of the saved log
	 * is removed first, as {@code git update-ref -d} removes the log of a ref that does
	 * not exist, so that the ref comes back with its saved log once, not twice. Another
	 * log is kept (a recreation then appends to it).
	 */
	private ChunkFailure removeLeftLogs(int number, List<SavedRef> missing) throws IOException {
		List<String> left = new ArrayList<>();
		List<String> names = missing.stream().map((saved) -> saved.ref().name()).toList();
		Set<String> logged = this.store.withReflogs(names);
		for (SavedRef saved : missing) {
			String name = saved.ref().name();
			if (logged.contains(name)) {
				List<ReflogEntry> log = this.store.reflog(name);
				if (log.size() <= saved.log().size() && saved.log().subList(0, log.size()).equals(log)) {
					left.add(name);
				}
			}
		}
		if (left.isEmpty()) {
			return null;
		}
		try (RefTransaction transaction = this.store.newTransaction()) {
			transaction.message(MESSAGE).forceSync();
			ObjectId zero = this.store.hashAlgorithm().zeroId();
			for (String name : left) {
				// only while the ref is still missing
				transaction.add(RefUpdate.delete(name, zero).withNoDeref());
			}
			TransactionResult result = transaction.commit();
			Optional<UpdateResult> rejected = result.firstRejection();
			if (rejected.isPresent()) {
				return new ChunkFailure(number, rejected.get().update().name(), rejected.get().rejection(),
						RefDeleter.message(rejected.get()), false);
			}
			return null;
		}
		catch (IOException ex) {
			return new ChunkFailure(number, null, Rejection.IO_ERROR, RefDeleter.describe(ex), false);
		}
	}

	private ChunkFailure create(int number, List<Ref> refs, ChunkListener listener) {
		try (RefTransaction transaction = this.store.newTransaction()) {
			// forced whatever core.fsync says: a restore that reported a chunk back must
			// not lose it to a power cut
			transaction.message(MESSAGE).forceSync();
			ObjectId zero = this.store.hashAlgorithm().zeroId();
			for (Ref ref : refs) {
				transaction.add((ref instanceof DirectRef direct)
						? RefUpdate.create(ref.name(), direct.id()).withNoDeref() : new RefUpdate(ref.name(),
								RefUpdate.Type.SYMREF, null, ((SymbolicRef) ref).target(), zero, true, null));
			}
			try {
				listener.beforeCommit(number, refs);
				Optional<UpdateResult> rejected = transaction.prepare().firstRejection();
				if (rejected.isPresent()) {
					return new ChunkFailure(number, rejected.get().update().name(), rejected.get().rejection(),
							RefDeleter.message(rejected.get()), false);
				}
			}
			catch (IOException ex) {
				return new ChunkFailure(number, null, Rejection.IO_ERROR, RefDeleter.describe(ex), false);
			}
			try {
				transaction.commit();
			}
			catch (IOException ex) {
				return new ChunkFailure(number, null, Rejection.IO_ERROR, RefDeleter.describe(ex), true);
			}
			return null;
		}
	}

	/** Running totals of one restore. */
	private static final class Counts {

		int chunks;

		int skipped;

		long restored;

		long present;

		long entries;

		RestoreResult result(ChunkFailure failure) {
			return new RestoreResult(this.chunks, this.skipped, this.restored, this.present, this.entries, null,
					failure);
		}

	}

}
