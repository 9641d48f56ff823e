package io.refstore.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FastImportStreamTest {

	private final RefCorpus corpus = new RefCorpus(200);

	@TempDir
	Path dir;

	@Test
	void oneCommitPerRefThenOneTagObjectPerAnnotatedTag() throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		new FastImportStream(this.corpus).write(out);
		String stream = out.toString(StandardCharsets.US_ASCII);
		assertThat(stream.split("\ncommit refs/heads/main\n", -1)).hasSize(200);
		assertThat(stream).startsWith("commit refs/heads/main\nmark :1\ncommitter C O Mitter <committer@example.com> "
				+ "1700000000 +0000\ndata 9\nChange 1\n\n");
		int firstTag = this.corpus.count(RefCorpus.Kind.BRANCH) + this.corpus.count(RefCorpus.Kind.LIGHTWEIGHT_TAG);
		assertThat(stream).contains("tag v0.0.0\nmark :201\nfrom :" + (firstTag + 1) + "\ntagger ")
			.contains("data 15\nRelease v0.0.0\n");
		assertThat(stream.split("\ntag v", -1)).hasSize(this.corpus.count(RefCorpus.Kind.ANNOTATED_TAG) + 1);
	}

	@Test
	void marksMapEachRefToItsCommitOrTagObject() throws IOException {
		Path marks = writeMarks(0);
		byte[] ids = FastImportStream.readMarks(marks, this.corpus);
		assertThat(ids).hasSize(200 * 20);
		int firstTag = this.corpus.count(RefCorpus.Kind.BRANCH) + this.corpus.count(RefCorpus.Kind.LIGHTWEIGHT_TAG);
		assertThat(ids[0]).isEqualTo((byte) 1);
		assertThat(ids[firstTag * 20]).isEqualTo((byte) 201);
		assertThat(ids[(firstTag + 1) * 20]).isEqualTo((byte) 202);
		assertThat(ids[(firstTag + 10) * 20]).isEqualTo((byte) (firstTag + 11));
	}

	@Test
	void aMissingMarkIsNamed() throws IOException {
		Path marks = writeMarks(7);
		assertThatIllegalStateException().isThrownBy(() -> FastImportStream.readMarks(marks, this.corpus))
			.withMessage(marks + " lacks mark :7 (for " + this.corpus.name(6) + ")");
	}

	@Test
	void aMalformedLineIsNamedWithItsNumber() throws IOException {
		Path marks = this.dir.resolve("marks");
		Files.writeString(marks, ":1 " + "ab".repeat(20) + "\n:2 not-hex\n");
		assertThatIllegalStateException().isThrownBy(() -> FastImportStream.readMarks(marks, this.corpus))
			.withMessage(marks + ":2: not a mark of this stream: :2 not-hex");
	}

	/**
	 * Marks 1..210 (200 commits, 10 tags), the first byte of each id being its mark;
	 * {@code skip} left out.
	 */
	private Path writeMarks(int skip) throws IOException {
		List<String> lines = new ArrayList<>();
		for (int mark = 1; mark <= 200 + this.corpus.count(RefCorpus.Kind.ANNOTATED_TAG); mark++) {
			if (mark != skip) {
				lines.add(":" + mark + " " + String.format("%02x", mark & 0xff) + "00".repeat(19));
			}
		}
		Path marks = this.dir.resolve("marks");
		Files.write(marks, lines);
		return marks;
	}

}
