package io.refstore.core.delete;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.refstore.core.ref.InvalidRefNameException;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefName;

/**
 * Which refs a mass deletion removes: the union of explicit names, name prefixes and
 * globs, minus the refs matched by exclusions. Only refs under {@code refs/} can be
 * selected; {@code HEAD} and other root refs never are.
 * <ul>
 * <li><b>Names</b> are full ref names ({@code refs/heads/topic}); a name that does not
 * exist is counted as missing and otherwise ignored.</li>
 * <li><b>Prefixes</b> are compared byte for byte: {@code refs/heads/tmp} also selects
 * {@code refs/heads/tmpx}; end a prefix with a slash to select one directory.</li>
 * <li><b>Globs</b> and <b>exclusions</b> are {@code for-each-ref} patterns
 * ({@link RefPattern}): a prefix ending at a slash, or a wildmatch glob such as
 * {@code refs/tags/v1.*} or {@code refs/pull/**}.</li>
 * </ul>
 * <b>Criteria</b> narrow what these select (all of them must hold):
 * <ul>
 * <li><b>namespaces</b>: only refs under one of them ({@code refs/heads/}); given alone,
 * a namespace selects its refs;</li>
 * <li><b>merged into</b> a commit: only refs whose commit (through annotated tags) that
 * commit reaches, as {@code for-each-ref --merged} lists them;</li>
 * <li><b>older than</b> a time: only refs whose creator date (the tagger's date of an
 * annotated tag, the committer's date of a commit: git's {@code creatordate}) is before
 * it;</li>
 * <li><b>not updated since</b> a time: only refs whose newest reflog entry is before it,
 * or, without a reflog, whose creator date is.</li>
 * </ul>
 * A ref that has no commit or no date (a tree, a blob, a missing object) is never
 * selected by a criterion that needs one. Judging the criteria needs the history
 * ({@link RefDeleter#RefDeleter(io.refstore.core.ref.RefStore, io.refstore.core.graph.CommitHistory)}).
 * Whatever these select, the refs its {@link ProtectedRefs} protect are kept and reported
 * ({@linkplain ProtectedRefs#defaults() the defaults} unless {@link Builder#protect} says
 * otherwise). Every value is checked when it is added; a bad one is refused with an
 * {@link InvalidSelectionException} naming it. Names are kept sorted as UTF-8 byte
 * arrays, so a list of a million names costs their bytes, not a million objects per ref.
 *
 * <p>
 * Immutable and thread-safe once built.
 */
public final class RefSelection {

	/** The namespace every selected ref lives in. */
	static final String REFS = "refs/";

	/**
	 * The most globs, and the most exclusions, one selection takes: 100. Each ref is
	 * matched against every one, so with {@link io.refstore.core.ref.Wildmatch}'s limit
	 * on a pattern's length this bounds the work per ref.
	 */
	public static final int MAX_PATTERNS = 100;

	private final List<String> prefixes;

	private final byte[][] prefixBytes;

	private final List<RefPattern> globs;

	private final List<RefPattern> exclusions;

	private final byte[][] names;

	private final ProtectedRefs protection;

	private final List<String> namespaces;

	private final byte[][] namespaceBytes;

	private final String mergedInto;

	private final ObjectId mergedBase;

	private final long olderThan;

	private final long notUpdatedSince;

	private RefSelection(Builder builder) {
		this.protection = builder.protection;
		this.namespaces = List.copyOf(builder.namespaces);
		this.namespaceBytes = this.namespaces.stream()
			.map((namespace) -> namespace.getBytes(StandardCharsets.UTF_8))
			.toArray(byte[][]::new);
		this.mergedInto = builder.mergedInto;
		this.mergedBase = builder.mergedBase;
		this.olderThan = builder.olderThan;
		this.notUpdatedSince = builder.notUpdatedSince;
		boolean namespacesAlone = builder.prefixes.isEmpty() && builder.globs.isEmpty() && builder.names.isEmpty();
		this.prefixes = namespacesAlone ? List.copyOf(builder.namespaces) : List.copyOf(builder.prefixes);
		this.prefixBytes = new byte[this.prefixes.size()][];
		for (int i = 0; i < this.prefixBytes.length; i++) {
			this.prefixBytes[i] = this.prefixes.get(i).getBytes(StandardCharsets.UTF_8);
		}
		this.globs = List.copyOf(builder.globs);
		this.exclusions = List.copyOf(builder.exclusions);
		byte[][] sorted = builder.names.toArray(new byte[0][]);
		Arrays.sort(sorted, Arrays::compareUnsigned);
		int unique = 0;
		for (int i = 0; i < sorted.length; i++) {
			if (unique == 0 || !Arrays.equals(sorted[unique - 1], sorted[i])) {
				sorted[unique++] = sorted[i];
			}
		}
		this.names = Arrays.copyOf(sorted, unique);
	}

	/** Starts an empty selection. */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * The prefixes, as given (the namespaces when nothing else selects: they are scanned
	 * as prefixes).
	 */
	public List<String> prefixes() {
		return this.prefixes;
	}

	/** The namespaces refs must be in, or none. */
	public List<String> namespaces() {
		return this.namespaces;
	}

	/** The branch refs must be merged into, as named, or {@code null}. */
	public String mergedInto() {
		return this.mergedInto;
	}

	/** The commit {@link #mergedInto()} named when it was resolved, or {@code null}. */
	public ObjectId mergedBase() {
		return this.mergedBase;
	}

	/**
	 * The time (seconds since the epoch) refs' creator dates must be before, or
	 * {@link Long#MIN_VALUE} for no such criterion.
	 */
	public long olderThan() {
		return this.olderThan;
	}

	/**
	 * The time (seconds since the epoch) refs must not have been updated since, or
	 * {@link Long#MIN_VALUE} for no such criterion.
	 */
	public long notUpdatedSince() {
		return this.notUpdatedSince;
	}

	/**
	 * Whether namespaces or criteria narrow the selection: it is then judged in bulk by
	 * {@link CriteriaSelection}, and deleted through its plan.
	 */
	boolean hasCriteria() {
		return needsHistory() || !this.namespaces.isEmpty();
	}

	/** Whether a criterion needs the refs' commits or reflogs. */
	public boolean needsHistory() {
		return this.mergedBase != null || this.olderThan != Long.MIN_VALUE || this.notUpdatedSince != Long.MIN_VALUE;
	}

	/**
	 * Whether the name in {@code name[0 .. length)} is in a namespace, if any is given.
	 */
	boolean inNamespace(byte[] name, int length) {
		if (this.namespaceBytes.length == 0) {
			return true;
		}
		for (byte[] namespace : this.namespaceBytes) {
			if (startsWith(name, length, namespace)) {
				return true;
			}
		}
		return false;
	}

	/** The globs, as given. */
	public List<String> globs() {
		return this.globs.stream().map(RefPattern::text).toList();
	}

	/** The exclusions, as given. */
	public List<String> exclusions() {
		return this.exclusions.stream().map(RefPattern::text).toList();
	}

	/** What is kept whatever the selection says. */
	public ProtectedRefs protection() {
		return this.protection;
	}

	/** How many distinct names were listed. */
	public int nameCount() {
		return this.names.length;
	}

	/**
	 * The listed names as UTF-8 bytes, sorted bytewise and distinct; the caller must not
	 * change them.
	 */
	byte[][] names() {
		return this.names;
	}

	/**
	 * The prefixes to scan for prefix and glob matches: sorted bytewise, none a prefix of
	 * another, so the ranges they cover are disjoint and come in name order one after the
	 * other.
	 */
	List<String> scanPrefixes() {
		List<byte[]> all = new ArrayList<>(Arrays.asList(this.prefixBytes));
		for (RefPattern glob : this.globs) {
			String literal = glob.literalPrefix();
			all.add((REFS.startsWith(literal) ? REFS : literal).getBytes(StandardCharsets.UTF_8));
		}
		all.sort(Arrays::compareUnsigned);
		List<String> minimal = new ArrayList<>();
		byte[] last = null;
		for (byte[] prefix : all) {
			if (last == null || !startsWith(prefix, prefix.length, last)) {
				minimal.add(new String(prefix, StandardCharsets.UTF_8));
				last = prefix;
			}
		}
		return minimal;
	}

	/**
	 * Whether the name in {@code name[0 .. length)} is matched by a prefix or a glob
	 * (exclusions aside).
	 */
	boolean matchesPattern(byte[] name, int length) {
		for (byte[] prefix : this.prefixBytes) {
			if (startsWith(name, length, prefix)) {
				return true;
			}
		}
		for (RefPattern glob : this.globs) {
			if (glob.matches(name, length)) {
				return true;
			}
		}
		return false;
	}

	/** Whether an exclusion matches the name in {@code name[0 .. length)}. */
	boolean excluded(byte[] name, int length) {
		for (RefPattern exclusion : this.exclusions) {
			if (exclusion.matches(name, length)) {
				return true;
			}
		}
		return false;
	}

	private static boolean startsWith(byte[] name, int length, byte[] prefix) {
		return prefix.length <= length && Arrays.equals(name, 0, prefix.length, prefix, 0, prefix.length);
	}

	/** Collects the parts of a selection, checking each as it comes. Not thread-safe. */
	public static final class Builder {

		private final List<String> prefixes = new ArrayList<>();

		private final List<RefPattern> globs = new ArrayList<>();

		private final List<RefPattern> exclusions = new ArrayList<>();

		private final List<byte[]> names = new ArrayList<>();

		private ProtectedRefs protection = ProtectedRefs.defaults();

		private final List<String> namespaces = new ArrayList<>();

		private String mergedInto;

		private ObjectId mergedBase;

		private long olderThan = Long.MIN_VALUE;

		private long notUpdatedSince = Long.MIN_VALUE;

		private Builder() {
		}

		/**
		 * Keeps only refs under {@code namespace} (a slash is added if it lacks one); on
		 * its own, selects them.
		 * @throws InvalidSelectionException if it does not start with {@code refs/} or is
		 * not a valid ref name prefix
		 */
		public Builder namespace(String namespace) {
			String slashed = namespace.endsWith("/") ? namespace : namespace + "/";
			if (!slashed.startsWith(REFS) || slashed.equals(REFS) || RefName.writableViolation(slashed + "x") != null) {
				throw new InvalidSelectionException("namespaces", namespace,
						"it must be a namespace under 'refs/', such as 'refs/heads/'");
			}
			this.namespaces.add(slashed);
			return this;
		}

		/**
		 * Keeps only refs whose commit {@code base} reaches.
		 * @param branch the branch as named, for the plan and its review
		 * @param base its commit when the selection was resolved
		 */
		public Builder mergedInto(String branch, ObjectId base) {
			this.mergedInto = java.util.Objects.requireNonNull(branch, "branch");
			this.mergedBase = java.util.Objects.requireNonNull(base, "base");
			return this;
		}

		/** Keeps only refs whose creator date is before {@code epochSeconds}. */
		public Builder olderThan(long epochSeconds) {
			this.olderThan = epochSeconds;
			return this;
		}

		/** Keeps only refs last updated before {@code epochSeconds}. */
		public Builder notUpdatedSince(long epochSeconds) {
			this.notUpdatedSince = epochSeconds;
			return this;
		}

		/**
		 * Keeps the refs {@code protection} protects instead of
		 * {@linkplain ProtectedRefs#defaults() the defaults};
		 * {@link ProtectedRefs#none()} overrides protection, which the caller must have
		 * allowed.
		 */
		public Builder protect(ProtectedRefs protection) {
			this.protection = java.util.Objects.requireNonNull(protection, "protection");
			return this;
		}

		/**
		 * Selects every ref whose name starts with {@code prefix}.
		 * @throws InvalidSelectionException if it does not start with {@code refs/}
		 */
		public Builder prefix(String prefix) {
			if (!prefix.startsWith(REFS)) {
				throw new InvalidSelectionException("prefix", prefix, "it must start with 'refs/'");
			}
			this.prefixes.add(prefix);
			return this;
		}

		/**
		 * Selects every ref the {@code for-each-ref} pattern matches.
		 * @throws InvalidSelectionException if the pattern is empty, malformed, too long
		 * or can never match, or if it is one more than {@link #MAX_PATTERNS}
		 */
		public Builder glob(String pattern) {
			checkCount("glob", pattern, this.globs);
			this.globs.add(RefPattern.parse("glob", pattern));
			return this;
		}

		/**
		 * Keeps every ref the {@code for-each-ref} pattern matches, whatever else selects
		 * it.
		 * @throws InvalidSelectionException if the pattern is empty, malformed, too long
		 * or can never match, or if it is one more than {@link #MAX_PATTERNS}
		 */
		public Builder exclude(String pattern) {
			checkCount("exclude", pattern, this.exclusions);
			this.exclusions.add(RefPattern.parse("exclude", pattern));
			return this;
		}

		private static void checkCount(String parameter, String pattern, List<RefPattern> patterns) {
			// every ref is matched against every pattern: their number bounds the work
			if (patterns.size() == MAX_PATTERNS) {
				throw new InvalidSelectionException(parameter, pattern,
						"a selection takes at most " + MAX_PATTERNS + " patterns of each kind");
			}
		}

		/**
		 * Selects one ref by its full name.
		 * @throws InvalidSelectionException if the name is not a valid ref name under
		 * {@code refs/}
		 */
		public Builder name(String name) {
			RefName.Rule rule = RefName.writableViolation(name);
			if (rule != null) {
				throw new InvalidSelectionException("name", new InvalidRefNameException(name, rule));
			}
			if (!name.startsWith(REFS)) {
				throw new InvalidSelectionException("name", name, "only refs under 'refs/' can be deleted");
			}
			this.names.add(name.getBytes(StandardCharsets.UTF_8));
			return this;
		}

		/**
		 * The selection.
		 * @throws InvalidSelectionException if nothing at all was selected (exclusions
		 * and criteria alone select nothing)
		 */
		public RefSelection build() {
			if (this.prefixes.isEmpty() && this.globs.isEmpty() && this.names.isEmpty() && this.namespaces.isEmpty()) {
				throw new InvalidSelectionException("selection", "", "no prefix, glob, name or namespace given");
			}
			return new RefSelection(this);
		}

	}

}
