package io.refstore.core.cli;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.env.OutBuffer;
import io.refstore.core.cli.options.Options;
import io.refstore.core.cli.revision.RevParse;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.ref.TransactionResult;

/**
 * {@code refstore symbolic-ref}: reads, writes and deletes symbolic refs, as
 * {@code git symbolic-ref} does.
 *
 * <p>
 * Reading follows a chain of symbolic refs to its last name (unless
 * {@code --no-recurse}); a name that is not a symbolic ref is fatal, or exit 1 with
 * {@code -q}. Writing refuses a target with a bad name and, for {@code HEAD}, a target
 * outside {@code refs/}; as git 2.55, the name of the symbolic ref itself need only be
 * safe as a path ({@code refs/heads/a..b} is written, {@code refs/../x} refused). A
 * refused write or deletion exits 1 with an {@code error:} line, as in git.
 */
final class SymbolicRefCommand implements Command {

	private static Options options() {
		return new Options("refstore symbolic-ref [-m <reason>] <name> <ref>",
				"refstore symbolic-ref [-q] [--short] [--no-recurse] <name>",
				"refstore symbolic-ref --delete [-q] <name>")
			.flag('q', "quiet", "suppress error message for non-symbolic (detached) refs")
			.flag('d', "delete", "delete symbolic ref")
			.flag((char) 0, "short", "shorten ref output")
			.flag((char) 0, "recurse", "recursively dereference (default)")
			.value('m', null, "reason", "reason of the update");
	}

	@Override
	public int run(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = options();
		Options.Parsed parsed = options.parse(args);
		String message = parsed.reflogMessage("Refusing to perform update with empty message");
		List<String> rest = parsed.args();
		if (parsed.flag("delete")) {
			if (rest.size() != 1) {
				throw CommandFailure.usage(null, options.usage());
			}
			return delete(context.refs(), rest.get(0), message);
		}
		if (rest.size() == 1) {
			return read(context, rest.get(0), parsed.flag("quiet"), parsed.flag("short"), parsed.flag("recurse", true));
		}
		if (rest.size() == 2) {
			return write(context.refs(), rest.get(0), rest.get(1), message);
		}
		throw CommandFailure.usage(null, options.usage());
	}

	private static int read(CommandContext context, String name, boolean quiet, boolean shorten, boolean recurse)
			throws CommandFailure, IOException {
		RefStore refs = context.refs();
		Optional<Ref> ref = exactRef(refs, name);
		if (ref.isEmpty() || !(ref.get() instanceof SymbolicRef symbolic)) {
			if (quiet) {
				throw CommandFailure.silent(1);
			}
			throw CommandFailure.fatal("ref " + name + " is not a symbolic ref");
		}
		String target = symbolic.target();
		for (int depth = 1; recurse; depth++) {
			Optional<Ref> next = exactRef(refs, target);
			if (next.isEmpty() || !(next.get() instanceof SymbolicRef nextSymbolic)) {
				break;
			}
			if (depth >= RefStore.MAX_SYMREF_DEPTH) {
				throw CommandFailure.fatal("No such ref: " + name + " (more than " + RefStore.MAX_SYMREF_DEPTH
						+ " symbolic refs in a row, a loop?)");
			}
			target = nextSymbolic.target();
		}
		OutBuffer out = context.out();
		out.write(shorten ? new RevParse(refs).shorten(target, false) : target);
		out.write('\n');
		return 0;
	}

	private static Optional<Ref> exactRef(RefStore refs, String name) throws IOException {
		if (!RefName.isValid(name, true)) {
			return Optional.empty();
		}
		try {
			return refs.exactRef(name);
		}
		catch (IllegalArgumentException ex) {
			// a store may refuse names it cannot hold: such a name is no symbolic ref
			return Optional.empty();
		}
	}

	private static int write(RefStore refs, String name, String target, String message)
			throws CommandFailure, IOException {
		if (name.equals("HEAD") && !target.startsWith("refs/")) {
			throw CommandFailure.fatal("Refusing to point HEAD outside of refs/");
		}
		if (!RefName.isValid(target, true)) {
			throw CommandFailure.fatal("Refusing to set '" + RefName.printable(name) + "' to invalid ref '"
					+ RefName.printable(target) + "'");
		}
		// the name itself is only checked for safety, by the transaction, as in git
		RefUpdate update = RefUpdate.symref(name, target);
		return commit(refs, (message != null) ? update.withMessage(message) : update);
	}

	private static int delete(RefStore refs, String name, String message) throws CommandFailure, IOException {
		Optional<Ref> ref = exactRef(refs, name);
		if (ref.isEmpty() || !ref.get().isSymbolic()) {
			throw CommandFailure.fatal("Cannot delete " + name + ", not a symbolic ref");
		}
		if (name.equals("HEAD")) {
			throw CommandFailure.fatal("deleting '" + name + "' is not allowed");
		}
		RefUpdate update = RefUpdate.delete(name, null).withNoDeref();
		return commit(refs, (message != null) ? update.withMessage(message) : update);
	}

	private static int commit(RefStore refs, RefUpdate update) throws CommandFailure, IOException {
		try (RefTransaction transaction = refs.newTransaction()) {
			TransactionResult result = transaction.add(update).commit();
			if (!result.committed()) {
				throw CommandFailure.error(UpdateRef.describe(result.firstRejection().orElse(result.results().get(0))),
						1);
			}
			return 0;
		}
	}

}
