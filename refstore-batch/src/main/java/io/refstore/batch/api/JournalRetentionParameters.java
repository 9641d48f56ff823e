package io.refstore.batch.api;

import java.util.Map;

/**
 * {@code journalRetentionJob}'s parameters: it takes none besides the repository (what
 * the journal keeps is the repository's retention, else
 * {@code refstore.journal.retention.*}, one setting for the job and the journal's own
 * sweep alike).
 */
public record JournalRetentionParameters() implements RefJobParameters {

	@Override
	public RefJobType type() {
		return RefJobType.JOURNAL_RETENTION;
	}

	@Override
	public Map<String, String> toMap() {
		return Map.of();
	}

}
