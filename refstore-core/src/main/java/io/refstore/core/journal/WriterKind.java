package io.refstore.core.journal;

import java.util.Optional;

/**
 * Who wrote a journal entry: git itself (through the {@code reference-transaction} hook),
 * the {@code refstore} command, refstore's API, or one of its jobs. Each has the word the
 * journal file holds.
 */
public enum WriterKind {

	/** git, as its {@code reference-transaction} hook reports it. */
	GIT("git"),

	/** The {@code refstore} command. */
	REFSTORE_CLI("refstore-cli"),

	/** refstore's REST API or console. */
	API("api"),

	/** A refstore job (migration, deletion, restore). */
	JOB("job");

	private final String word;

	WriterKind(String word) {
		this.word = word;
	}

	/** The word the journal file holds. */
	public String word() {
		return this.word;
	}

	/**
	 * The kind a journal file's word names.
	 * @return empty for a word no kind has
	 */
	public static Optional<WriterKind> of(String word) {
		for (WriterKind kind : values()) {
			if (kind.word.equals(word)) {
				return Optional.of(kind);
			}
		}
		return Optional.empty();
	}

}
