package io.refstore.web.journal;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.refstore.core.journal.DeletedRefs;

/**
 * One ingested journal entry (docs/journal.md): a ref change as its writer reported it.
 *
 * @param id its position in the repository's timeline, newer entries higher: what
 * {@code before} pages by
 * @param repository the repository's name
 * @param time when it was recorded
 * @param ref the full ref name
 * @param oldValue the value before (JSON member {@code old}): an object id, all zeros for
 * none or for one git did not report, or {@code ref:<target>}
 * @param newValue the value after (JSON member {@code new}), all zeros for a deletion
 * @param deletion whether the new value is all zeros
 * @param writer {@code git}, {@code refstore-cli}, {@code api} or {@code job}
 * @param identity who, as {@code NAME=value} of the hook's identity variables, or empty
 * @param transaction the id shared by the entries of one transaction
 */
public record JournalEntryView(long id, String repository, Instant time, String ref,
		@JsonProperty("old") String oldValue, @JsonProperty("new") String newValue, @JsonIgnore boolean deletion,
		String writer, String identity, String transaction) {

	/**
	 * Whether the entry moved an existing ref from one object to another (a force-push,
	 * say): both values are object ids.
	 */
	@JsonIgnore
	public boolean isMove() {
		return !this.deletion && !DeletedRefs.isZero(this.oldValue) && !this.oldValue.startsWith("ref:")
				&& !this.newValue.startsWith("ref:");
	}

}
