package io.refstore.core.cli;

import java.io.IOException;
import java.util.List;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;

/**
 * One {@code refstore} subcommand: parses its arguments, calls the core API, prints.
 */
interface Command {

	/**
	 * Runs the command.
	 * @param context the repository, standard streams and environment
	 * @param args the arguments after the command name
	 * @return the exit code (0 for success)
	 * @throws CommandFailure to end with a message and an exit code, as git's
	 * {@code die()} and {@code usage_with_options()} do
	 * @throws IOException if the repository cannot be read or written
	 */
	int run(CommandContext context, List<String> args) throws CommandFailure, IOException;

	/**
	 * The subcommand a command made of subcommands ({@code refs}, {@code journal}) was
	 * given: its first argument.
	 * @param usage the command's usage, shown with the failure
	 * @throws CommandFailure with the usage if there is none, or it is {@code -h} or
	 * {@code --help}
	 */
	static String subcommand(List<String> args, String usage) throws CommandFailure {
		if (args.isEmpty()) {
			throw CommandFailure.usage("need a subcommand", usage);
		}
		if (args.get(0).equals("-h") || args.get(0).equals("--help")) {
			throw CommandFailure.help(usage);
		}
		return args.get(0);
	}

	/** The failure for a subcommand that is none of a command's. */
	static CommandFailure unknownSubcommand(String name, String usage) {
		return CommandFailure.usage("unknown subcommand: `" + name + "'", usage);
	}

}
