package io.refstore.batch.api;

import java.io.IOException;

/**
 * What {@code journalRetentionJob} hands its repository to: the application that keeps
 * the ref journal provides one (the web application keeps it in its database, and its
 * retention sweep applies the same retention); without one, the job fails saying so.
 *
 * <p>
 * The job calls it outside a transaction of its step: the retainer keeps its own
 * transactions (a journal's ingestion is a run of entries at a time, and setting a file
 * aside holds its row locked for a moment), as its own sweep does.
 */
@FunctionalInterface
public interface JournalRetainer {

	/**
	 * Applies a repository's journal retention once: ingests its journal, sets a large
	 * file aside and deletes the entries past its retention.
	 * @param repository the repository's name, as the job's parameters name it
	 * @return what it did
	 */
	Retained retain(String repository) throws IOException;

	/**
	 * What applying a repository's journal retention did.
	 *
	 * @param ingested how many new entries were ingested first
	 * @param setAside whether the journal file was set aside
	 * @param deleted how many entries were deleted
	 * @param words what it did, in words, without a capital or a full stop
	 * ({@code deleted 4 entries ...}, {@code nothing to do: ...})
	 */
	record Retained(long ingested, boolean setAside, long deleted, String words) {

	}

}
