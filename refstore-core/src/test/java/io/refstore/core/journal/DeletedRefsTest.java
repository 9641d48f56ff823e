package io.refstore.core.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The deleted refs of a journal: only refs whose last entry is a deletion, newest
 * deletion first, each with the newest object id an entry named (a creation's new value,
 * a deletion's reported old value), never a symbolic ref's target.
 */
class DeletedRefsTest {

	static final String ZERO = "0".repeat(40);

	static final String A = "a".repeat(40);

	static final String B = "b".repeat(40);

	@Test
	void listsRefsWhoseLastChangeIsADeletionWithTheirLastKnownValue() throws IOException {
		String journal = line("1", ZERO, A, "refs/heads/unknown-old") + line("2", ZERO, B, "refs/heads/again")
				+ line("3", A, ZERO, "refs/heads/reported") + line("4", ZERO, ZERO, "refs/heads/unknown-old")
				+ line("5", B, ZERO, "refs/heads/again") + line("6", ZERO, A, "refs/heads/again")
				+ line("7", ZERO, "ref:refs/heads/main", "refs/heads/symbolic")
				+ line("8", ZERO, ZERO, "refs/heads/symbolic") + line("9", ZERO, ZERO, "refs/heads/never-known");

		List<DeletedRefs.Deleted> deleted = DeletedRefs
			.of(new JournalReader(new ByteArrayInputStream(journal.getBytes(StandardCharsets.UTF_8))));

		assertThat(deleted).extracting(DeletedRefs.Deleted::refName)
			.containsExactly("refs/heads/never-known", "refs/heads/symbolic", "refs/heads/unknown-old",
					"refs/heads/reported");
		assertThat(deleted).extracting(DeletedRefs.Deleted::lastValue).containsExactly(null, null, A, A);
		assertThat(deleted.get(2).deletion().transaction()).isEqualTo("4");
	}

	private static String line(String transaction, String old, String value, String ref) {
		return transaction + "\t1700000000.000000000\t" + old + "\t" + value + "\t" + ref + "\tgit\t\n";
	}

}
