package io.refstore.core.delete;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.refstore.core.delete.Manifest.ChunkState;
import io.refstore.core.delete.ManifestReader.Chunk;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.Rejection;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.repo.RepositoryId;

class ManifestTest {

	@TempDir
	Path dir;

	private static final HashAlgorithm SHA1 = HashAlgorithm.SHA1;

	private static final RepositoryId OWNER = new RepositoryId("0b7d1e8a-5c1f-4f3e-9a2b-6d4c8e1f2a3b");

	private static ObjectId id(int n) {
		return ObjectId.fromHex(SHA1, String.format("%040x", n));
	}

	private static String encode(String text) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		Manifest.appendText(out, text);
		return out.toString(StandardCharsets.UTF_8);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "-", "--", "a b", "100%", "tab\there", "line\nbreak", "caf\u00e9 \u2603", "%41",
			"\u007f", " lead", "trail " })
	void textFieldsRoundTripWithoutSpacesOrLineBreaks(String text) {
		String encoded = encode(text);
		assertThat(encoded).doesNotContain(" ", "\n", "\t").isNotEmpty();
		assertThat(Manifest.decodeText(encoded)).isEqualTo(text);
	}

	@Test
	void textEscapesOnlyWhatItMust() {
		assertThat(encode("refs/heads/caf\u00e9")).isEqualTo("refs/heads/caf\u00e9");
		assertThat(encode("a b%")).isEqualTo("a%20b%25");
		assertThat(encode("")).isEqualTo("-");
		assertThat(encode("-")).isEqualTo("%2D");
	}

	@Test
	void chunksRoundTripWithTheirStates() throws IOException {
		Path file = this.dir.resolve("m");
		PersonIdent who = new PersonIdent("C O Mitter", "c@example.com", 1700000000L, -730);
		List<Ref> first = List.of(new DirectRef("refs/heads/caf\u00e9", id(1)),
				new DirectRef("refs/tags/v1", id(2), id(3)),
				new SymbolicRef("refs/remotes/o/HEAD", "refs/remotes/o/m"));
		List<List<ReflogEntry>> logs = List.of(
				List.of(new ReflogEntry(id(0), id(1), who, ""), new ReflogEntry(id(1), id(1), who, "a  b\tc")),
				List.of(), List.of(new ReflogEntry(id(0), id(4), who, "-")));
		RefSelection selection = RefSelection.builder().prefix("refs/heads/").glob("refs/tags/*").build();
		try (ManifestWriter writer = ManifestWriter.create(file, SHA1, RefFormat.FILES, this.dir, OWNER, selection,
				17)) {
			writer.chunk(1, first, logs);
			writer.committed(1);
			writer.chunk(2, List.of(new DirectRef("refs/heads/x", id(5))), List.of(List.of()));
			writer
				.failed(new ChunkFailure(2, "refs/heads/x", Rejection.INCORRECT_OLD_VALUE, "is at\nsomething", false));
		}
		try (ManifestReader reader = ManifestReader.open(file)) {
			assertThat(reader.hash()).isEqualTo(SHA1);
			assertThat(reader.repositoryId()).isEqualTo(OWNER);
			Chunk one = reader.next();
			assertThat(one.state()).isEqualTo(ChunkState.COMMITTED);
			assertThat(one.refs()).extracting(ManifestReader.SavedRef::ref).isEqualTo(first);
			assertThat(one.refs()).extracting(ManifestReader.SavedRef::log).isEqualTo(logs);
			Chunk two = reader.next();
			assertThat(two.state()).isEqualTo(ChunkState.FAILED);
			assertThat(two.outcome()).isEqualTo("is at\nsomething");
			assertThat(reader.next()).isNull();
			assertThat(reader.done()).isFalse();
		}
	}

	@Test
	void aManifestWrittenBeforeIdentitiesHasNoneAndALinkIsNotFollowed() throws IOException {
		Path old = write("refstore-delete-manifest 1\nhash sha1\nrepository /srv/repos/a.git\ndone 0 0\n");
		assertThat(Manifest.repositoryOf(old)).isEmpty();
		Path link = Files.createSymbolicLink(this.dir.resolve("link"), old);
		assertThatThrownBy(() -> ManifestReader.open(link)).isInstanceOf(IOException.class);
	}

	@Test
	void chunkWithoutReadyIsIncompleteAndReadyWithoutOutcomeIsInDoubt() throws IOException {
		String x = id(9).name();
		Path file = write("refstore-delete-manifest 1\nhash sha1\nchunk 1\nref refs/heads/a " + x + " -\n"
				+ "ready 1 1\ncommitted 1\nchunk 2\nref refs/heads/b " + x + " -\nready 2 1\ncommitted");
		try (ManifestReader reader = ManifestReader.open(file)) {
			assertThat(reader.next().state()).isEqualTo(ChunkState.COMMITTED);
			assertThat(reader.next().state()).isEqualTo(ChunkState.IN_DOUBT);
			assertThat(reader.next()).isNull();
		}
		Path cut = write("refstore-delete-manifest 1\nhash sha1\nchunk 1\nref refs/heads/a " + x + " -\nref refs/he");
		try (ManifestReader reader = ManifestReader.open(cut)) {
			assertThat(reader.next().state()).isEqualTo(ChunkState.INCOMPLETE);
		}
	}

	@Test
	void malformedManifestsAreRefusedWithFileAndLine() throws IOException {
		String x = id(9).name();
		assertThatThrownBy(() -> ManifestReader.open(write("refstore-delete-manifest 2\nhash sha1\n")))
			.hasMessageEndingWith(":1: manifest version 2 is not supported (this refstore reads version 1)");
		assertThatThrownBy(() -> ManifestReader.open(write("hello\n")))
			.hasMessageContaining(":1: not a refstore deletion manifest");
		assertThatThrownBy(() -> read("refstore-delete-manifest 1\nhash sha1\nchunk 1\nref refs/heads/a 12 -\n"))
			.hasMessageEndingWith(":4: '12' is not a sha1 object id");
		assertThatThrownBy(
				() -> read("refstore-delete-manifest 1\nhash sha1\nchunk 1\nref refs/heads/a..b " + x + " -\n"))
			.hasMessageEndingWith(":4: bad ref name 'refs/heads/a..b': it contains '..'");
		// a restore writes the names it reads: never a file of the git directory such as
		// a loose object
		assertThatThrownBy(() -> read("refstore-delete-manifest 1\nhash sha1\nchunk 1\nref objects/bf/1730de"
				+ x.substring(6) + " " + x + " -\n"))
			.hasMessageEndingWith(":4: bad ref name 'objects/bf/1730de" + x.substring(6) + "': "
					+ RefName.Rule.OUTSIDE_REFS.description());
		assertThatThrownBy(() -> read("refstore-delete-manifest 1\nhash sha1\nchunk 2\n"))
			.hasMessageEndingWith(":3: chunk 2 follows chunk 0");
		assertThatThrownBy(() -> read("refstore-delete-manifest 1\nhash sha1\nchunk 1\ncommitted 1\n"))
			.hasMessageEndingWith(":4: 'committed' is out of place in chunk 1");
		assertThatThrownBy(
				() -> read("refstore-delete-manifest 1\nhash sha1\nchunk 1\nref refs/heads/a " + x + " -\nready 1 2\n"))
			.hasMessageEndingWith(":5: 'ready' does not match chunk 1 of 1 refs");
		assertThatThrownBy(() -> read("refstore-delete-manifest 1\nhash sha1\nchunk 1\nlog a\n"))
			.hasMessageEndingWith(":4: a 'log' line must follow its ref");
		assertThatThrownBy(
				() -> read("refstore-delete-manifest 1\nhash sha1\nchunk 1\nref refs/heads/a " + x + " -\nlog a\n"))
			.hasMessageEndingWith(":5: 'log' needs 7 fields, found 1");
	}

	private Path write(String content) throws IOException {
		Path file = Files.createTempFile(this.dir, "manifest", "");
		Files.writeString(file, content);
		return file;
	}

	private void read(String content) throws IOException {
		try (ManifestReader reader = ManifestReader.open(write(content))) {
			while (reader.next() != null) {
				// every chunk is checked as it is read
			}
		}
	}

}
