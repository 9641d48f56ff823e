package io.refstore.benchmark;

/**
 * The refs of the benchmark repositories: names as a hosting server holds them, fixed by
 * the count alone, so that every run with the same {@code --refs} builds the same
 * repositories.
 *
 * <p>
 * Of {@code n} refs, 6% are branches ({@code refs/heads/main} first), 4% lightweight
 * tags, 5% annotated tags, 45% pull-request heads ({@code refs/pull/<n>/head}) and the
 * rest Gerrit changes ({@code refs/changes/<nn>/<change>/<patch set>}). Ref {@code i}
 * points at commit {@code i + 1} of the fast-import stream; an annotated tag points at
 * its own tag object, which tags that commit. Every name is unique, valid and free of
 * directory/file conflicts. Immutable and thread-safe.
 */
final class RefCorpus {

	/** The kinds of ref, in the order they are generated. */
	enum Kind {

		BRANCH, LIGHTWEIGHT_TAG, ANNOTATED_TAG, PULL, CHANGE

	}

	private static final String[] TOPICS = { "login", "cache", "parser", "docs", "build", "search", "upload", "metrics",
			"billing", "auth", "export", "theme" };

	private static final String[] USERS = { "alice", "bob", "chen", "dana", "emeka", "farah", "goran", "hana" };

	private final int size;

	/** The first index of each kind, and {@link #size} at the end. */
	private final int[] starts;

	RefCorpus(int size) {
		if (size < BenchmarkOptions.MIN_REFS) {
			throw new IllegalArgumentException(
					"a corpus needs at least " + BenchmarkOptions.MIN_REFS + " refs, not " + size);
		}
		this.size = size;
		int branches = size * 6 / 100;
		int lightweight = size * 4 / 100;
		int annotated = size * 5 / 100;
		int pulls = size * 45 / 100;
		this.starts = new int[] { 0, branches, branches + lightweight, branches + lightweight + annotated,
				branches + lightweight + annotated + pulls, size };
	}

	/** How many refs. */
	int size() {
		return this.size;
	}

	/** How many refs of this kind. */
	int count(Kind kind) {
		return this.starts[kind.ordinal() + 1] - this.starts[kind.ordinal()];
	}

	/** The kind of ref {@code i}. */
	Kind kind(int i) {
		checkIndex(i);
		for (Kind kind : Kind.values()) {
			if (i < this.starts[kind.ordinal() + 1]) {
				return kind;
			}
		}
		throw new AssertionError(i);
	}

	/** The full name of ref {@code i}, {@code 0 <= i < size()}. */
	String name(int i) {
		Kind kind = kind(i);
		int k = i - this.starts[kind.ordinal()];
		return switch (kind) {
			case BRANCH -> branch(k);
			case LIGHTWEIGHT_TAG -> "refs/tags/build-" + (1000 + k);
			case ANNOTATED_TAG -> "refs/tags/" + version(k);
			case PULL -> "refs/pull/" + (k + 1) + "/head";
			case CHANGE -> change(k);
		};
	}

	/**
	 * The short name of annotated tag {@code i} (the {@code tag} header of its object),
	 * such as {@code v1.2.3}.
	 * @throws IllegalArgumentException if ref {@code i} is no annotated tag
	 */
	String tagName(int i) {
		if (kind(i) != Kind.ANNOTATED_TAG) {
			throw new IllegalArgumentException("ref " + i + " (" + name(i) + ") is not an annotated tag");
		}
		return version(i - this.starts[Kind.ANNOTATED_TAG.ordinal()]);
	}

	/**
	 * The ref that single lookups ask for: a pull request in the middle of the largest
	 * namespace.
	 */
	int lookupIndex() {
		return this.starts[Kind.PULL.ordinal()] + count(Kind.PULL) / 2;
	}

	/**
	 * The refs that the delete benchmark removes: {@code count} refs spread evenly over
	 * every namespace, never {@code refs/heads/main} (ref 0, which HEAD names).
	 * @return ascending ref indexes
	 */
	int[] deleteIndexes(int count) {
		if (count < 1 || count >= this.size) {
			throw new IllegalArgumentException("cannot delete " + count + " of " + this.size + " refs");
		}
		int[] indexes = new int[count];
		long stride = this.size / count;
		for (int j = 0; j < count; j++) {
			indexes[j] = (int) (1 + j * stride);
		}
		return indexes;
	}

	private static String branch(int k) {
		if (k == 0) {
			return "refs/heads/main";
		}
		return switch (k % 4) {
			case 1 -> "refs/heads/feature/" + TOPICS[(k / 4) % TOPICS.length] + "-" + k;
			case 2 ->
				"refs/heads/users/" + USERS[(k / 4) % USERS.length] + "/" + TOPICS[(k / 3) % TOPICS.length] + "-" + k;
			case 3 -> "refs/heads/release/" + (k / 100) + "." + (k % 100);
			default -> "refs/heads/bugfix/BUG-" + (10000 + k);
		};
	}

	private static String version(int k) {
		return "v" + (k / 10000) + "." + ((k / 100) % 100) + "." + (k % 100);
	}

	private static String change(int k) {
		int change = 10000 + k / 3;
		int twoDigits = change % 100;
		return "refs/changes/" + ((twoDigits < 10) ? "0" : "") + twoDigits + "/" + change + "/" + (k % 3 + 1);
	}

	private void checkIndex(int i) {
		if (i < 0 || i >= this.size) {
			throw new IndexOutOfBoundsException("ref " + i + " of " + this.size);
		}
	}

}
