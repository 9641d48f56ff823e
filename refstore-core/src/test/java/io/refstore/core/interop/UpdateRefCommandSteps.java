package io.refstore.core.interop;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.refstore.core.interop.RefModel.Failure;
import io.refstore.core.interop.RefModel.Op;
import io.refstore.core.interop.RefModel.Op.Kind;
import io.refstore.core.interop.SessionGenerator.CommandStep;
import io.refstore.core.interop.StdinSession.Update;

/**
 * Draws one-update {@code update-ref} commands without {@code --stdin}:
 * {@code update-ref [-m <msg>] [--no-deref] <ref> <new> [<old>]} and
 * {@code update-ref [-m <msg>] [--no-deref]
 * -d <ref> [<old>]}, meant to succeed or to fail, and the refused empty message
 * {@code -m ""}. git exits with 128 when an update fails and with 1 when a deletion
 * fails. Stateless.
 */
final class UpdateRefCommandSteps {

	private static final List<Failure> FAILURES = List.of(Failure.STALE_OLD, Failure.CREATE_EXISTS, Failure.MISSING_REF,
			Failure.NAME_CONFLICT_EXISTING, Failure.NON_COMMIT_ON_BRANCH, Failure.MISSING_OBJECT, Failure.INVALID_NAME);

	private UpdateRefCommandSteps() {
	}

	static CommandStep next(Random random, OpGenerator ops, RefModel model) {
		if (random.nextInt(25) == 0) {
			List<String> args = List.of("update-ref", "-m", "", "refs/heads/main", ops.commit());
			return new CommandStep(args, 128, Failure.USAGE, false, model.copy());
		}
		for (int attempt = 0; attempt < 20; attempt++) {
			boolean fail = random.nextInt(3) == 0;
			List<Update> updates = fail ? ops.failing(model, ops.pick(FAILURES)) : ops.good(model);
			if (updates == null || updates.isEmpty() || (fail && updates.size() != 1)) {
				continue;
			}
			Update update = updates.get(0);
			Op op = update.op();
			boolean deleteWithoutOld = op.kind() == Kind.DELETE && RefModel.ZERO.equals(op.oldId());
			if (op.kind() == Kind.VERIFY || deleteWithoutOld || (update.invalidName() && op.kind() == Kind.DELETE)) {
				continue;
			}
			RefModel after = model.copy();
			Failure failure = update.invalidName() ? Failure.INVALID_NAME : after.commit(List.of(op));
			int exit = (failure == null) ? 0 : (op.kind() == Kind.DELETE) ? 1 : 128;
			return new CommandStep(arguments(random, op), exit, failure, failure == null, after);
		}
		return new CommandStep(List.of("update-ref", "-d", "refs/heads/never-created"), 0, null, false, model.copy());
	}

	private static List<String> arguments(Random random, Op op) {
		List<String> args = new ArrayList<>(List.of("update-ref"));
		if (random.nextBoolean()) {
			args.add("-m");
			args.add("single " + random.nextInt(1000));
		}
		if (op.noDeref()) {
			args.add("--no-deref");
		}
		if (op.kind() == Kind.DELETE) {
			args.add("-d");
			args.add(op.name());
		}
		else {
			args.add(op.name());
			args.add(op.newId());
		}
		String old = (op.kind() == Kind.CREATE) ? RefModel.ZERO : op.oldId();
		if (old != null) {
			args.add(old.equals(RefModel.ZERO) && random.nextBoolean() ? "" : old);
		}
		return args;
	}

}
