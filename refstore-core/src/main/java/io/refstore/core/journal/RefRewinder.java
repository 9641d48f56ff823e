package io.refstore.core.journal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.Rejection;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.ref.UpdateResult;

/**
 * Applies a {@link RewindPlan} in chunks, each one transaction of compare-and-swap
 * updates: a ref still holding its planned {@code from} value is set to {@code to}, one
 * holding {@code to} already is counted as done (a run again after a kill), and one
 * holding anything else was changed by another writer since the plan and is left alone (a
 * conflict, reported). A chunk refused because a ref changed between the read and the
 * commit is read and tried again. Each chunk is forced to the disk (files and
 * directories, whatever {@code core.fsync} says) before it counts as applied. Not
 * thread-safe.
 */
public final class RefRewinder {

	/** How many times a chunk is tried while other writers change its refs. */
	static final int ATTEMPTS = 10;

	/** The most conflicting refs a result names. */
	public static final int NAMED_CONFLICTS = 100;

	private final RefStore store;

	private final String message;

	/**
	 * @param store the store, whose transactions run the repository's hook as it was
	 * opened (a job's name themselves, {@code GitHooks#referenceTransaction})
	 * @param message the reflog message
	 */
	public RefRewinder(RefStore store, String message) {
		this.store = store;
		this.message = message;
	}

	/**
	 * What a run did.
	 *
	 * @param applied refs set
	 * @param present refs that held their value already
	 * @param conflicts refs another writer changed since the plan, left alone
	 * @param named the first {@value #NAMED_CONFLICTS} of them
	 */
	public record Result(long applied, long present, long conflicts, List<String> named) {

	}

	/**
	 * Applies the plan.
	 * @param chunk the most refs per transaction
	 * @param progress told the refs done after each chunk
	 * @throws IOException if a chunk is refused for another reason than a concurrent
	 * change (a missing object, a name conflict), naming the ref, or the store fails
	 */
	public Result apply(RewindPlan plan, int chunk, LongConsumer progress) throws IOException {
		long applied = 0;
		long present = 0;
		long conflicts = 0;
		List<String> named = new ArrayList<>();
		List<RewindPlan.Step> steps = plan.steps();
		for (int start = 0; start < steps.size(); start += chunk) {
			List<RewindPlan.Step> part = steps.subList(start, Math.min(steps.size(), start + chunk));
			for (int attempt = 1;; attempt++) {
				Map<String, Ref> now = this.store.exactRefs(part.stream().map(RewindPlan.Step::name).toList());
				List<RefUpdate> updates = new ArrayList<>(part.size());
				List<String> changed = new ArrayList<>();
				int done = 0;
				for (RewindPlan.Step step : part) {
					ObjectId current = value(now.get(step.name()), step.from().algorithm());
					if (current == null) {
						changed.add(step.name());
					}
					else if (current.equals(step.to())) {
						done++;
					}
					else if (current.equals(step.from())) {
						updates.add(update(step));
					}
					else {
						changed.add(step.name());
					}
				}
				if (updates.isEmpty() || commit(updates, attempt)) {
					applied += updates.size();
					present += done;
					conflicts += changed.size();
					for (String name : changed) {
						if (named.size() < NAMED_CONFLICTS) {
							named.add(name);
						}
					}
					break;
				}
			}
			progress.accept(Math.min(steps.size(), start + chunk));
		}
		return new Result(applied, present, conflicts, List.copyOf(named));
	}

	/**
	 * The ref's value, zeros if absent, or {@code null} if it is symbolic (never set by a
	 * plan).
	 */
	private static ObjectId value(Ref ref, HashAlgorithm hash) {
		if (ref == null) {
			return hash.zeroId();
		}
		return (ref instanceof DirectRef direct) ? direct.id() : null;
	}

	private static RefUpdate update(RewindPlan.Step step) {
		RefUpdate update = step.deletes() ? RefUpdate.delete(step.name(), step.from())
				: RefUpdate.update(step.name(), step.to(), step.from());
		return update.withNoDeref();
	}

	/**
	 * Commits a chunk's updates.
	 * @return whether it committed; {@code false} if a ref changed since it was read (try
	 * again)
	 */
	private boolean commit(List<RefUpdate> updates, int attempt) throws IOException {
		TransactionResult result;
		try (RefTransaction transaction = this.store.newTransaction()) {
			for (RefUpdate update : updates) {
				transaction.add(update);
			}
			// forced whatever core.fsync says, as a restore's chunks are: a chunk counted
			// done
			// (the command's report, a job's progress) survives a power cut
			transaction.message(this.message).forceSync();
			result = transaction.commit();
		}
		if (result.committed()) {
			return true;
		}
		UpdateResult refused = result.firstRejection().orElseThrow();
		boolean raced = refused.rejection() == Rejection.INCORRECT_OLD_VALUE
				|| refused.rejection() == Rejection.CREATE_EXISTS || refused.rejection() == Rejection.NONEXISTENT_REF
				|| refused.rejection() == Rejection.LOCK_FAILURE;
		if (raced && attempt < ATTEMPTS) {
			return false;
		}
		throw new IOException("cannot set " + refused.update().name() + ": " + refused.message());
	}

}
