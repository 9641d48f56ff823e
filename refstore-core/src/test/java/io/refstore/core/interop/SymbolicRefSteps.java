package io.refstore.core.interop;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.refstore.core.interop.RefModel.Failure;
import io.refstore.core.interop.RefModel.Value;
import io.refstore.core.interop.SessionGenerator.CommandStep;

/**
 * Draws {@code symbolic-ref} commands: pointing {@code HEAD} at a branch (which may not
 * exist yet), pointing the other symbolic refs of {@link NamePool#SYMREFS} at branches,
 * tags, remote-tracking refs or at another symbolic ref, reading and deleting them, and
 * the commands git refuses ({@code -d HEAD}, {@code HEAD} outside {@code refs/}, deleting
 * or reading a ref that is not symbolic). Stateless.
 */
final class SymbolicRefSteps {

	private static final NamePool NAMES = NamePool.standard();

	private SymbolicRefSteps() {
	}

	static CommandStep next(Random random, OpGenerator ops, RefModel model, boolean messages) {
		int roll = random.nextInt(100);
		RefModel after = model.copy();
		if (roll < 40) {
			String target = ops.pick(branches());
			after.setSymbolic("HEAD", target);
			return new CommandStep(write(random, messages, "HEAD", target), 0, null, true, after);
		}
		if (roll < 65) {
			String name = ops.pick(NamePool.SYMREFS);
			String target = target(random, ops, name);
			after.setSymbolic(name, target);
			return new CommandStep(write(random, messages, name, target), 0, null, true, after);
		}
		if (roll < 80) {
			return read(random, ops, model);
		}
		if (roll < 90) {
			String name = ops.pick(NamePool.SYMREFS);
			if (model.isSymbolic(name)) {
				after.remove(name);
				return new CommandStep(List.of("symbolic-ref", "-d", name), 0, null, true, after);
			}
		}
		return refused(random, ops, model);
	}

	private static List<String> write(Random random, boolean messages, String name, String target) {
		List<String> args = new ArrayList<>(List.of("symbolic-ref"));
		if (messages && random.nextBoolean()) {
			args.add("-m");
			args.add("symref " + random.nextInt(1000));
		}
		args.add(name);
		args.add(target);
		return args;
	}

	private static List<String> branches() {
		List<String> branches = new ArrayList<>();
		for (String name : NAMES.names()) {
			if (name.startsWith("refs/heads/")) {
				branches.add(name);
			}
		}
		return branches;
	}

	private static String target(Random random, OpGenerator ops, String name) {
		if (name.equals("refs/remotes/origin/HEAD")) {
			return random.nextBoolean() ? "refs/remotes/origin/main" : "refs/remotes/origin/topic";
		}
		// only s1 may point at another symbolic ref, and only at s0, so chains stay short
		// and acyclic
		if (name.equals("refs/sym/s1") && random.nextInt(3) == 0) {
			return "refs/sym/s0";
		}
		List<String> targets = new ArrayList<>();
		for (String candidate : NAMES.names()) {
			if (candidate.startsWith("refs/")) {
				targets.add(candidate);
			}
		}
		return ops.pick(targets);
	}

	private static CommandStep read(Random random, OpGenerator ops, RefModel model) {
		List<String> names = new ArrayList<>(NamePool.SYMREFS);
		names.add("HEAD");
		names.add("refs/heads/main");
		String name = ops.pick(names);
		boolean symbolic = model.isSymbolic(name);
		Failure failure = symbolic ? null : Failure.SYMREF_COMMAND;
		int roll = random.nextInt(3);
		if (roll == 0) {
			return new CommandStep(List.of("symbolic-ref", "-q", name), symbolic ? 0 : 1, failure, false, model.copy());
		}
		if (roll == 1 && name.equals("HEAD")) {
			return new CommandStep(List.of("symbolic-ref", "--short", name), symbolic ? 0 : 128, failure, false,
					model.copy());
		}
		return new CommandStep(List.of("symbolic-ref", name), symbolic ? 0 : 128, failure, false, model.copy());
	}

	private static CommandStep refused(Random random, OpGenerator ops, RefModel model) {
		int roll = random.nextInt(3);
		if (roll == 0) {
			return new CommandStep(List.of("symbolic-ref", "-d", "HEAD"), 128, Failure.SYMREF_COMMAND, false,
					model.copy());
		}
		if (roll == 1) {
			return new CommandStep(List.of("symbolic-ref", "HEAD", "heads/outside"), 128, Failure.SYMREF_COMMAND, false,
					model.copy());
		}
		String name = ops.pick(NAMES.names());
		Value value = model.get(name);
		if (value != null && value.isSymbolic()) {
			return new CommandStep(List.of("symbolic-ref", "-q", name), 0, null, false, model.copy());
		}
		return new CommandStep(List.of("symbolic-ref", "-d", name), 128, Failure.SYMREF_COMMAND, false, model.copy());
	}

}
