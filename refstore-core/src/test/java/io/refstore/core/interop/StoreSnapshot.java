package io.refstore.core.interop;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import io.refstore.core.interop.RefModel.Value;
import io.refstore.core.testing.TempRepo;

/**
 * What one twin's ref store holds at one moment, in the form its ref format allows the
 * twins to be compared: byte for byte for the files backend ({@link RepoSnapshot}), by
 * what git and refstore read for reftable ({@link ReftableSnapshot}), whose tables
 * legitimately differ in update indices, compaction and names. Immutable once taken.
 */
interface StoreSnapshot {

	/** The refs as git reads them, symbolic ones included (also dangling ones). */
	Map<String, Value> refs();

	/** The names of refs that have a reflog. */
	List<String> reflogNames();

	/**
	 * Describes how the other twin's store differs from this one, or returns null if they
	 * hold the same.
	 * @param thisName the name of this twin in the description
	 * @param otherName the name of the other twin
	 */
	String differences(StoreSnapshot other, String thisName, String otherName);

	/**
	 * Describes differences that are reported but not failed on (directories in one twin
	 * only), or null.
	 */
	String minorDifferences(StoreSnapshot other, String thisName, String otherName);

	/**
	 * Describes what changed in the same twin between this snapshot and {@code later}, or
	 * null if nothing.
	 */
	String changes(StoreSnapshot later);

	/**
	 * Replaces the ref store of {@code twin} by a copy of the one this snapshot was taken
	 * of.
	 */
	void restore(TempRepo twin) throws IOException;

	/**
	 * How many tables of this snapshot's stack {@code later} no longer lists (reftable
	 * compaction); 0 for files.
	 */
	default int tablesGoneIn(StoreSnapshot later) {
		return 0;
	}

}
