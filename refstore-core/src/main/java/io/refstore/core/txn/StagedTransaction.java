package io.refstore.core.txn;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.Ref;

/**
 * The part of a transaction both backends share: collecting updates, the OPEN → PREPARED → CLOSED states,
 * planning ({@link UpdateChecks#plan}) and the results. A backend supplies how to read a ref, how to lock
 * and check the planned updates, how to apply them, and how to release its locks.
 *
 * <p>Not thread-safe: one thread drives a transaction.
 */
public abstract class StagedTransaction implements RefTransaction {

	private enum State {

		OPEN, PREPARED, CLOSED

	}

	private final List<RefUpdate> updates = new ArrayList<>();

	private State state = State.OPEN;

	private PersonIdent committer;

	private String message;

	private NavigableMap<String, PlannedUpdate> planned = new TreeMap<>();

	/** Reads a ref as it is now, without locks (planning); {@code null} if it does not exist. */
	protected abstract Ref readUnlocked(String name) throws IOException;

	/**
	 * Takes the backend's locks and checks every planned update under them, recording rejections in
	 * {@code outcome}. Whatever it took is released by {@link #release()}.
	 */
	protected abstract void lockAndCheck(NavigableMap<String, PlannedUpdate> planned, Outcome outcome) throws IOException;

	/** Applies the prepared updates; reflog entries name {@code who}. */
	protected abstract void apply(NavigableMap<String, PlannedUpdate> planned, PersonIdent who) throws IOException;

	/** Releases every lock and temporary file; must be idempotent. */
	protected abstract void release();

	/** The identity reflog entries name when none was set. */
	protected abstract PersonIdent defaultCommitter();

	/** The reflog message of updates without their own, or {@code null}. */
	protected final String message() {
		return this.message;
	}

	@Override
	public final RefTransaction add(RefUpdate update) {
		requireState(State.OPEN);
		this.updates.add(update);
		return this;
	}

	@Override
	public final RefTransaction committer(PersonIdent committer) {
		this.committer = committer;
		return this;
	}

	@Override
	public final RefTransaction message(String message) {
		this.message = message;
		return this;
	}

	@Override
	public final TransactionResult prepare() throws IOException {
		requireState(State.OPEN);
		Outcome outcome = new Outcome();
		try {
			this.planned = UpdateChecks.plan(this.updates, this::readUnlocked, outcome);
			if (outcome.isClean() && !this.planned.isEmpty()) {
				lockAndCheck(this.planned, outcome);
			}
		}
		catch (IOException | RuntimeException ex) {
			abort();
			throw ex;
		}
		if (outcome.isClean()) {
			this.state = State.PREPARED;
		}
		else {
			abort();
		}
		return outcome.result(this.updates, false);
	}

	@Override
	public final TransactionResult commit() throws IOException {
		if (this.state == State.OPEN) {
			TransactionResult prepared = prepare();
			if (this.state != State.PREPARED) {
				return prepared;
			}
		}
		requireState(State.PREPARED);
		try {
			if (!this.planned.isEmpty()) {
				apply(this.planned, (this.committer != null) ? this.committer : defaultCommitter());
			}
		}
		finally {
			abort();
		}
		return new Outcome().result(this.updates, true);
	}

	@Override
	public final void abort() {
		release();
		this.state = State.CLOSED;
	}

	@Override
	public final void close() {
		if (this.state != State.CLOSED) {
			abort();
		}
	}

	private void requireState(State expected) {
		if (this.state != expected) {
			throw new IllegalStateException("transaction is " + this.state + ", expected " + expected);
		}
	}

}
