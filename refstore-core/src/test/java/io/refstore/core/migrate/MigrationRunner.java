package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;
import io.refstore.core.testing.GitCli;

/**
 * Runs refstore's migration the two ways a user can: through the API in this JVM
 * ({@link FormatMigrator} on a freshly opened {@link Repository}), or as the
 * {@code refstore refs} command in a process of its own.
 */
final class MigrationRunner {

	/** The isolated environment of {@link GitCli}: no system or user configuration. */
	static final Map<String, String> ENV = GitCli.system().environment();

	private MigrationRunner() {
	}

	/** Migrates (or dry-runs) the repository at {@code dir} through the API. */
	static MigrationReport migrate(Path dir, MigrationOptions options) throws IOException {
		try (Repository repository = Repository.open(dir, ENV)) {
			return new FormatMigrator(repository).migrate(options);
		}
	}

	/** Rolls back to {@code backup} through the API. */
	static MigrationReport rollback(Path dir, Path backup) throws IOException {
		try (Repository repository = Repository.open(dir, ENV)) {
			return new FormatMigrator(repository).rollback(backup);
		}
	}

	/** The format the repository's configuration names, as refstore reads it. */
	static RefFormat format(Path dir) throws IOException {
		try (Repository repository = Repository.open(dir, ENV)) {
			return repository.refFormat();
		}
	}

	/**
	 * Runs {@code refstore refs <args>} from the command jar in {@code dir} and waits for
	 * it.
	 */
	static GitCli.Result refs(Path dir, String... args) {
		String[] all = new String[args.length + 1];
		all[0] = "refs";
		System.arraycopy(args, 0, all, 1, args.length);
		return GitCli.refstore().run(dir, all);
	}

	/**
	 * The command line of {@code refstore refs <args>}, for a process the caller starts
	 * and may kill.
	 */
	static ProcessBuilder refsProcess(Path dir, String... args) {
		GitCli refstore = GitCli.refstore();
		List<String> command = new ArrayList<>(refstore.command());
		command.add("refs");
		command.addAll(List.of(args));
		ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
		builder.environment().putAll(refstore.environment());
		return builder;
	}

}
