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
 * @param git what git runs
 * @param refstore what refstore runs (the process, and its code in-process); its setup
 * also prepares the core API's copy
 * @param check how the outcome is compared with git's
 * @param expectedFormat for {@link Check#REFS}: the ref format the repository must have
 * afterwards
 * @param api the core API doing the same work, or {@code null} where there is none
 * @param env variables added to both processes' environment
 */
record Operation(String id, String label, Weight weight, Path repo, boolean mutates, Invocation git,
		Invocation refstore, Check check, String expectedFormat, ApiTask api, Map<String, String> env) {

	Operation {
		env = Map.copyOf(env);
		if (!mutates && (git.setup() != null || refstore.setup() != null)) {
			throw new IllegalArgumentException(id + ": only a mutating operation has a fresh copy to set up");
		}
	}

	/** Process start-up: each side runs a command that does no work. */
	static Operation startup(String id, String label, Path repo, List<String> gitArgs, List<String> refstoreArgs,
			Map<String, String> env) {
		return new Operation(id, label, Weight.FAST, repo, false, new Invocation(gitArgs, null),
				new Invocation(refstoreArgs, null), Check.NONE, null, null, env);
	}

	/** A read-only operation whose printed output must equal git's, byte for byte. */
	static Operation read(String id, String label, Weight weight, Path repo, List<String> args, ApiTask api) {
		return new Operation(id, label, weight, repo, false, new Invocation(args, null), new Invocation(args, null),
				Check.OUTPUT, null, api, Map.of());
	}

	/** A mutating operation whose resulting refs must equal git's. */
	static Operation write(String id, String label, Weight weight, Path repo, List<String> args, Path stdin,
			String expectedFormat, ApiTask api) {
		return write(id, label, weight, repo, new Invocation(args, stdin), new Invocation(args, stdin), expectedFormat,
				api);
	}

	/**
	 * A mutating operation whose sides run different commands (each perhaps after a setup
	 * of its own) and whose resulting refs must equal git's.
	 */
	static Operation write(String id, String label, Weight weight, Path repo, Invocation git, Invocation refstore,
			String expectedFormat, ApiTask api) {
		return new Operation(id, label, weight, repo, true, git, refstore, Check.REFS, expectedFormat, api, Map.of());
	}

	/**
	 * What one side runs.
	 *
	 * @param args the arguments after {@code git} or {@code refstore}
	 * @param stdin standard input, or {@code null}
	 * @param setup what is done to each fresh copy before the clock starts, or
	 * {@code null}
	 */
	record Invocation(List<String> args, Path stdin, Setup setup) {

		Invocation {
			args = List.copyOf(args);
		}

		Invocation(List<String> args, Path stdin) {
			this(args, stdin, null);
		}

	}

	/**
	 * Work done on a side's fresh copy before its timed run, such as the deletion that a
	 * timed restore undoes.
	 */
	@FunctionalInterface
	interface Setup {

		/**
		 * Prepares {@code repo}.
		 * @param args the invocation's arguments
		 * @return the arguments of the timed run: {@code args}, or {@code args} and a
		 * name the setup has just learnt (such as a backup's)
		 */
		List<String> prepare(Path repo, List<String> args, Tools tools) throws IOException;

	}

	/** The commands a {@link Setup} runs: each must succeed. */
	interface Tools {

		/** Runs git in {@code repo}; returns its standard output. */
		String git(Path repo, String... args);

		/** Runs the refstore command in {@code repo}; returns its standard output. */
		String refstore(Path repo, String... args);

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
