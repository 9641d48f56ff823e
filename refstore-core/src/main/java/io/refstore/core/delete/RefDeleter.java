package io.refstore.core.delete;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import io.refstore.core.graph.CommitHistory;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.Rejection;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.ref.UpdateResult;

/**
 * Deletes the refs of a {@link RefSelection} in chunks, one transaction per chunk,
 * recording everything a restore needs in a {@link Manifest} first. The refs the
 * selection's {@link ProtectedRefs} protect are never deleted; the dry run and the result
 * say how many were kept, and by which pattern. Works on any {@link RefStore}, so the
 * same code serves both formats.
 *
 * <p>
 * A run, per chunk of at most {@code chunkSize} selected refs, in name order:
 * <ol>
 * <li>read the chunk's refs from the selection's cursor (one snapshot per scanned range)
 * and their reflogs;</li>
 * <li>write them to the manifest with a {@code ready} line and sync it;</li>
 * <li>commit one transaction deleting each ref only if it still has the value read in
 * step 1 (compare-and-swap; symbolic refs are deleted themselves, never the ref they
 * point to): the files backend rewrites {@code packed-refs} at most once for it, the
 * reftable backend adds one table;</li>
 * <li>record {@code committed}, or the failure, in the manifest and sync it.</li>
 * </ol>
 * The first chunk that fails stops the run: the chunks before it are deleted, it and the
 * rest are not. Memory holds one chunk; the selection is streamed.
 *
 * <p>
 * A symbolic ref can only be deleted without a check of its target (the transaction
 * contract cannot expect a symbolic value), so one retargeted meanwhile is still deleted;
 * the manifest holds the target read.
 *
 * <p>
 * Not thread-safe; one run at a time per instance. Concurrent writers to the repository
 * are expected and make chunks fail rather than lose their updates.
 */
public final class RefDeleter {

	private final RefStore store;

	private final CommitHistory history;

	/**
	 * A deleter for selections without commit or date criteria.
	 * @param store the refs to delete from; the caller keeps ownership and closes it
	 */
	public RefDeleter(RefStore store) {
		this(store, null);
	}

	/**
	 * @param store the refs to delete from; the caller keeps ownership and closes it
	 * @param history the history behind the refs, to judge a selection's criteria;
	 * {@code null} if no selection has any
	 */
	public RefDeleter(RefStore store, CommitHistory history) {
		this.store = store;
		this.history = history;
	}

	/**
	 * Counts what {@link #delete} would remove, without changing anything or writing a
	 * manifest.
	 * @param sampleSize how many of the first names, and of the protected refs kept, to
	 * return
	 * @return the count, the names listed but missing, the sample, and what protection
	 * kept
	 * @throws IOException if the store cannot be read
	 */
	public DryRun dryRun(RefSelection selection, int sampleSize) throws IOException {
		return select(selection, sampleSize, null);
	}

	/**
	 * Streams the refs {@link #delete} would remove, in name order, with the values it
	 * would expect: a plan to review before deleting. Changes nothing.
	 * @param sampleSize how many of the first names, and of the protected refs kept, to
	 * return
	 * @param consumer receives each selected ref (a copy that outlives the call);
	 * {@code null} for none
	 * @return what {@link #dryRun} returns
	 * @throws IOException if the store cannot be read, or as thrown by {@code consumer}
	 */
	public DryRun select(RefSelection selection, int sampleSize, RefConsumer consumer) throws IOException {
		if (sampleSize < 0) {
			throw new IllegalArgumentException("sampleSize must not be negative, not " + sampleSize);
		}
		if (selection.hasCriteria()) {
			return new CriteriaSelection(this.store, this.history, selection).select(sampleSize, consumer);
		}
		List<String> sample = new ArrayList<>();
		long matched = 0;
		try (SelectedRefs refs = new SelectedRefs(this.store, selection, sampleSize)) {
			while (refs.next()) {
				if (sample.size() < sampleSize) {
					sample.add(new String(refs.nameBuffer(), 0, refs.nameLength(), StandardCharsets.UTF_8));
				}
				if (consumer != null) {
					consumer.accept(refs.ref());
				}
				matched++;
			}
			return new DryRun(matched, refs.missing(), sample, refs.kept());
		}
	}

	/** Receives the refs of {@link #select}. */
	@FunctionalInterface
	public interface RefConsumer {

		/** Takes one ref. */
		void accept(Ref ref) throws IOException;

	}

	/**
	 * Deletes the selected refs chunk by chunk, writing the manifest.
	 * @return the counts, and the failure that stopped the run if one did
	 * @throws java.nio.file.FileAlreadyExistsException if the manifest exists (nothing is
	 * deleted)
	 * @throws IllegalArgumentException if the selection has criteria or namespaces: such
	 * a selection is planned ({@link DeletionPlan}) and the plan's names deleted
	 * @throws IOException if the store cannot be read or the manifest cannot be written;
	 * the manifest then says which chunks committed
	 */
	public DeleteResult delete(RefSelection selection, DeleteOptions options) throws IOException {
		if (selection.hasCriteria()) {
			throw new IllegalArgumentException("a selection with criteria is deleted through its plan");
		}
		long created = System.currentTimeMillis() / 1000;
		try (ManifestWriter manifest = ManifestWriter.create(options.manifest(), this.store.hashAlgorithm(),
				this.store.format(), options.repository(), options.repositoryId(), selection, created);
				SelectedRefs refs = new SelectedRefs(this.store, selection, options.sampleSize())) {
			List<String> sample = new ArrayList<>();
			List<Ref> chunk = new ArrayList<>(Math.min(options.chunkSize(), 4096));
			long deleted = 0;
			int chunks = 0;
			boolean more = true;
			while (more) {
				more = refs.next();
				if (more) {
					if (sample.size() < options.sampleSize()) {
						sample.add(new String(refs.nameBuffer(), 0, refs.nameLength(), StandardCharsets.UTF_8));
					}
					chunk.add(refs.ref());
				}
				if (chunk.size() == options.chunkSize() || (!more && !chunk.isEmpty())) {
					ChunkFailure failure = apply(chunks + 1, chunk, manifest, options);
					if (failure != null) {
						return new DeleteResult(options.manifest(), deleted, chunks, refs.missing(), sample,
								refs.kept(), failure);
					}
					chunks++;
					deleted += chunk.size();
					chunk = new ArrayList<>(chunk.size());
				}
			}
			manifest.done(deleted, chunks);
			return new DeleteResult(options.manifest(), deleted, chunks, refs.missing(), sample, refs.kept(), null);
		}
	}

	/**
	 * Steps 1 (reflogs) to 4 for one chunk; returns its failure, or {@code null} if it
	 * committed.
	 */
	private ChunkFailure apply(int number, List<Ref> chunk, ManifestWriter manifest, DeleteOptions options)
			throws IOException {
		List<List<ReflogEntry>> logs = new ArrayList<>(chunk.size());
		for (Ref ref : chunk) {
			logs.add(this.store.reflog(ref.name()));
		}
		manifest.chunk(number, chunk, logs);
		ChunkFailure failure = commit(number, chunk, options);
		if (failure != null) {
			manifest.failed(failure);
			return failure;
		}
		manifest.committed(number);
		options.listener().afterCommit(number, Collections.unmodifiableList(chunk));
		return null;
	}

	private ChunkFailure commit(int number, List<Ref> chunk, DeleteOptions options) {
		RefStore.Hold hold;
		try {
			// other writers wait for the chunk rather than meet its locks
			hold = this.store.exclusive();
		}
		catch (IOException ex) {
			return new ChunkFailure(number, null, Rejection.IO_ERROR, describe(ex), false);
		}
		try (hold; RefTransaction transaction = this.store.newTransaction()) {
			// forced whatever core.fsync says: the manifest records the chunk as
			// committed once this returns, and
			// a power cut must not bring back refs it lists as deleted, nor leave a
			// packed-refs without content
			transaction.message(options.message()).forceSync();
			for (Ref ref : chunk) {
				transaction.add(deletion(ref));
			}
			try {
				options.listener().beforeCommit(number, Collections.unmodifiableList(chunk));
				Optional<UpdateResult> rejected = transaction.prepare().firstRejection();
				if (rejected.isPresent()) {
					return new ChunkFailure(number, rejected.get().update().name(), rejected.get().rejection(),
							message(rejected.get()), false);
				}
			}
			catch (IOException ex) {
				return new ChunkFailure(number, null, Rejection.IO_ERROR, describe(ex), false);
			}
			try {
				TransactionResult result = transaction.commit();
				if (!result.committed()) {
					return new ChunkFailure(number, null, Rejection.IO_ERROR, "the transaction did not commit", true);
				}
			}
			catch (IOException ex) {
				return new ChunkFailure(number, null, Rejection.IO_ERROR, describe(ex), true);
			}
			return null;
		}
	}

	/**
	 * The compare-and-swap deletion of {@code ref} as read: never through a symbolic ref.
	 */
	static RefUpdate deletion(Ref ref) {
		return RefUpdate.delete(ref.name(), (ref instanceof DirectRef direct) ? direct.id() : null).withNoDeref();
	}

	static String message(UpdateResult rejected) {
		if (rejected.message() != null) {
			return rejected.message();
		}
		return "cannot update ref '" + rejected.update().name() + "': " + rejected.rejection();
	}

	static String describe(IOException ex) {
		return (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
	}

}
