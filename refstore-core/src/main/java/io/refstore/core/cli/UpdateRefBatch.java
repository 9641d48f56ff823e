package io.refstore.core.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.env.OutBuffer;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.Rejection;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.ref.TransactionHook;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.ref.UpdateResult;
import io.refstore.core.txn.UpdateChecks;

/**
 * One transaction of {@code refstore update-ref --stdin --batch-updates}: the updates
 * refused for what they ask (an old value that does not hold, a name in conflict, a new
 * value that is no fit object) are left out and reported, the others applied, as git 2.55
 * does. Refusals of another kind (a lock held elsewhere, a broken ref, a bad or duplicate
 * name) still fail the whole transaction.
 *
 * <p>
 * Each refused update is told on standard error as git words it when the transaction is
 * prepared, and once it is committed on standard output as
 * {@code rejected <ref> <new> <old> <reason>}.
 *
 * <p>
 * Refusals are found with trial transactions that run no hook and are aborted, each
 * leaving out what the previous one refused; the transaction that applies the rest is
 * then prepared anew, so the {@code reference-transaction} hook sees only what is
 * applied. Belongs to one command run; not thread-safe.
 */
final class UpdateRefBatch {

	private final RefStore refs;

	private final Supplier<RefTransaction> transactions;

	private final CommandContext context;

	private final List<RefUpdate> updates = new ArrayList<>();

	private final List<UpdateResult> rejected = new ArrayList<>();

	private RefTransaction transaction;

	/**
	 * @param context the command's context (standard output and error)
	 * @param refs the store
	 * @param transactions makes a transaction with the command's message and options
	 */
	UpdateRefBatch(CommandContext context, RefStore refs, Supplier<RefTransaction> transactions) {
		this.context = context;
		this.refs = refs;
		this.transactions = transactions;
	}

	/** Adds an update; only before {@link #prepare}. */
	void add(RefUpdate update) {
		this.updates.add(update);
	}

	/**
	 * Finds and reports the refused updates, then locks the rest.
	 * @param prefix what a fatal refusal's message starts with ({@code "prepare: "} or
	 * nothing)
	 * @throws CommandFailure a refusal that fails the whole transaction
	 */
	void prepare(String prefix) throws CommandFailure, IOException {
		List<RefUpdate> remaining = new ArrayList<>(this.updates);
		List<UpdateResult> found = new ArrayList<>();
		while (!remaining.isEmpty()) {
			TransactionResult trial;
			try (RefTransaction probe = this.transactions.get().hook(TransactionHook.NONE)) {
				remaining.forEach(probe::add);
				trial = probe.prepare();
				probe.abort();
			}
			if (trial.firstRejection().isEmpty()) {
				break;
			}
			List<RefUpdate> kept = new ArrayList<>(remaining.size());
			for (int i = 0; i < remaining.size(); i++) {
				UpdateResult result = trial.results().get(i);
				if (result.rejection() == null || result.rejection() == Rejection.NOT_ATTEMPTED) {
					kept.add(remaining.get(i));
				}
				else if (reason(result) == null) {
					throw CommandFailure.fatal(prefix + UpdateRef.describe(result));
				}
				else {
					found
						.add(new UpdateResult(remaining.get(i), result.rejection(), result.message(), result.detail()));
				}
			}
			remaining = kept;
		}
		report(found);
		this.transaction = this.transactions.get();
		remaining.forEach(this.transaction::add);
		TransactionResult result = this.transaction.prepare();
		if (result.firstRejection().isPresent()) {
			// something changed since the trial: the refs are no longer what was judged
			throw CommandFailure.fatal(prefix + UpdateRef.describe(result.firstRejection().get()));
		}
	}

	/**
	 * Tells the refusals on standard error in git's order: new values that name no fit
	 * object first (git checks them as the updates are queued), then in input order,
	 * those made through a symbolic ref last (git queues the update of the ref reached
	 * after the others).
	 */
	private void report(List<UpdateResult> found) throws IOException {
		Map<RefUpdate, Integer> index = new IdentityHashMap<>();
		for (int i = 0; i < this.updates.size(); i++) {
			index.put(this.updates.get(i), i);
		}
		Map<RefUpdate, String> names = new IdentityHashMap<>();
		for (UpdateResult refused : found) {
			names.put(refused.update(), name(refused.update()));
		}
		found.sort(Comparator.comparing((UpdateResult r) -> r.rejection() != Rejection.MISSING_OBJECT)
			.thenComparing((r) -> !names.get(r.update()).equals(r.update().name()))
			.thenComparing((r) -> index.get(r.update())));
		for (UpdateResult refused : found) {
			this.context.error(withoutLockPrefix(UpdateRef.describe(refused)));
		}
		this.rejected.addAll(found);
	}

	/**
	 * Applies what was not refused (preparing first if needed) and prints the refused
	 * updates.
	 */
	void commit(String prefix) throws CommandFailure, IOException {
		if (this.transaction == null) {
			prepare(prefix);
		}
		TransactionResult result = this.transaction.commit();
		if (!result.committed()) {
			throw CommandFailure.fatal(prefix
					+ result.firstRejection().map(UpdateRef::describe).orElse("the transaction was not committed"));
		}
		OutBuffer out = this.context.out();
		for (UpdateResult refused : this.rejected) {
			// git names the symbolic ref through which a duplicate came, else the ref
			// reached
			String name = UpdateChecks.isDuplicateViaSymref(refused) ? refused.update().name() : name(refused.update());
			out.write("rejected " + name + " " + newValue(refused.update()) + " " + oldValue(refused.update()) + " "
					+ reason(refused) + "\n");
		}
	}

	/** Releases the transaction unapplied. */
	void abort() {
		if (this.transaction != null) {
			this.transaction.abort();
		}
	}

	/** Ends the transaction quietly. */
	void close() {
		if (this.transaction != null) {
			this.transaction.close();
		}
	}

	/**
	 * A conflict with a ref outside the transaction as git's batch mode words it: without
	 * the {@code cannot lock ref '<name>': } that git puts before a conflict with a ref
	 * this transaction updates too.
	 */
	private String withoutLockPrefix(String message) {
		String marker = "' exists; cannot create '";
		int exists = message.indexOf(marker);
		int start = message.indexOf("': '");
		if (!message.startsWith("cannot lock ref '") || exists < 0 || start < 0 || start + 4 > exists) {
			return message;
		}
		String conflicting = message.substring(start + 4, exists);
		for (RefUpdate update : this.updates) {
			if (update.name().equals(conflicting)) {
				return message;
			}
		}
		return message.substring(start + 3);
	}

	/**
	 * git's reason for a refusal that leaves only the update out, or {@code null} if it
	 * fails the whole transaction.
	 */
	private static String reason(UpdateResult result) {
		return switch (result.rejection()) {
			case NAME_CONFLICT -> "refname conflict";
			case CREATE_EXISTS -> "reference already exists";
			case NONEXISTENT_REF -> "reference does not exist";
			case INCORRECT_OLD_VALUE -> UpdateChecks.isRegularWhereSymrefExpected(result)
					? "expected symref but found regular ref" : "incorrect old value provided";
			case MISSING_OBJECT -> "invalid new value provided";
			case DUPLICATE_UPDATE -> UpdateChecks.isDuplicateViaSymref(result) ? "refname conflict" : null;
			default -> null;
		};
	}

	/** The ref git names: the one a dereferencing update reaches. */
	private String name(RefUpdate update) throws IOException {
		String name = update.name();
		if (update.noDeref()) {
			return name;
		}
		for (int depth = 0; depth < RefStore.MAX_SYMREF_DEPTH; depth++) {
			Optional<Ref> ref = this.refs.exactRef(name);
			if (ref.isEmpty() || !(ref.get() instanceof SymbolicRef symbolic)) {
				break;
			}
			name = symbolic.target();
		}
		return name;
	}

	/**
	 * The new value git prints: none for a check, zero for a deletion or a symbolic ref.
	 */
	private String newValue(RefUpdate update) {
		return switch (update.type()) {
			case VERIFY -> "(null)";
			case UPDATE -> update.newId().name();
			default -> this.refs.hashAlgorithm().zeroId().name();
		};
	}

	/**
	 * The old value git prints: the expected one, zero where a target was expected, none
	 * where nothing was.
	 */
	private String oldValue(RefUpdate update) {
		ObjectId expected = update.expectedOld();
		if (expected != null) {
			return expected.name();
		}
		return (update.expectedOldTarget() != null) ? this.refs.hashAlgorithm().zeroId().name() : "(null)";
	}

}
