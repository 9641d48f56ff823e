package io.refstore.benchmark;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One benchmarked operation: a git command, the refstore command that mirrors it, and the
 * core API doing the same work in-process.
 *
 * @param id short unique id, such as {@code for-each-ref/files} (what {@code --only}
 * selects)
 * @param label what the table calls it
 * @param weight how often it runs
 * @param repo the repository it runs in; a mutating operation gets a fresh copy of it for
 * every run
 * @param mutates whether it changes the repository
 * @param gitArgs the arguments after {@code git}
 * @param refstoreArgs the arguments after {@code refstore}
 * @param stdin standard input for both commands, or {@code null}
 * @param check how the outcome is compared with git's
 * @param expectedFormat for {@link Check#REFS}: the ref format the repository must have
 * afterwards
 * @param api the core API doing the same work, or {@code null} where there is none
 * @param env variables added to both processes' environment
 */
record Operation(String id, String label, Weight weight, Path repo, boolean mutates, List<String> gitArgs,
		List<String> refstoreArgs, Path stdin, Check check, String expectedFormat, ApiTask api,
		Map<String, String> env) {

	Operation {
		gitArgs = List.copyOf(gitArgs);
		refstoreArgs = List.copyOf(refstoreArgs);
		env = Map.copyOf(env);
	}

	/** Process start-up: each side runs a command that does no work. */
	static Operation startup(String id, String label, Path repo, List<String> gitArgs, List<String> refstoreArgs,
			Map<String, String> env) {
		return new Operation(id, label, Weight.FAST, repo, false, gitArgs, refstoreArgs, null, Check.NONE, null, null,
				env);
	}

	/** A read-only operation whose printed output must equal git's, byte for byte. */
	static Operation read(String id, String label, Weight weight, Path repo, List<String> args, ApiTask api) {
		return new Operation(id, label, weight, repo, false, args, args, null, Check.OUTPUT, null, api, Map.of());
	}

	/** A mutating operation whose resulting refs must equal git's. */
	static Operation write(String id, String label, Weight weight, Path repo, List<String> args, Path stdin,
			String expectedFormat, ApiTask api) {
		return new Operation(id, label, weight, repo, true, args, args, stdin, Check.REFS, expectedFormat, api,
				Map.of());
	}

	/** How often an operation runs, by how long one run takes. */
	enum Weight {

		/** Milliseconds: many runs, so that the median is stable. */
		FAST,
		/** Up to seconds: the requested runs after one warm-up. */
		NORMAL,
		/**
		 * Many seconds at a million refs, with a fresh repository each time: at most 3
		 * runs.
		 */
		SLOW

	}

	/** What must agree with git. */
	enum Check {

		/** Nothing (process start-up). */
		NONE,
		/** Standard output, byte for byte. */
		OUTPUT,
		/**
		 * Afterwards, {@code git show-ref} lists the same refs, the format is as
		 * expected, and {@code git refs verify} passes.
		 */
		REFS

	}

	/** The in-process work of an operation through the core API. */
	@FunctionalInterface
	interface ApiTask {

		/**
		 * Does the operation's work.
		 * @param repo the repository (a fresh copy for a mutating operation)
		 * @param env the environment the command would see
		 * @param out where the command would print
		 */
		void run(Path repo, Map<String, String> env, OutputStream out) throws IOException;

	}

}
