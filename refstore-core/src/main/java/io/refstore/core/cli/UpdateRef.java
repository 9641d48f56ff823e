package io.refstore.core.cli;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.options.Options;
import io.refstore.core.cli.revision.RevParse;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.Rejection;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.ref.UpdateResult;
import io.refstore.core.txn.UpdateChecks;

/**
 * {@code refstore update-ref}: sets, checks and deletes one ref, or many atomically with
 * {@code --stdin} (see {@link UpdateRefStdin}), as {@code git update-ref} does.
 *
 * <p>
 * Values are full hex ids or ref names (expanded as git expands them). An empty or
 * all-zero old value means "must not exist"; for {@code -d} an all-zero old value means
 * "do not check", as in git. A refused update is fatal (exit 128); a refused deletion is
 * an error (exit 1), as in git.
 */
final class UpdateRef implements Command {

	private static Options options() {
		// git's synopsis as git prints it: scripts written for git look for its words
		return new Options("refstore update-ref [<options>] -d <refname> [<old-oid>]",
				"refstore update-ref [<options>]    <refname> <new-oid> [<old-oid>]",
				"refstore update-ref [<options>] --stdin [-z] [--batch-updates]")
			.value('m', null, "reason", "reason of the update")
			.flag('d', null, "delete the reference")
			.flag((char) 0, "no-deref", "update <refname> not the one it points to")
			.flag((char) 0, "deref", "opposite of --no-deref")
			.noNegation("deref")
			.flag('z', null, "stdin has NUL-terminated arguments")
			.flag((char) 0, "stdin", "read updates from stdin")
			.flag((char) 0, "create-reflog", "create a reflog")
			.flag('0', "batch-updates", "batch reference updates");
	}

	@Override
	public int run(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = options();
		Options.Parsed parsed = options.parse(args);
		String message = parsed.reflogMessage("Refusing to perform update with empty message.");
		boolean delete = parsed.flag("d");
		boolean noDeref = parsed.flag("no-deref") && !parsed.flag("deref");
		boolean createReflog = parsed.flag("create-reflog");
		List<String> rest = parsed.args();
		if (parsed.flag("stdin")) {
			if (delete || !rest.isEmpty()) {
				throw CommandFailure.usage(null, options.usage());
			}
			return new UpdateRefStdin(context, parsed.flag("z"), noDeref, message, createReflog)
				.batchUpdates(parsed.flag("batch-updates"))
				.run();
		}
		if (parsed.flag("batch-updates")) {
			throw CommandFailure.fatal("--batch-updates can only be used with --stdin");
		}
		if (parsed.flag("z") || rest.size() < (delete ? 1 : 2) || rest.size() > (delete ? 2 : 3)) {
			throw CommandFailure.usage(null, options.usage());
		}
		RefStore refs = context.refs();
		RevParse revParse = new RevParse(refs, context::objects);
		String name = rest.get(0);
		String oldValue = rest.size() > (delete ? 1 : 2) ? rest.get(rest.size() - 1) : null;
		ObjectId newId = delete ? null : value(revParse, rest.get(1), "%s: not a valid SHA1");
		ObjectId oldId = (oldValue == null) ? null : oldValue.isEmpty() ? refs.hashAlgorithm().zeroId()
				: value(revParse, oldValue, "%s: not a valid old SHA1");
		if (delete) {
			return delete(refs, name, (oldId != null && !oldId.isZero()) ? oldId : null, noDeref, message,
					createReflog);
		}
		// a bad name is refused by the transaction, in git's words (its rules are git's,
		// and so is a file below
		// the git directory that holds no ref, such as a loose object: "reference
		// broken")
		RefUpdate update = RefUpdate.update(name, newId, oldId);
		UpdateResult rejected = commit(refs, noDeref ? update.withNoDeref() : update, message, createReflog);
		if (rejected != null) {
			throw CommandFailure.fatal("update_ref failed for ref '" + name + "': " + reason(rejected, false));
		}
		return 0;
	}

	/**
	 * {@link #describe}, but a refused name as given (git prints it so, its control
	 * characters made '?').
	 */
	private static String reason(UpdateResult rejected, boolean removes) {
		if (rejected.rejection() == Rejection.INVALID_NAME) {
			String refusal = UpdateChecks.nameRefusal(rejected.update().name(), removes);
			if (refusal != null) {
				return refusal;
			}
		}
		return describe(rejected);
	}

	private static ObjectId value(RevParse revParse, String value, String error) throws CommandFailure, IOException {
		Optional<ObjectId> id = revParse.resolve(value);
		if (id.isEmpty()) {
			throw CommandFailure.fatal(String.format(error, value));
		}
		return id.get();
	}

	private static int delete(RefStore refs, String name, ObjectId expected, boolean noDeref, String message,
			boolean createReflog) throws CommandFailure, IOException {
		RefUpdate update = RefUpdate.delete(name, expected);
		UpdateResult rejected = commit(refs, noDeref ? update.withNoDeref() : update, message, createReflog);
		if (rejected != null) {
			throw CommandFailure.error(reason(rejected, true), 1);
		}
		return 0;
	}

	/** Commits one update; returns its rejection, or {@code null} if it was applied. */
	private static UpdateResult commit(RefStore refs, RefUpdate update, String message, boolean createReflog)
			throws IOException {
		try (RefTransaction transaction = refs.newTransaction()) {
			if (message != null) {
				transaction.message(message);
			}
			if (createReflog) {
				transaction.createReflogs();
			}
			TransactionResult result = transaction.add(update).commit();
			return result.committed() ? null : result.firstRejection().orElse(result.results().get(0));
		}
	}

	/** The backend's git-style explanation of a rejection, or one made from its kind. */
	static String describe(UpdateResult rejected) {
		if (rejected.message() != null) {
			return rejected.message();
		}
		String kind = (rejected.rejection() != null)
				? rejected.rejection().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') : "not applied";
		return "cannot update ref '" + rejected.update().name() + "': " + kind;
	}

}
