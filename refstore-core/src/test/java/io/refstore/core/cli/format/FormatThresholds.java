package io.refstore.core.cli.format;

/**
 * The sizes at which {@code for-each-ref} shares its work with a second thread, for the
 * command's tests in {@code core.cli} that list just enough refs to cross them; the
 * constants themselves stay private to the format package.
 */
public final class FormatThresholds {

	/** {@link RefSorting#SHARED_MIN}: refs from which two threads compute sort keys. */
	public static final int SORTING_SHARED_MIN = RefSorting.SHARED_MIN;

	/**
	 * {@link RefObjectFilter#SHARED_MIN}: refs from which two threads walk the history.
	 */
	public static final int FILTER_SHARED_MIN = RefObjectFilter.SHARED_MIN;

	/** {@link SharedLines#CHUNK}: refs a thread renders at a time. */
	public static final int LINES_CHUNK = SharedLines.CHUNK;

	private FormatThresholds() {
	}

}
