package io.refstore.core.interop;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.refstore.core.interop.RefModel.Failure;
import io.refstore.core.interop.RefModel.Op;

/**
 * One {@code update-ref --stdin} session: its commands, their bytes (text or {@code -z}
 * form) and what git 2.39 answers, found by replaying git's session state machine over a
 * {@link RefModel}: an update before {@code start} opens an implicit transaction
 * committed at end of input, {@code start} after {@code commit} or {@code abort} opens
 * the next one, a started transaction left open at end of input is aborted, and the first
 * error ends the session with exit code 128 and no further command read. Not thread-safe.
 */
final class StdinSession {

	/** A command line of the session. */
	sealed interface Command permits Start, Prepare, Commit, Abort, Update, Raw {

	}

	record Start() implements Command {

	}

	record Prepare() implements Command {

	}

	record Commit() implements Command {

	}

	record Abort() implements Command {

	}

	/**
	 * An update, preceded by {@code option no-deref} if its op does not dereference;
	 * {@code zeroAsEmpty} spells a zero old value as the empty string (text form only),
	 * {@code quote} C-quotes the name (text form only), and {@code invalidName} marks a
	 * name git must refuse while parsing.
	 */
	record Update(Op op, boolean zeroAsEmpty, boolean quote, boolean invalidName) implements Command {

	}

	/**
	 * Bytes the generator writes as they are (a command git must refuse), with the
	 * failure they cause.
	 */
	record Raw(byte[] bytes, Failure failure) implements Command {

	}

	/**
	 * What git answers: the exact standard output, the exit code and the refs afterwards.
	 */
	record Outcome(byte[] stdout, int exitCode, Failure failure, int committed, RefModel after) {

	}

	private enum State {

		OPEN, STARTED, PREPARED, CLOSED

	}

	private final List<Command> commands = new ArrayList<>();

	private final boolean nulTerminated;

	private final String message;

	StdinSession(boolean nulTerminated, String message) {
		this.nulTerminated = nulTerminated;
		this.message = message;
	}

	StdinSession add(Command command) {
		this.commands.add(command);
		return this;
	}

	List<Command> commands() {
		return this.commands;
	}

	boolean nulTerminated() {
		return this.nulTerminated;
	}

	/** The arguments after the command name. */
	List<String> arguments() {
		List<String> args = new ArrayList<>(List.of("update-ref"));
		if (this.message != null) {
			args.add("-m");
			args.add(this.message);
		}
		args.add("--stdin");
		if (this.nulTerminated) {
			args.add("-z");
		}
		return args;
	}

	/** The session's standard input. */
	byte[] input() {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (Command command : this.commands) {
			out.writeBytes(render(command));
		}
		return out.toByteArray();
	}

	private byte[] render(Command command) {
		char end = this.nulTerminated ? '\0' : '\n';
		String text;
		if (command instanceof Update update) {
			text = renderUpdate(update, end);
		}
		else if (command instanceof Raw raw) {
			return raw.bytes();
		}
		else {
			text = keyword(command) + end;
		}
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static String keyword(Command command) {
		if (command instanceof Start) {
			return "start";
		}
		if (command instanceof Prepare) {
			return "prepare";
		}
		return (command instanceof Commit) ? "commit" : "abort";
	}

	private String renderUpdate(Update update, char end) {
		Op op = update.op();
		String kind = op.kind().name().toLowerCase(Locale.ROOT);
		String name = (update.quote() && !this.nulTerminated) ? CQuote.quote(op.name()) : op.name();
		StringBuilder line = new StringBuilder();
		if (op.noDeref()) {
			line.append("option no-deref").append(end);
		}
		line.append(kind).append(' ').append(name);
		String old = (op.oldId() != null && op.oldId().equals(RefModel.ZERO) && update.zeroAsEmpty()) ? "" : op.oldId();
		if (this.nulTerminated) {
			line.append('\0');
			if (op.kind() == Op.Kind.UPDATE || op.kind() == Op.Kind.CREATE) {
				line.append(op.newId()).append('\0');
			}
			if (op.kind() != Op.Kind.CREATE) {
				line.append((op.oldId() == null) ? "" : op.oldId()).append('\0');
			}
			return line.toString();
		}
		if (op.kind() == Op.Kind.UPDATE || op.kind() == Op.Kind.CREATE) {
			line.append(' ').append(op.newId());
		}
		if (old != null) {
			line.append(' ').append(old);
		}
		return line.append('\n').toString();
	}

	/**
	 * Replays the session as git does on a copy of {@code before}.
	 */
	Outcome simulate(RefModel before) {
		Replay replay = new Replay(before.copy());
		for (Command command : this.commands) {
			Failure failure = replay.step(command);
			if (failure != null) {
				return new Outcome(replay.out.toByteArray(), 128, failure, replay.committed, replay.model);
			}
		}
		Failure failure = replay.end();
		return new Outcome(replay.out.toByteArray(), (failure != null) ? 128 : 0, failure, replay.committed,
				replay.model);
	}

	/** The state of one replay. */
	private static final class Replay {

		private final RefModel model;

		private final ByteArrayOutputStream out = new ByteArrayOutputStream();

		private final List<Op> pending = new ArrayList<>();

		private State state = State.OPEN;

		private int committed;

		Replay(RefModel model) {
			this.model = model;
		}

		/** Runs one command; returns the failure that ends the session, or null. */
		Failure step(Command command) {
			if (command instanceof Raw raw) {
				return raw.failure();
			}
			State target = target(command);
			Failure protocol = protocolError(this.state, target);
			if (protocol != null) {
				return protocol;
			}
			if (this.state == State.CLOSED) {
				this.pending.clear();
			}
			if (this.state == State.CLOSED || target.ordinal() >= this.state.ordinal()) {
				this.state = target;
			}
			return run(command);
		}

		private Failure run(Command command) {
			if (command instanceof Update update) {
				if (update.invalidName()) {
					return Failure.INVALID_NAME;
				}
				Op op = update.op();
				this.pending.add(update.op());
				return null;
			}
			if (command instanceof Prepare) {
				Failure failure = this.model.check(this.pending);
				if (failure == null) {
					report("prepare");
				}
				return failure;
			}
			if (command instanceof Commit) {
				return commit(true);
			}
			report((command instanceof Start) ? "start" : "abort");
			return null;
		}

		private Failure commit(boolean explicit) {
			Failure failure = this.model.commit(this.pending);
			if (failure == null) {
				this.committed++;
				if (explicit) {
					report("commit");
				}
			}
			return failure;
		}

		/** End of input: an implicit transaction commits, a started one is aborted. */
		Failure end() {
			return (this.state == State.OPEN) ? commit(false) : null;
		}

		private void report(String command) {
			this.out.writeBytes((command + ": ok\n").getBytes(StandardCharsets.UTF_8));
		}

		private static State target(Command command) {
			if (command instanceof Start) {
				return State.STARTED;
			}
			if (command instanceof Prepare) {
				return State.PREPARED;
			}
			if (command instanceof Commit || command instanceof Abort) {
				return State.CLOSED;
			}
			return State.OPEN;
		}

	}

	/** git's rules for moving between states: which command may follow which. */
	private static Failure protocolError(State state, State target) {
		return switch (state) {
			case OPEN -> null;
			case STARTED -> (target == State.STARTED) ? Failure.PROTOCOL : null;
			case PREPARED -> (target != State.CLOSED) ? Failure.PROTOCOL : null;
			case CLOSED -> (target != State.STARTED) ? Failure.PROTOCOL : null;
		};
	}

}
