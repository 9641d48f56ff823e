package io.refstore.core.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;

class MappedPackedRefsTest {

	private static final String A = "1111111111111111111111111111111111111111";

	private static final String P = "3333333333333333333333333333333333333333";

	@TempDir
	Path dir;

	private Path write(String text) throws IOException {
		Path file = this.dir.resolve("packed-refs");
		Files.writeString(file, text, StandardCharsets.UTF_8);
		return file;
	}

	@Test
	void answersEveryLookupAsTheFullSnapshotDoes() throws Exception {
		StringBuilder text = new StringBuilder(new String(PackedRefs.HEADER, StandardCharsets.US_ASCII));
		List<String> names = new ArrayList<>();
		for (int i = 0; i < 700; i++) {
			// names sharing long prefixes, and one name that is a prefix of the next
			names.add(String.format("refs/tags/v%04d", i) + ((i % 3 == 0) ? "" : "/rc" + i));
		}
		names.sort((a, b) -> java.util.Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8),
				b.getBytes(StandardCharsets.UTF_8)));
		for (String name : names) {
			text.append(String.format("%040x", name.hashCode() & 0xffffffffL)).append(' ').append(name).append('\n');
			if (name.endsWith("7")) {
				text.append('^').append(P).append('\n');
			}
		}
		Path file = write(text.toString());
		MappedPackedRefs mapped = MappedPackedRefs.map(file, HashAlgorithm.SHA1);
		PackedRefs full = PackedRefs.read(file, HashAlgorithm.SHA1);
		List<String> probes = new ArrayList<>(names);
		probes.addAll(List.of("refs/tags/v", "refs/tags/v0001/rc", "refs/tags/v0001/rc1x", "refs/a", "refs/z", "HEAD"));
		for (String name : probes) {
			Ref expected = FilesRefStore.readPacked(full, name);
			DirectRef actual = mapped.find(name);
			assertThat(actual).as(name).isEqualTo(expected);
			if (expected != null) {
				assertThat(actual.id()).as(name).isEqualTo(((DirectRef) expected).id());
				assertThat(actual.peeled()).as(name).isEqualTo(((DirectRef) expected).peeled());
			}
		}
		assertThat(mapped.find("refs/tags/v0007/rc7").peeled()).isEqualTo(ObjectId.fromHex(HashAlgorithm.SHA1, P));
	}

	@Test
	void leavesFilesWithoutTheSortedTraitOrAHeaderToTheFullRead() throws Exception {
		assertThat(MappedPackedRefs.map(
				write("# pack-refs with: peeled \n" + A + " refs/heads/b\n" + A + " refs/heads/a\n"),
				HashAlgorithm.SHA1))
			.isNull();
		assertThat(MappedPackedRefs.map(write(A + " refs/heads/a\n"), HashAlgorithm.SHA1)).isNull();
		assertThat(MappedPackedRefs.map(write(""), HashAlgorithm.SHA1)).isNull();
		assertThat(MappedPackedRefs.map(this.dir.resolve("missing"), HashAlgorithm.SHA1)).isNull();
	}

	@Test
	void damagedRecordFoundIsReportedWithFileAndLine() throws Exception {
		Path file = write("# pack-refs with: peeled fully-peeled sorted \n" + A + " refs/heads/a\n"
				+ "11111111111111111111111111111111111111zz refs/heads/b\n" + A + " refs/heads/c\n^" + "12345\n");
		MappedPackedRefs mapped = MappedPackedRefs.map(file, HashAlgorithm.SHA1);
		assertThat(mapped.find("refs/heads/a").id()).hasToString(A);
		assertThatThrownBy(() -> mapped.find("refs/heads/b")).isInstanceOf(CorruptRefStoreException.class)
			.hasMessageContaining(file.toString())
			.hasMessageContaining("line 3");
		assertThatThrownBy(() -> mapped.find("refs/heads/c")).isInstanceOf(CorruptRefStoreException.class)
			.hasMessageContaining("line 5")
			.hasMessageContaining("peeled");
	}

	@Test
	void lineWithoutTheRecordShapeOnTheSearchPathIsCorrupt() throws Exception {
		Path file = write("# pack-refs with: sorted \n" + A + " refs/heads/a\nnot a record\n" + A + " refs/heads/c\n");
		MappedPackedRefs mapped = MappedPackedRefs.map(file, HashAlgorithm.SHA1);
		assertThatThrownBy(() -> mapped.find("refs/heads/b")).isInstanceOf(CorruptRefStoreException.class)
			.hasMessageContaining("line 3");
	}

	@Test
	void chunksHoldEveryRecordWholeInOrderAndReportDamageWithTheFilesLineNumbers() throws Exception {
		StringBuilder text = new StringBuilder("# pack-refs with: peeled fully-peeled sorted \n");
		int lines = 1;
		int damagedLine = -1;
		for (int i = 0; i < 50_000; i++) {
			if (i == 20_000) {
				// one record longer than a chunk: the buffer grows for it
				text.append(A)
					.append(" refs/heads/")
					.append(String.format("%06d", i))
					.append("/")
					.append("x".repeat(MappedPackedRefs.Chunks.SIZE + 100))
					.append('\n');
				lines++;
				continue;
			}
			boolean damaged = i == 40_000;
			text.append(damaged ? A.replace('1', 'z') : A)
				.append(" refs/heads/")
				.append(String.format("%06d", i))
				.append('\n');
			lines++;
			if (damaged) {
				damagedLine = lines;
			}
			if (i % 3 == 0) {
				// peeled lines everywhere, so some chunk would end between a ref line and
				// its
				// own
				text.append('^').append(P).append('\n');
				lines++;
			}
		}
		Path file = write(text.toString());
		byte[] bytes = Files.readAllBytes(file);
		int header = text.indexOf("\n") + 1;
		MappedPackedRefs.Chunks chunks = MappedPackedRefs.map(file, HashAlgorithm.SHA1).chunks();
		java.io.ByteArrayOutputStream joined = new java.io.ByteArrayOutputStream();
		int count = 0;
		String damage = null;
		while (chunks.hasNext()) {
			PackedRefs chunk = chunks.next();
			assertThat(chunk.end).isPositive();
			assertThat(chunk.buf[0]).as("a chunk starts with a ref line").isNotEqualTo((byte) '^');
			assertThat(chunk.buf[chunk.end - 1]).isEqualTo((byte) '\n');
			joined.write(chunk.buf, 0, chunk.end);
			for (int record = 0; record < chunk.end; record = chunk.nextRecord(record)) {
				try {
					chunk.checkRecord(record);
				}
				catch (CorruptRefStoreException ex) {
					damage = ex.getMessage();
				}
			}
			count++;
		}
		assertThat(count).as("chunks").isGreaterThan(3);
		assertThat(joined.toByteArray()).isEqualTo(java.util.Arrays.copyOfRange(bytes, header, bytes.length));
		assertThat(damage).contains(file.toString()).contains("line " + damagedLine + ":");
	}

}
