package io.refstore.core.delete;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Refs a mass deletion never removes, whatever its selection says: what hosting software
 * depends on and a user would not think of when deleting {@code refs/**}. A selection
 * keeps the refs it protects and reports them ({@link Report}), so a dry run and a plan
 * show what was kept and by which pattern.
 *
 * <p>
 * Each entry is a {@code for-each-ref} pattern ({@link RefPattern}: a prefix ending at a
 * slash, or a wildmatch glob whose {@code *} never crosses a slash), or the word
 * {@value #HEAD}: the ref {@code HEAD} points to, and any ref that one points to in turn,
 * read when the selection is streamed (a detached {@code HEAD} protects nothing).
 *
 * <p>
 * The {@linkplain #defaults() defaults} are written to cover each namespace whole, since
 * their layouts nest: GitLab's {@code refs/keep-around/<id>}, Gerrit's review data
 * {@code refs/changes/<nn>/<change>/meta} (two levels below {@code refs/changes/}, which
 * {@code refs/changes/*}{@code /meta} would miss), notes ({@code refs/notes/commits},
 * also nested), Gerrit's {@code refs/meta/config}, and {@code HEAD}'s branch.
 *
 * <p>
 * Immutable and thread-safe.
 */
public final class ProtectedRefs {

	/** The entry that protects the ref {@code HEAD} points to. */
	public static final String HEAD = "HEAD";

	/** What is protected unless configured otherwise. */
	public static final List<String> DEFAULT_PATTERNS = List.of("refs/keep-around/**", "refs/changes/**/meta",
			"refs/notes/**", "refs/meta/**", HEAD);

	private static final ProtectedRefs NONE = new ProtectedRefs(List.of(), List.of(), false);

	private static final ProtectedRefs DEFAULTS = of(DEFAULT_PATTERNS);

	private final List<String> entries;

	private final List<RefPattern> patterns;

	/**
	 * Each pattern's literal prefix as bytes: a name that does not start with it cannot
	 * match.
	 */
	private final byte[][] literals;

	private final boolean head;

	private ProtectedRefs(List<String> entries, List<RefPattern> patterns, boolean head) {
		this.entries = List.copyOf(entries);
		this.patterns = List.copyOf(patterns);
		this.literals = new byte[patterns.size()][];
		for (int i = 0; i < this.literals.length; i++) {
			this.literals[i] = patterns.get(i).literalPrefix().getBytes(StandardCharsets.UTF_8);
		}
		this.head = head;
	}

	/** {@link #DEFAULT_PATTERNS}. */
	public static ProtectedRefs defaults() {
		return DEFAULTS;
	}

	/** Nothing protected: an override, which the caller must have allowed. */
	public static ProtectedRefs none() {
		return NONE;
	}

	/**
	 * The protection of {@code entries}: patterns and {@value #HEAD}, duplicates dropped.
	 * @throws InvalidSelectionException naming the entry ({@code protect}) that is empty,
	 * malformed or can never match a ref under {@code refs/}
	 */
	public static ProtectedRefs of(Collection<String> entries) {
		List<String> kept = new ArrayList<>();
		List<RefPattern> patterns = new ArrayList<>();
		boolean head = false;
		for (String entry : entries) {
			if (kept.contains(entry)) {
				continue;
			}
			if (entry.equals(HEAD)) {
				head = true;
			}
			else {
				patterns.add(RefPattern.parse("protect", entry));
			}
			kept.add(entry);
		}
		return new ProtectedRefs(kept, patterns, head);
	}

	/** These entries and {@code entry} too. */
	public ProtectedRefs plus(String entry) {
		List<String> more = new ArrayList<>(this.entries);
		more.add(entry);
		return of(more);
	}

	/** The entries, in the order given. */
	public List<String> entries() {
		return this.entries;
	}

	/** Whether nothing is protected. */
	public boolean isEmpty() {
		return this.entries.isEmpty();
	}

	/** Whether {@code HEAD}'s branch is protected. */
	boolean protectsHead() {
		return this.head;
	}

	/**
	 * The entry that protects a ref, as a plan would keep it, or {@code null} if none
	 * does: for a console that shows which refs a deletion would keep before one is
	 * planned.
	 * @param name the full ref name
	 * @param headChain the refs {@code HEAD} leads to (the branch it names, and on), read
	 * by the caller; ignored unless {@value #HEAD} is protected
	 */
	public String protecting(String name, List<String> headChain) {
		byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
		byte[][] chain = new byte[this.head ? headChain.size() : 0][];
		for (int i = 0; i < chain.length; i++) {
			chain[i] = headChain.get(i).getBytes(StandardCharsets.UTF_8);
		}
		return protecting(bytes, bytes.length, chain);
	}

	/**
	 * The entry that protects the name in {@code name[0 .. length)}, or {@code null} if
	 * none does.
	 * @param headChain the refs {@code HEAD} leads to, as read for this selection (empty
	 * if not protected)
	 */
	String protecting(byte[] name, int length, byte[][] headChain) {
		for (int i = 0; i < this.literals.length; i++) {
			byte[] literal = this.literals[i];
			if (literal.length <= length && Arrays.equals(name, 0, literal.length, literal, 0, literal.length)
					&& this.patterns.get(i).matches(name, length)) {
				return this.patterns.get(i).text();
			}
		}
		for (byte[] target : headChain) {
			if (Arrays.equals(name, 0, length, target, 0, target.length)) {
				return HEAD;
			}
		}
		return null;
	}

	@Override
	public String toString() {
		return this.entries.toString();
	}

	/**
	 * The refs a selection picked that protection kept.
	 *
	 * @param count how many
	 * @param byPattern how many each entry kept, in the order of the entries (entries
	 * that kept nothing absent)
	 * @param sample the first kept refs with the entry that kept each, in the order found
	 */
	public record Report(long count, Map<String, Long> byPattern, List<Kept> sample) {

		/** Nothing kept. */
		public static final Report NONE = new Report(0, Map.of(), List.of());

		public Report {
			byPattern = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byPattern));
			sample = List.copyOf(sample);
		}

		/**
		 * One kept ref.
		 *
		 * @param name its name
		 * @param pattern the entry that protects it
		 */
		public record Kept(String name, String pattern) {

		}

	}

	/** Counts kept refs while a selection is streamed. Not thread-safe. */
	static final class Tally {

		private final int sampleSize;

		private final Map<String, Long> byPattern = new LinkedHashMap<>();

		private final List<Report.Kept> sample = new ArrayList<>();

		private long count;

		Tally(int sampleSize) {
			this.sampleSize = sampleSize;
		}

		void add(byte[] name, int length, String pattern) {
			this.count++;
			this.byPattern.merge(pattern, 1L, Long::sum);
			if (this.sample.size() < this.sampleSize) {
				this.sample.add(new Report.Kept(new String(name, 0, length, StandardCharsets.UTF_8), pattern));
			}
		}

		Report report(ProtectedRefs protection) {
			if (this.count == 0) {
				return Report.NONE;
			}
			Map<String, Long> ordered = new LinkedHashMap<>();
			for (String entry : protection.entries()) {
				Long kept = this.byPattern.get(entry);
				if (kept != null) {
					ordered.put(entry, kept);
				}
			}
			return new Report(this.count, ordered, this.sample);
		}

	}

}
