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

}
