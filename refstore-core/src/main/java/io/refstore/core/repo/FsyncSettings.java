package io.refstore.core.repo;

/**
 * What git's {@code core.fsync} and {@code core.fsyncMethod} ask of ref writes. Read as
 * git reads them (checked against git 2.55 tracing its {@code fsync} calls):
 * <ul>
 * <li>{@code core.fsync} is a comma-separated list of components, the last value of the
 * key winning. Unset, it is git's default, which leaves references out. Each word names
 * every component whose name it begins ({@code ref} is {@code reference}, {@code c} both
 * {@code commit-graph} and {@code committed}); the aggregates {@code committed},
 * {@code added} and {@code all} include {@code reference}. A word with a leading
 * {@code -} removes, but only from the default: a component a word adds stays, whatever
 * other words remove, so {@code all,-reference} still syncs refs. {@code none}, as the
 * whole rest of the value, clears the default, not the words before it. Matching is
 * case-sensitive, unknown words are ignored, and a word that is just {@code -} ends the
 * list (git stops reading there).</li>
 * <li>{@code core.fsyncMethod} {@code fsync} (the default), {@code writeout-only} or
 * {@code batch}. Refs are forced with {@code fsync} under all three: {@code batch}
 * applies to loose objects only, and Java cannot ask for {@code writeout-only}'s weaker
 * write-back ({@code sync_file_range}), so refstore does what git does where the platform
 * lacks it, a full sync. The method changes nothing here, which is why it is only
 * validated.</li>
 * <li>{@code core.fsyncObjectFiles}, the older switch, covers loose objects only.</li>
 * </ul>
 * git syncs the file before its rename and, for refs, not the directory after it;
 * refstore's ordinary writes do the same.
 *
 * @param references whether the {@code reference} component is hardened
 * @param method the {@code core.fsyncMethod} named, {@link Method#FSYNC} if none or an
 * unknown one
 */
public record FsyncSettings(boolean references, Method method) {

	/** The aggregates and components whose set holds {@code reference}. */
	private static final String[] WITH_REFERENCE = { "reference", "committed", "added", "all" };

	/** The characters git skips before each word. */
	private static final String SEPARATORS = ", \t\n\r";

	/** The values of {@code core.fsyncMethod}. */
	public enum Method {

		/** {@code fsync}: a full sync of each file. */
		FSYNC,

		/**
		 * {@code writeout-only}: start write-back without waiting for the disk (a full
		 * sync in refstore).
		 */
		WRITEOUT_ONLY,

		/**
		 * {@code batch}: loose objects synced together; everything else as
		 * {@link #FSYNC}.
		 */
		BATCH

	}

	/**
	 * The settings of {@code config} (its {@code core.fsync} and
	 * {@code core.fsyncMethod}).
	 */
	public static FsyncSettings of(GitConfig config) {
		return new FsyncSettings(coversReference(config.getString("core", null, "fsync").orElse(null)),
				method(config.getString("core", null, "fsyncMethod").orElse(null)));
	}

	/**
	 * Whether a {@code core.fsync} value makes git sync ref files.
	 * @param value the value, or {@code null} if the key is not set (git's default: no)
	 */
	public static boolean coversReference(String value) {
		if (value == null) {
			return false;
		}
		int length = value.length();
		int at = 0;
		while (true) {
			while (at < length && SEPARATORS.indexOf(value.charAt(at)) >= 0) {
				at++;
			}
			int end = value.indexOf(',', at);
			end = (end < 0) ? length : end;
			if (value.startsWith("none", at) && at + 4 == length) {
				// clears the default, which has no reference anyway; what earlier words
				// added stays
				return false;
			}
			boolean removes = at < end && value.charAt(at) == '-';
			int start = removes ? at + 1 : at;
			if (start == end) {
				return false;
			}
			if (!removes && namesReference(value.substring(start, end))) {
				return true;
			}
			at = end;
		}
	}

	private static boolean namesReference(String word) {
		for (String name : WITH_REFERENCE) {
			if (name.startsWith(word)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The {@code core.fsyncMethod} a value names.
	 * @param value the value, or {@code null} if the key is not set
	 * @return the method; {@link Method#FSYNC} for {@code null} or a value git does not
	 * know (git warns and keeps its default)
	 */
	public static Method method(String value) {
		if (value == null) {
			return Method.FSYNC;
		}
		return switch (value) {
			case "writeout-only" -> Method.WRITEOUT_ONLY;
			case "batch" -> Method.BATCH;
			default -> Method.FSYNC;
		};
	}

}
