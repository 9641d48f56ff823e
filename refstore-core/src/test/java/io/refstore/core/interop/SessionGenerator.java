package io.refstore.core.interop;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.refstore.core.interop.RefModel.Failure;
import io.refstore.core.interop.StdinSession.Abort;
import io.refstore.core.interop.StdinSession.Commit;
import io.refstore.core.interop.StdinSession.Outcome;
import io.refstore.core.interop.StdinSession.Prepare;
import io.refstore.core.interop.StdinSession.Raw;
import io.refstore.core.interop.StdinSession.Start;
import io.refstore.core.interop.StdinSession.Update;

/**
 * Draws the next step of the differential test from a seeded {@link Random}: mostly
 * {@code update-ref --stdin} sessions of 8 to 20 transactions (text or {@code -z}, with
 * or without {@code -m}), the last of which may be meant to fail; sometimes a single
 * implicit transaction, a session left open at end of input, or a failing transaction
 * alone; and between them single {@code update-ref}, {@code symbolic-ref} and
 * {@code pack-refs} commands. Each step carries what git (2.39 on files, 2.55 on
 * reftable) should answer according to the {@link RefModel}. Not thread-safe.
 */
final class SessionGenerator {

	/** A step and git's expected answer. */
	sealed interface Step permits UpdateRefStep, CommandStep {

		/** The refs after the step, according to the model. */
		RefModel after();

	}

	/**
	 * An {@code update-ref --stdin} session; {@code transactions} counts those git gets
	 * to run.
	 */
	record UpdateRefStep(StdinSession session, Outcome expected, int transactions, Failure intended) implements Step {

		@Override
		public RefModel after() {
			return this.expected.after();
		}

	}

	/**
	 * Another command; {@code expectedExit} is git's exit code, {@code failure} why it
	 * fails (or null), and {@code writes} whether it may change the repository.
	 */
	record CommandStep(List<String> args, int expectedExit, Failure failure, boolean writes,
			RefModel after) implements Step {

	}

	private static final List<Failure> TRANSACTION_FAILURES = List.of(Failure.STALE_OLD, Failure.CREATE_EXISTS,
			Failure.MISSING_REF, Failure.NAME_CONFLICT_EXISTING, Failure.NAME_CONFLICT_BATCH, Failure.DUPLICATE,
			Failure.DUPLICATE_VIA_SYMREF, Failure.INVALID_NAME, Failure.NON_COMMIT_ON_BRANCH, Failure.MISSING_OBJECT,
			Failure.PROTOCOL);

	private static final List<String> MESSAGES = List.of("session", "  spaced   out\tmessage  ", "two\nlines",
			"nachricht \u00fcber refs");

	/**
	 * Longer than half a reftable block of 4096 bytes, which git's reftable backend keeps
	 * of a message: the cut falls inside the two bytes of the U+00E9.
	 */
	private static final String LONG_MESSAGE = "long " + "x".repeat(2042) + "\u00e9 and more after the cut";

	private final Random random;

	private final OpGenerator ops;

	private final boolean symrefMessages;

	private final List<String> messages;

	/**
	 * @param backend the git the steps are for: for reftable the messages of
	 * {@code update-ref --stdin} include one longer than git keeps
	 */
	SessionGenerator(Random random, NamePool names, ObjectPool pool, boolean symrefMessages, RefModel.Backend backend) {
		this.random = random;
		this.ops = new OpGenerator(random, names, pool);
		this.symrefMessages = symrefMessages;
		this.messages = (backend == RefModel.Backend.REFTABLE) ? withLong(MESSAGES) : MESSAGES;
	}

	private static List<String> withLong(List<String> messages) {
		List<String> all = new ArrayList<>(messages);
		all.add(LONG_MESSAGE);
		return List.copyOf(all);
	}

	/** The next step on a repository whose refs are {@code model}. */
	Step next(RefModel model) {
		int roll = this.random.nextInt(100);
		if (roll < 6) {
			return packRefs(model);
		}
		if (roll < 15) {
			return SymbolicRefSteps.next(this.random, this.ops, model, this.symrefMessages);
		}
		if (roll < 22) {
			return UpdateRefCommandSteps.next(this.random, this.ops, model);
		}
		if (roll < 45) {
			return single(model);
		}
		return session(model);
	}

	private Step packRefs(RefModel model) {
		int roll = this.random.nextInt(10);
		List<String> args = (roll < 7) ? List.of("pack-refs", "--all")
				: (roll < 9) ? List.of("pack-refs") : List.of("pack-refs", "--all", "--no-prune");
		return new CommandStep(args, 0, null, true, model.copy());
	}

	/**
	 * One transaction alone: implicit (no {@code start}) or explicit, often meant to
	 * fail.
	 */
	private Step single(RefModel model) {
		StdinSession session = newSession();
		Failure intended = (this.random.nextInt(3) > 0) ? pickFailure() : null;
		boolean explicit = this.random.nextBoolean() || intended == Failure.PROTOCOL;
		RefModel work = model.copy();
		if (intended != null) {
			intended = addFailing(session, work, intended, explicit);
		}
		else {
			addGood(session, work, explicit);
		}
		return finish(session, model, 1, intended);
	}

	/**
	 * Many transactions in one session; the last may fail, and commands after a failure
	 * are never run.
	 */
	private Step session(RefModel model) {
		StdinSession session = newSession();
		RefModel work = model.copy();
		int count = 8 + this.random.nextInt(13);
		for (int i = 0; i < count; i++) {
			addGood(session, work, true);
		}
		Failure intended = null;
		int transactions = count;
		int roll = this.random.nextInt(10);
		if (roll < 4) {
			intended = addFailing(session, work, pickFailure(), true);
			transactions++;
			if (this.random.nextBoolean()) {
				addGood(session, work.copy(), true);
			}
		}
		else if (roll < 5) {
			// a transaction left open at end of input is aborted: none of its updates may
			// land
			session.add(new Start());
			this.ops.good(work).forEach(session::add);
			transactions++;
		}
		return finish(session, model, transactions, intended);
	}

	private StdinSession newSession() {
		boolean nul = this.random.nextInt(5) == 0;
		String message = (this.random.nextInt(3) == 0) ? null
				: this.ops.pick(this.messages) + " " + this.random.nextInt(1000);
		return new StdinSession(nul, message);
	}

	private void addGood(StdinSession session, RefModel work, boolean explicit) {
		List<Update> updates = this.ops.good(work);
		if (!explicit) {
			updates.forEach(session::add);
			work.commit(ops(updates));
			return;
		}
		session.add(new Start());
		updates.forEach(session::add);
		if (this.random.nextInt(4) == 0) {
			session.add(new Prepare());
		}
		if (this.random.nextInt(12) == 0) {
			session.add(new Abort());
		}
		else {
			session.add(new Commit());
			work.commit(ops(updates));
		}
	}

	private Failure addFailing(StdinSession session, RefModel work, Failure reason, boolean explicit) {
		if (reason == Failure.PROTOCOL) {
			addProtocolError(session, work);
			return reason;
		}
		List<Update> updates = null;
		Failure chosen = reason;
		for (int attempt = 0; updates == null; attempt++) {
			updates = this.ops.failing(work, chosen);
			if (updates == null && attempt > 3) {
				chosen = pickTransactionFailure();
			}
		}
		if (explicit) {
			session.add(new Start());
		}
		updates.forEach(session::add);
		if (explicit) {
			if (this.random.nextInt(3) == 0) {
				session.add(new Prepare());
			}
			session.add(new Commit());
		}
		return chosen;
	}

	/** A command that is out of place in the session's state, or not a command at all. */
	private void addProtocolError(StdinSession session, RefModel work) {
		char end = session.nulTerminated() ? '\0' : '\n';
		switch (this.random.nextInt(5)) {
			case 0 -> {
				addGood(session, work, true);
				List<Update> more = this.ops.good(work);
				session.add(more.isEmpty() ? new Prepare() : more.get(0));
			}
			case 1 -> {
				session.add(new Start());
				session.add(new Start());
			}
			case 2 -> {
				session.add(new Start());
				this.ops.good(work).forEach(session::add);
				session.add(new Prepare());
				session.add(this.random.nextBoolean() ? new Prepare() : new Start());
			}
			case 3 -> session
				.add(new Raw(("frobnicate refs/heads/main" + end).getBytes(StandardCharsets.UTF_8), Failure.PROTOCOL));
			default -> {
				session.add(new Start());
				String zero = RefModel.ZERO;
				String line = session.nulTerminated() ? "create refs/heads/zero\0" + zero + "\0"
						: "create refs/heads/zero " + zero + "\n";
				session.add(new Raw(line.getBytes(StandardCharsets.UTF_8), Failure.PROTOCOL));
			}
		}
	}

	private Step finish(StdinSession session, RefModel model, int transactions, Failure intended) {
		Outcome expected = session.simulate(model);
		if ((intended == null) != (expected.failure() == null)) {
			throw new IllegalStateException("generator and model disagree: meant " + intended + ", model says "
					+ expected.failure() + " for\n" + new String(session.input(), StandardCharsets.UTF_8));
		}
		return new UpdateRefStep(session, expected, transactions, intended);
	}

	private Failure pickFailure() {
		return this.ops.pick(TRANSACTION_FAILURES);
	}

	private Failure pickTransactionFailure() {
		return this.ops.pick(TRANSACTION_FAILURES.subList(0, TRANSACTION_FAILURES.size() - 1));
	}

	private static List<RefModel.Op> ops(List<Update> updates) {
		return updates.stream().map(Update::op).toList();
	}

}
