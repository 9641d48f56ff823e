package io.refstore.core.repo;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@link RepositoryDiscovery} found: the repositories' names, and how many
 * directories it skipped and why, with the first skipped one of each kind so that an
 * operator can look at it.
 *
 * @param names the repository names, relative to their root with {@code /} separators,
 * sorted; a name found in two roots is listed once
 * @param skipped how many directories were skipped for each reason (reasons that did not
 * occur are absent)
 * @param firstSkipped for each reason in {@code skipped}, the first directory skipped for
 * it, relative to its root
 * @param maxDepth the bound on plain trees the walk used, for {@link #describeSkipped()}
 */
public record DiscoveredRepositories(List<String> names, Map<SkipReason, Long> skipped,
		Map<SkipReason, String> firstSkipped, int maxDepth) {

	public DiscoveredRepositories {
		names = List.copyOf(names);
		// in the reasons' order, whatever map was given
		Map<SkipReason, Long> counts = new EnumMap<>(SkipReason.class);
		counts.putAll(skipped);
		skipped = Collections.unmodifiableMap(counts);
		Map<SkipReason, String> first = new EnumMap<>(SkipReason.class);
		first.putAll(firstSkipped);
		firstSkipped = Collections.unmodifiableMap(first);
	}

	/** Why a directory under a root was not searched for repositories. */
	public enum SkipReason {

		/** Below a plain tree's depth bound ({@code refstore.repositories.max-depth}). */
		TOO_DEEP,

		/** Its entries could not be listed (permissions, an I/O error). */
		UNREADABLE,

		/**
		 * A symbolic link whose target lies outside the root: never followed, as names
		 * never resolve there.
		 */
		LINK_OUT_OF_ROOT,

		/**
		 * A symbolic link inside the root, or a dangling one: not followed, its target is
		 * found where it is.
		 */
		LINK,

		/**
		 * Its name starts with {@code .} (snapshots, trash, refstore's own directories).
		 */
		HIDDEN,

		/**
		 * In a hosting layout, a place where the layout has repositories holds something
		 * else.
		 */
		NOT_A_REPOSITORY,

		/**
		 * In a hosting layout, a name the layout does not make (not a shard, not a
		 * repository's name).
		 */
		NOT_IN_LAYOUT;

		/** How the dashboard says it, after a count: "400 deeper than 8 levels". */
		public String describe(int maxDepth) {
			return switch (this) {
				case TOO_DEEP -> "deeper than " + maxDepth + ((maxDepth == 1) ? " level" : " levels");
				case UNREADABLE -> "unreadable";
				case LINK_OUT_OF_ROOT -> "symbolic links out of the root";
				case LINK -> "symbolic links inside the root or dangling";
				case HIDDEN -> "hidden";
				case NOT_A_REPOSITORY -> "not a repository where the hosting layout has one";
				case NOT_IN_LAYOUT -> "not in the hosting layout";
			};
		}

	}

	/** How many directories were skipped, whatever the reason. */
	public long skippedTotal() {
		return this.skipped.values().stream().mapToLong(Long::longValue).sum();
	}

	/**
	 * The skips in one line, most frequent reason first:
	 * {@code "412 directories skipped: 400 deeper than 8
	 * levels, 12 unreadable"}, or an empty string if none was skipped.
	 */
	public String describeSkipped() {
		long total = skippedTotal();
		if (total == 0) {
			return "";
		}
		List<Map.Entry<SkipReason, Long>> reasons = new ArrayList<>(this.skipped.entrySet());
		reasons.sort(Map.Entry.<SkipReason, Long>comparingByValue().reversed());
		StringBuilder out = new StringBuilder().append(total)
			.append((total == 1) ? " directory skipped: " : " directories skipped: ");
		for (int i = 0; i < reasons.size(); i++) {
			out.append((i == 0) ? "" : ", ")
				.append(reasons.get(i).getValue())
				.append(' ')
				.append(reasons.get(i).getKey().describe(this.maxDepth));
		}
		return out.toString();
	}

}
