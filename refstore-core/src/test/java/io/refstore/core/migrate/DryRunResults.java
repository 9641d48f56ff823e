package io.refstore.core.migrate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.refstore.core.io.FileMoves;
import io.refstore.core.ref.RefFormat;

/**
 * Puts a dry run's result into a git directory by hand, the way an operator would who
 * wants to look at it with git: the old store removed, the new one moved in, the format
 * switched with {@code git config}. Only git's own commands and plain file moves are
 * used, so what git then reads is what the dry run built.
 */
final class DryRunResults {

	private DryRunResults() {
	}

	/**
	 * @param gitDir a copy of a repository in which a dry run to {@code target} has left
	 * its result
	 * @param resultName the name of the result's directory in {@code gitDir}
	 * ({@code ref_migration.XXXXXX})
	 * @param before the view of the source, whose root refs are removed with the old
	 * store
	 */
	static void swapIn(Path gitDir, String resultName, RefFormat target, GitView before) {
		Path result = gitDir.resolve(resultName);
		try {
			if (target == RefFormat.REFTABLE) {
				removeFilesStore(gitDir, before);
				Files.move(result.resolve("reftable"), gitDir.resolve("reftable"));
				Files.createDirectories(gitDir.resolve("refs"));
				Files.writeString(gitDir.resolve("refs/heads"), "this repository uses the reftable format\n",
						StandardCharsets.US_ASCII);
				Files.writeString(gitDir.resolve("HEAD"), "ref: refs/heads/.invalid\n", StandardCharsets.US_ASCII);
				config(gitDir, "core.repositoryformatversion", "1");
				config(gitDir, "extensions.refStorage", "reftable");
			}
			else {
				FileMoves.deleteTree(gitDir.resolve("reftable"));
				Files.delete(gitDir.resolve("refs/heads"));
				Files.delete(gitDir.resolve("HEAD"));
				DirSnapshot.copy(result, gitDir);
				MigrationRepos.NEWEST.ok(gitDir, "config", "--file", gitDir.resolve("config").toString(), "--unset",
						"extensions.refStorage");
			}
			FileMoves.deleteTree(result);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void removeFilesStore(Path gitDir, GitView before) throws IOException {
		FileMoves.deleteTree(gitDir.resolve("packed-refs"));
		FileMoves.deleteTree(gitDir.resolve("logs"));
		FileMoves.deleteTree(gitDir.resolve("refs"));
		before.forEachRef()
			.lines()
			.map((line) -> line.substring(0, line.indexOf(' ')))
			.filter((name) -> !name.contains("/"))
			.forEach((root) -> gitDir.resolve(root).toFile().delete());
	}

	private static void config(Path gitDir, String key, String value) {
		MigrationRepos.NEWEST.ok(gitDir, "config", "--file", gitDir.resolve("config").toString(), key, value);
	}

}
