package io.refstore.web.system;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;

/**
 * Rows of a per-repository gauge that stay few however many repositories there are: the
 * {@code refstore.metrics.top-repositories} largest repositories (most refs) keep their
 * own series, and the figures of all the others are added up under the repository
 * {@value #OTHER} (in parentheses, so that no repository's name can be taken for it). A
 * fleet of 100,000 repositories exports as many series per gauge as one of 21. One
 * ranking per refresh, shared by its gauges, each with its own {@link Rows}; not
 * thread-safe.
 */
public final class RepositorySeries {

	/** The {@code repository} label of the repositories not among the largest. */
	public static final String OTHER = "(other)";

	private final Set<String> own;

	/**
	 * @param refs each repository's refs, which rank them
	 * @param top how many repositories keep their own series; ties go to the name that
	 * sorts first
	 */
	public RepositorySeries(Map<String, Long> refs, int top) {
		this.own = new HashSet<>();
		refs.entrySet()
			.stream()
			.sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
				.thenComparing(Map.Entry.comparingByKey()))
			.limit(top)
			.forEach((repository) -> this.own.add(repository.getKey()));
	}

	/** The {@code repository} label of {@code repository}'s figures. */
	public String label(String repository) {
		return this.own.contains(repository) ? repository : OTHER;
	}

	/** An empty set of rows of one gauge. */
	public Rows rows() {
		return new Rows();
	}

	/**
	 * The rows of one gauge, the figures of repositories not among the largest added up.
	 */
	public final class Rows {

		private final Map<Tags, Double> rows = new LinkedHashMap<>();

		private Rows() {
		}

		/**
		 * Adds {@code value} to the row of {@code repository} (or {@value #OTHER}) and
		 * the other {@code tags}.
		 */
		public void add(String repository, Tags tags, double value) {
			this.rows.merge(Tags.of(Tag.of("repository", label(repository))).and(tags), value, Double::sum);
		}

		/** The rows added so far, for {@link MultiGauge#register}. */
		public List<MultiGauge.Row<?>> list() {
			List<MultiGauge.Row<?>> list = new ArrayList<>();
			this.rows.forEach((tags, value) -> list.add(MultiGauge.Row.of(tags, value)));
			return list;
		}

	}

}
