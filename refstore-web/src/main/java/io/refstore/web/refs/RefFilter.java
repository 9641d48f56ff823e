package io.refstore.web.refs;

import java.util.Locale;

import io.refstore.web.system.InvalidRequestException;

/**
 * What the ref browser filters and sorts by besides names: whether a ref is merged into a
 * branch, how old it is, and the order. The facts behind it are git's: merged as
 * {@code for-each-ref --merged <branch>} lists refs (through annotated tags), the age
 * from {@code creatordate} (an annotated tag's tagger date, a commit's committer date). A
 * ref without a date (a tree, a blob, a missing object) is neither older nor newer than
 * anything, as the deletion criteria judge it.
 *
 * @param merged whether to keep merged refs, unmerged ones or both
 * @param into the branch merged is judged against: a full name, a branch's short name, or
 * empty for the branch {@code HEAD} names
 * @param olderThanDays only refs dated more than this many days ago (0: no bound)
 * @param newerThanDays only refs dated at most this many days ago (0: no bound)
 * @param order the order: by name (the store's), or by date newest or oldest first, ties
 * by name
 */
public record RefFilter(Merged merged, String into, int olderThanDays, int newerThanDays, Order order) {

	/** The largest age a filter takes, in days (100 years). */
	public static final int MAX_DAYS = 36_500;

	/** No filter, name order. */
	public static final RefFilter NONE = new RefFilter(Merged.ANY, "", 0, 0, Order.NAME);

	/** Which refs by merged. */
	public enum Merged {

		/** Merged or not. */
		ANY,
		/** Only refs the branch reaches. */
		MERGED,
		/** Only refs the branch does not reach (and refs that peel to no commit). */
		NOT_MERGED

	}

	/** The order of a listing. */
	public enum Order {

		/** Bytewise by name, as the stores keep refs. */
		NAME,
		/** Newest creator date first. */
		NEWEST,
		/** Oldest creator date first. */
		OLDEST

	}

	public RefFilter {
		merged = (merged != null) ? merged : Merged.ANY;
		into = (into != null) ? into.strip() : "";
		order = (order != null) ? order : Order.NAME;
	}

	/**
	 * The filter as a request gives it, each value checked.
	 * @param merged {@code yes}, {@code no} or empty
	 * @param into a branch, or empty for HEAD's
	 * @param older days, or {@code null}/0 for no bound
	 * @param newer days, or {@code null}/0 for no bound
	 * @param sort {@code name}, {@code newest}, {@code oldest} or empty
	 * @throws InvalidRequestException naming the refused parameter
	 */
	public static RefFilter of(String merged, String into, Integer older, Integer newer, String sort) {
		Merged which = switch ((merged != null) ? merged.strip().toLowerCase(Locale.ROOT) : "") {
			case "", "any" -> Merged.ANY;
			case "yes", "true", "merged" -> Merged.MERGED;
			case "no", "false", "not-merged" -> Merged.NOT_MERGED;
			default -> throw new InvalidRequestException("merged", merged, "it must be yes, no or empty");
		};
		Order order = switch ((sort != null) ? sort.strip().toLowerCase(Locale.ROOT) : "") {
			case "", "name" -> Order.NAME;
			case "newest", "-date" -> Order.NEWEST;
			case "oldest", "date" -> Order.OLDEST;
			default -> throw new InvalidRequestException("sort", sort, "it must be name, newest or oldest");
		};
		return new RefFilter(which, into, days("older", older), days("newer", newer), order);
	}

	private static int days(String parameter, Integer days) {
		if (days == null) {
			return 0;
		}
		if (days < 0 || days > MAX_DAYS) {
			throw new InvalidRequestException(parameter, days.toString(),
					"it must be a number of days from 0 to " + MAX_DAYS);
		}
		return days;
	}

	/** Whether the filter needs every matching ref's facts (not only a page's). */
	public boolean needsFacts() {
		return this.merged != Merged.ANY || this.olderThanDays > 0 || this.newerThanDays > 0
				|| this.order != Order.NAME;
	}

	/** Whether the filter judges refs by a branch. */
	public boolean needsBase() {
		return this.merged != Merged.ANY;
	}

	/** The {@code merged} parameter's value: {@code yes}, {@code no} or empty. */
	public String mergedParameter() {
		return switch (this.merged) {
			case ANY -> "";
			case MERGED -> "yes";
			case NOT_MERGED -> "no";
		};
	}

	/**
	 * The {@code sort} parameter's value: {@code name}, {@code newest} or {@code oldest}.
	 */
	public String sortParameter() {
		return this.order.name().toLowerCase(Locale.ROOT);
	}

	/** Whether the order is by date. */
	public boolean byDate() {
		return this.order != Order.NAME;
	}

}
