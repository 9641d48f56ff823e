package io.refstore.benchmark;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The command line of the benchmark.
 *
 * @param refs how many refs each repository holds (default 1,000,000)
 * @param runs timed runs per operation and side; slow operations use at most 3 (default
 * 5)
 * @param work where the generated repositories are cached and the results are written
 * (default {@code ${java.io.tmpdir}/refstore-bench})
 * @param launcher the {@code refstore} launcher script, or {@code null} for the one of
 * the checkout that holds the benchmark jar
 * @param timeout the longest one process run may take before it is killed and its side
 * given up (default 30 minutes)
 * @param only the operation ids to run, empty for all
 * @param help whether {@code --help} was given
 */
record BenchmarkOptions(int refs, int runs, Path work, Path launcher, Duration timeout, Set<String> only,
		boolean help) {

	static final int DEFAULT_REFS = 1_000_000;

	static final int DEFAULT_RUNS = 5;

	static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);

	/** Fewer refs leave too few to delete and too little work to time. */
	static final int MIN_REFS = 100;

	static final String USAGE = """
			usage: java -jar refstore-benchmark.jar [--refs <n>] [--runs <r>] [--work <dir>] [--launcher <refstore>]
			                                        [--timeout <min>] [--only <id>[,<id>...]]

			  --refs <n>             refs per repository (default 1000000, at least 100)
			  --runs <r>             timed runs per operation and side, medians reported (default 5; slow
			                         operations at most 3, fast ones at least 15)
			  --work <dir>           cache of generated repositories, and where results-<n>.md goes
			                         (default ${java.io.tmpdir}/refstore-bench)
			  --launcher <refstore>  the refstore launcher script to time (default: ./refstore of the checkout
			                         that holds this jar; it runs that checkout's refstore-core/target/*-cli.jar)
			  --timeout <min>        kill a process run after this many minutes and give up that side of the
			                         operation (default 30)
			  --only <ids>           run only these operations (the ids of the table's first column)
			""";

	/**
	 * Parses the arguments after the jar.
	 * @throws IllegalArgumentException naming the option and the value it could not use
	 */
	static BenchmarkOptions parse(List<String> args) {
		int refs = DEFAULT_REFS;
		int runs = DEFAULT_RUNS;
		Path work = Path.of(System.getProperty("java.io.tmpdir"), "refstore-bench");
		Path launcher = null;
		Duration timeout = DEFAULT_TIMEOUT;
		Set<String> only = new LinkedHashSet<>();
		for (int i = 0; i < args.size(); i++) {
			String arg = args.get(i);
			String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
			if (name.equals("-h") || name.equals("--help")) {
				return new BenchmarkOptions(refs, runs, work, launcher, timeout, only, true);
			}
			String value;
			if (arg.contains("=")) {
				value = arg.substring(arg.indexOf('=') + 1);
			}
			else if (i + 1 < args.size()) {
				value = args.get(++i);
			}
			else {
				throw new IllegalArgumentException("option " + name + " needs a value");
			}
			switch (name) {
				case "--refs" -> refs = positive(name, value, MIN_REFS);
				case "--runs" -> runs = positive(name, value, 1);
				case "--work" -> work = Path.of(value);
				case "--launcher" -> launcher = Path.of(value).toAbsolutePath();
				case "--timeout" -> timeout = Duration.ofMinutes(positive(name, value, 1));
				case "--only" -> only.addAll(ids(value));
				default -> throw new IllegalArgumentException("unknown option " + name);
			}
		}
		return new BenchmarkOptions(refs, runs, work.toAbsolutePath().normalize(), launcher, timeout, Set.copyOf(only),
				false);
	}

	/** Whether the operation with this id is to run. */
	boolean selected(String id) {
		return this.only.isEmpty() || this.only.contains(id);
	}

	private static int positive(String option, String value, int min) {
		int number;
		try {
			number = Integer.parseInt(value.replace("_", "").replace(",", ""));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("option " + option + " expects a whole number, not '" + value + "'");
		}
		if (number < min) {
			throw new IllegalArgumentException("option " + option + " must be at least " + min + ", not " + number);
		}
		return number;
	}

	private static List<String> ids(String value) {
		List<String> ids = new ArrayList<>();
		for (String id : value.split(",")) {
			if (id.isBlank()) {
				throw new IllegalArgumentException("option --only has an empty id in '" + value + "'");
			}
			ids.add(id.strip());
		}
		return ids;
	}

}
