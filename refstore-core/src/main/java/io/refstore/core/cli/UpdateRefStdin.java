package io.refstore.core.cli;

import java.io.IOException;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.env.OutBuffer;
import io.refstore.core.cli.options.StdinParser;
import io.refstore.core.cli.options.StdinParser.Command;
import io.refstore.core.cli.options.StdinParser.Verb;
import io.refstore.core.cli.revision.RevParse;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.ref.UpdateBatch;

/**
 * {@code refstore update-ref --stdin [-z]}: runs git's command language against one
 * transaction at a time.
 *
 * <p>
 * Without {@code start}, every command joins one transaction that is committed at the end
 * of input, all or nothing. With {@code start} the session is explicit: {@code prepare}
 * takes the locks, {@code commit} applies, {@code abort} releases, each answered on
 * standard output at once ({@code start: ok}), and a transaction still open at the end of
 * input is aborted. After {@code commit} or {@code abort} only {@code start} may follow.
 * Any error is fatal (exit 128) and leaves every ref unchanged.
 *
 * <p>
 * Belongs to one command run; not thread-safe.
 */
final class UpdateRefStdin {

	/**
	 * Where the session is; the order matters, as in git: a command never moves it back.
	 */
	private enum State {

		OPEN, STARTED, PREPARED, CLOSED

	}

	private final CommandContext context;

	private final boolean nulTerminated;

	private final boolean defaultNoDeref;

	private final String message;

	private final boolean createReflog;

	private RefStore refs;

	private RefTransaction transaction;

	/** Whether {@code --batch-updates} was given. */
	private boolean batchUpdates;

	/**
	 * With {@code --batch-updates}, the transaction that gets the updates (then
	 * {@link #transaction} gets none).
	 */
	private UpdateRefBatch batch;

	/**
	 * The updates read since the transaction last got them: handed over before it is
	 * prepared or committed.
	 */
	private UpdateBatch pending;

	private State state = State.OPEN;

	/**
	 * @param context the command's context
	 * @param nulTerminated {@code -z}
	 * @param noDeref {@code --no-deref}: the default of every command
	 * @param message the reflog message ({@code -m}), or {@code null}
	 * @param createReflog {@code --create-reflog}: every named ref gets a log
	 */
	UpdateRefStdin(CommandContext context, boolean nulTerminated, boolean noDeref, String message,
			boolean createReflog) {
		this.createReflog = createReflog;
		this.context = context;
		this.nulTerminated = nulTerminated;
		this.defaultNoDeref = noDeref;
		this.message = message;
	}

	/**
	 * {@code --batch-updates}: updates refused for what they ask are left out and
	 * reported ({@link UpdateRefBatch}).
	 * @return this
	 */
	UpdateRefStdin batchUpdates(boolean batchUpdates) {
		this.batchUpdates = batchUpdates;
		return this;
	}

	int run() throws CommandFailure, IOException {
		this.refs = this.context.refs();
		StdinParser parser = new StdinParser(this.context.in(), this.nulTerminated, this.refs.hashAlgorithm(),
				new RevParse(this.refs, this.context::objects)::resolve, this.context::warning);
		this.transaction = newTransaction();
		this.batch = newBatch();
		this.pending = new UpdateBatch(this.refs.hashAlgorithm());
		try {
			boolean noDeref = this.defaultNoDeref;
			for (Command command = parser.next(); command != null; command = parser.next()) {
				enter(command.verb());
				if (command.verb() == Verb.OPTION) {
					noDeref = true;
				}
				else if (command.symbolic()) {
					addSymbolic(parser, command, noDeref);
					noDeref = this.defaultNoDeref;
				}
				else if (command.namesRef()) {
					add(parser, command, noDeref);
					noDeref = this.defaultNoDeref;
				}
				else {
					control(command.verb());
				}
			}
			finish();
			return 0;
		}
		finally {
			this.transaction.close();
			if (this.batch != null) {
				this.batch.close();
			}
		}
	}

	/** Moves the session to the state a command asks for, refusing what git refuses. */
	private void enter(Verb verb) throws CommandFailure {
		State wanted = switch (verb) {
			case START -> State.STARTED;
			case PREPARE -> State.PREPARED;
			case COMMIT, ABORT -> State.CLOSED;
			default -> State.OPEN;
		};
		switch (this.state) {
			case OPEN, STARTED -> {
				if (this.state == State.STARTED && wanted == State.STARTED) {
					throw CommandFailure.fatal("cannot restart ongoing transaction");
				}
				if (wanted.compareTo(this.state) >= 0) {
					this.state = wanted;
				}
			}
			case PREPARED -> {
				if (wanted != State.CLOSED) {
					throw CommandFailure.fatal("prepared transactions can only be closed");
				}
				this.state = wanted;
			}
			case CLOSED -> {
				if (wanted != State.STARTED) {
					throw CommandFailure.fatal("transaction is closed");
				}
				this.state = wanted;
				this.transaction.close();
				this.transaction = newTransaction();
				this.batch = newBatch();
			}
		}
	}

	private void control(Verb verb) throws CommandFailure, IOException {
		if (verb != Verb.START) {
			// an aborted transaction gets them too: its hook is told what it drops
			handOver();
		}
		if (this.batch != null) {
			switch (verb) {
				case PREPARE -> this.batch.prepare("prepare: ");
				case COMMIT -> this.batch.commit("commit: ");
				case ABORT -> this.batch.abort();
				default -> {
					// START: the state change was all
				}
			}
		}
		else
			switch (verb) {
				case PREPARE -> {
					TransactionResult result = this.transaction.prepare();
					if (result.firstRejection().isPresent()) {
						throw CommandFailure.fatal("prepare: " + UpdateRef.describe(result.firstRejection().get()));
					}
				}
				case COMMIT -> {
					TransactionResult result = this.transaction.commit();
					if (!result.committed()) {
						throw CommandFailure.fatal("commit: " + rejection(result));
					}
				}
				case ABORT -> this.transaction.abort();
				default -> {
					// START: the state change was all
				}
			}
		OutBuffer out = this.context.out();
		out.write(verb.word());
		out.write(": ok\n");
		out.flush();
	}

	/**
	 * At the end of input: commit an implicit transaction, abort an explicit one left
	 * open.
	 */
	private void finish() throws CommandFailure, IOException {
		if (this.state == State.OPEN && this.batch != null) {
			handOver();
			this.batch.commit("");
		}
		else if (this.state == State.OPEN) {
			handOver();
			TransactionResult result = this.transaction.commit();
			if (!result.committed()) {
				throw CommandFailure.fatal(rejection(result));
			}
		}
		else if (this.state != State.CLOSED && this.batch != null) {
			this.batch.abort();
		}
		else if (this.state != State.CLOSED) {
			this.transaction.abort();
		}
	}

	private static String rejection(TransactionResult result) {
		return result.firstRejection().map(UpdateRef::describe).orElse("the transaction was not committed");
	}

	/**
	 * Adds the command's update to the pending batch (the ref's name is still in the
	 * parser).
	 */
	private void add(StdinParser parser, Command command, boolean noDeref) {
		byte[] name = parser.refBuffer();
		int start = parser.refStart();
		int length = parser.refEnd() - start;
		switch (command.verb()) {
			case UPDATE ->
				this.pending.add(name, start, length, RefUpdate.Type.UPDATE, command.newId(), command.oldId(), noDeref);
			case CREATE -> this.pending.add(name, start, length, RefUpdate.Type.UPDATE, command.newId(),
					this.refs.hashAlgorithm().zeroId(), noDeref);
			case DELETE -> this.pending.add(name, start, length, RefUpdate.Type.DELETE, null, command.oldId(), noDeref);
			default -> this.pending.add(name, start, length, RefUpdate.Type.VERIFY, null, command.oldId(), noDeref);
		}
	}

	/**
	 * Adds a {@code symref-*} command's update to the transaction, after what is pending
	 * (these are few: no batch holds them).
	 */
	private void addSymbolic(StdinParser parser, Command command, boolean noDeref) throws CommandFailure {
		String name = new String(parser.refBuffer(), parser.refStart(), parser.refEnd() - parser.refStart(),
				java.nio.charset.StandardCharsets.UTF_8);
		RefUpdate update = switch (command.verb()) {
			case SYMREF_UPDATE, SYMREF_CREATE -> new RefUpdate(name, RefUpdate.Type.SYMREF, null, command.newTarget(),
					command.oldId(), noDeref, null, command.oldTarget());
			case SYMREF_DELETE ->
				new RefUpdate(name, RefUpdate.Type.DELETE, null, null, null, true, null, command.oldTarget());
			default -> new RefUpdate(name, RefUpdate.Type.VERIFY, null, null,
					(command.oldTarget() == null) ? this.refs.hashAlgorithm().zeroId() : null, true, null,
					command.oldTarget());
		};
		if (!noDeref && update.type() != RefUpdate.Type.SYMREF) {
			throw CommandFailure.fatal(command.verb().word() + ": cannot operate with deref mode");
		}
		handOver();
		if (this.batch != null) {
			this.batch.add(update);
		}
		else {
			this.transaction.add(update);
		}
	}

	/** Gives the pending updates to the transaction. */
	private void handOver() {
		if (this.pending.size() > 0 && this.batch != null) {
			for (int i = 0; i < this.pending.size(); i++) {
				this.batch.add(this.pending.update(i));
			}
			this.pending = new UpdateBatch(this.refs.hashAlgorithm());
		}
		else if (this.pending.size() > 0) {
			this.transaction.addAll(this.pending);
			this.pending = new UpdateBatch(this.refs.hashAlgorithm());
		}
	}

	private UpdateRefBatch newBatch() {
		return this.batchUpdates ? new UpdateRefBatch(this.context, this.refs, this::newTransaction) : null;
	}

	private RefTransaction newTransaction() {
		RefTransaction created = this.refs.newTransaction();
		if (this.message != null) {
			created.message(this.message);
		}
		if (this.createReflog) {
			created.createReflogs();
		}
		return created;
	}

}
