package io.refstore.benchmark;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.refstore.core.ref.ObjectId;

/**
 * The {@code git fast-import} stream of a corpus: one commit per ref, chained on one
 * branch (mark {@code i + 1} for ref {@code i}), then one annotated tag object per
 * annotated tag ref (marks after {@code size()}), so a million objects cost one process
 * and one pack. Not thread-safe.
 */
final class FastImportStream {

	/** The fixed time of the first commit; each next commit is a second later. */
	private static final long EPOCH = 1_700_000_000L;

	private final RefCorpus corpus;

	FastImportStream(RefCorpus corpus) {
		this.corpus = corpus;
	}

	/** Writes the whole stream; the caller closes {@code out}. */
	void write(OutputStream out) throws IOException {
		OutputStream buffered = new BufferedOutputStream(out, 1 << 16);
		StringBuilder text = new StringBuilder(256);
		for (int i = 0; i < this.corpus.size(); i++) {
			String message = "Change " + (i + 1) + "\n";
			text.setLength(0);
			text.append("commit refs/heads/main\nmark :")
				.append(i + 1)
				.append("\ncommitter C O Mitter <committer@example.com> ")
				.append(EPOCH + i)
				.append(" +0000\ndata ")
				.append(message.length())
				.append('\n')
				.append(message)
				.append('\n');
			buffered.write(text.toString().getBytes(StandardCharsets.US_ASCII));
		}
		int tag = 0;
		for (int i = 0; i < this.corpus.size(); i++) {
			if (this.corpus.kind(i) != RefCorpus.Kind.ANNOTATED_TAG) {
				continue;
			}
			String name = this.corpus.tagName(i);
			String message = "Release " + name + "\n";
			text.setLength(0);
			text.append("tag ")
				.append(name)
				.append("\nmark :")
				.append(tagMark(tag++))
				.append("\nfrom :")
				.append(i + 1)
				.append("\ntagger T Agger <tagger@example.com> ")
				.append(EPOCH + i)
				.append(" +0000\ndata ")
				.append(message.length())
				.append('\n')
				.append(message)
				.append('\n');
			buffered.write(text.toString().getBytes(StandardCharsets.US_ASCII));
		}
		buffered.flush();
	}

	private int tagMark(int tag) {
		return this.corpus.size() + 1 + tag;
	}

	/**
	 * Reads the marks that {@code --export-marks} wrote.
	 * @return for each ref {@code i}, at {@code 20 * i}, the raw SHA-1 it points at: its
	 * commit, or for an annotated tag its tag object
	 * @throws IllegalStateException if a line is malformed or a mark is missing, naming
	 * the file and line
	 */
	static byte[] readMarks(Path marks, RefCorpus corpus) throws IOException {
		int tags = corpus.count(RefCorpus.Kind.ANNOTATED_TAG);
		byte[] byMark = new byte[(corpus.size() + tags + 1) * 20];
		boolean[] seen = new boolean[corpus.size() + tags + 1];
		try (BufferedReader in = Files.newBufferedReader(marks, StandardCharsets.US_ASCII)) {
			String line;
			for (int number = 1; (line = in.readLine()) != null; number++) {
				int space = line.indexOf(' ');
				int mark = (line.startsWith(":") && space > 1) ? Integer.parseInt(line.substring(1, space)) : -1;
				byte[] hex = line.substring(space + 1).getBytes(StandardCharsets.US_ASCII);
				if (mark < 1 || mark >= seen.length || hex.length != 40
						|| !ObjectId.decodeHex(hex, 0, byMark, mark * 20, 20)) {
					throw new IllegalStateException(marks + ":" + number + ": not a mark of this stream: " + line);
				}
				seen[mark] = true;
			}
		}
		byte[] ids = new byte[corpus.size() * 20];
		int tag = 0;
		for (int i = 0; i < corpus.size(); i++) {
			int mark = (corpus.kind(i) == RefCorpus.Kind.ANNOTATED_TAG) ? corpus.size() + 1 + tag++ : i + 1;
			if (!seen[mark]) {
				throw new IllegalStateException(marks + " lacks mark :" + mark + " (for " + corpus.name(i) + ")");
			}
			System.arraycopy(byMark, mark * 20, ids, i * 20, 20);
		}
		return ids;
	}

}
