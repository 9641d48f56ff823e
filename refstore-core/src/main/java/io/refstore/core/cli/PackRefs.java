package io.refstore.core.cli;

import java.io.IOException;
import java.util.List;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.options.Options;
import io.refstore.core.ref.PackLockedException;
import io.refstore.core.ref.RefStore;

/**
 * {@code refstore pack-refs}: packs refs as {@code git pack-refs} does: by default tags
 * and refs already packed, with {@code --all} every ref except symbolic and per-worktree
 * ones; loose files are removed once packed unless {@code --no-prune}. With
 * {@code --auto}, only when git's heuristics say it is due (see
 * {@link io.refstore.core.ref.StoreStatistics}), and on reftable only the tables the
 * geometric rule picks. Prints nothing.
 */
final class PackRefs implements Command {

	/** git's exit code when the reftable stack is locked. */
	private static final int LOCKED = 255;

	private final String name;

	PackRefs() {
		this("refstore pack-refs");
	}

	/**
	 * @param name the command as its usage names it ({@code refs optimize} is a twin):
	 * git's name, as the drop-in for git's command prints git's usage
	 */
	PackRefs(String name) {
		this.name = name;
	}

	private Options options() {
		return new Options(this.name + " [--all] [--no-prune] [--auto] [--include <pattern>] [--exclude <pattern>]")
			.flag((char) 0, "all", "pack everything")
			.flag((char) 0, "prune", "prune loose refs (default)")
			.flag((char) 0, "auto", "auto-pack refs as needed")
			.value((char) 0, "include", "pattern", "references to include")
			.value((char) 0, "exclude", "pattern", "references to exclude");
	}

	@Override
	public int run(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = options();
		Options.Parsed parsed = options.parse(args);
		if (!parsed.args().isEmpty()) {
			throw CommandFailure.usage(null, options.usage());
		}
		try {
			context.refs()
				.packRefs(new RefStore.PackOptions(parsed.flag("all"), parsed.flag("prune", true), parsed.flag("auto"),
						parsed.values("include"), parsed.values("exclude")));
		}
		catch (PackLockedException ex) {
			// git's pack-refs returns -1 here: exit code 255
			throw CommandFailure.error(ex.getMessage(), LOCKED);
		}
		return 0;
	}

}
