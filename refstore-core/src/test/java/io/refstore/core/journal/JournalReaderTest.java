package io.refstore.core.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class JournalReaderTest {

	private static final String A = "a".repeat(40);

	private static final String B = "b".repeat(40);

	private static final String LINE = "1700000000.000000001-42\t1700000000.000000001\t" + A + "\t" + B
			+ "\trefs/heads/main\tgit\tGL_USERNAME=alice\n";

	@Test
	void readsEveryField() throws IOException {
		List<JournalEntry> entries = read(LINE);

		assertThat(entries)
			.containsExactly(new JournalEntry("1700000000.000000001-42", Instant.ofEpochSecond(1_700_000_000L, 1), A, B,
					"refs/heads/main", WriterKind.GIT, "GL_USERNAME=alice"));
	}

	@Test
	void ignoresATornLastLine() throws IOException {
		String torn = LINE.substring(0, LINE.length() - 1);

		assertThat(read(LINE + torn)).hasSize(1);
		assertThat(read(torn)).isEmpty();
	}

	@Test
	void skipsAndCountsACompleteLineThatIsNoEntry() throws IOException {
		String tornThenAppended = LINE.substring(0, 30) + LINE;
		JournalReader reader = reader(LINE + tornThenAppended + "garbage\n" + LINE);

		assertThat(reader.next()).isNotNull();
		assertThat(reader.next()).isNotNull();
		assertThat(reader.next()).isNull();
		assertThat(reader.skipped()).isEqualTo(2);
		assertThat(reader.offset()).isEqualTo((LINE + tornThenAppended + "garbage\n" + LINE).length());
	}

	@Test
	void refusesAWrongTimeValueOrWriter() throws IOException {
		assertThat(read(LINE.replace("1700000000.000000001\t", "1700000000.1\t"))).isEmpty();
		assertThat(read(LINE.replace(A, "x".repeat(40)))).isEmpty();
		assertThat(read(LINE.replace("\tgit\t", "\tsomeone\t"))).isEmpty();
		assertThat(read(LINE.replace("\trefs/heads/main\t", "\t\t"))).isEmpty();
	}

	@Test
	void readsSymbolicValuesAndSha256Ids() throws IOException {
		String line = LINE.replace(A, "ref:refs/heads/main").replace(B, "c".repeat(64));

		JournalEntry entry = read(line).get(0);

		assertThat(entry.oldValue()).isEqualTo("ref:refs/heads/main");
		assertThat(entry.newValue()).isEqualTo("c".repeat(64));
	}

	@Test
	void undoesTheIdentityEscapes() throws IOException {
		String line = LINE.replace("GL_USERNAME=alice", "REMOTE_USER=a\\tb\\nc\\\\d");

		assertThat(read(line).get(0).identity()).isEqualTo("REMOTE_USER=a\tb\nc\\d");
		assertThat(read(LINE.replace("GL_USERNAME=alice", "x\\q"))).isEmpty();
		assertThat(read(LINE.replace("GL_USERNAME=alice", "x\\"))).isEmpty();
	}

	@Test
	void readsNamesOfAnyLengthAndUtf8() throws IOException {
		String longName = "refs/heads/" + "é".repeat(70_000);
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < 3; i++) {
			text.append(LINE.replace("refs/heads/main", longName + i));
		}

		List<JournalEntry> entries = read(text.toString());

		assertThat(entries).extracting(JournalEntry::refName).containsExactly(longName + 0, longName + 1, longName + 2);
	}

	private static List<JournalEntry> read(String text) throws IOException {
		List<JournalEntry> entries = new ArrayList<>();
		try (JournalReader reader = reader(text)) {
			for (JournalEntry entry = reader.next(); entry != null; entry = reader.next()) {
				entries.add(entry);
			}
		}
		return entries;
	}

	private static JournalReader reader(String text) {
		return new JournalReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
	}

}
