package io.refstore.core.files;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.HashAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PackedRefsTest {

	private static final Path FILE = Path.of("/repo/.git/packed-refs");

	private static final String A = "1111111111111111111111111111111111111111";

	private static final String B = "2222222222222222222222222222222222222222";

	private static final String P = "3333333333333333333333333333333333333333";

	private static PackedRefs parse(String text) throws CorruptRefStoreException {
		return PackedRefs.parse(FILE, HashAlgorithm.SHA1, text.getBytes(StandardCharsets.UTF_8));
	}

	private static int find(PackedRefs refs, String name) throws CorruptRefStoreException {
		byte[] key = name.getBytes(StandardCharsets.UTF_8);
		return refs.find(key, key.length);
	}

	@Test
	void findsEveryRecordOfASortedFileByBinarySearch() throws Exception {
		StringBuilder text = new StringBuilder(new String(PackedRefs.HEADER, StandardCharsets.US_ASCII));
		List<String> names = new ArrayList<>();
		for (int i = 0; i < 500; i++) {
			names.add(String.format("refs/heads/b%04d", i));
		}
		for (String name : names) {
			text.append(A).append(' ').append(name).append('\n');
			if (name.endsWith("7")) {
				text.append('^').append(P).append('\n');
			}
		}
		PackedRefs refs = parse(text.toString());
		for (String name : names) {
			int record = find(refs, name);
			assertThat(record).as(name).isGreaterThanOrEqualTo(0);
			assertThat(refs.name(record)).isEqualTo(name);
			assertThat(refs.hasPeeled(record)).isEqualTo(name.endsWith("7"));
		}
		assertThat(find(refs, "refs/heads/b")).isNegative();
		assertThat(find(refs, "refs/heads/b04999")).isNegative();
		assertThat(find(refs, "refs/heads/c")).isNegative();
		assertThat(find(refs, "refs/heads/a")).isNegative();
	}

	@Test
	void sortsAFileWithoutTheSortedTraitBytewise() throws Exception {
		PackedRefs refs = parse(A + " refs/heads/z\n" + B + " refs/heads/\u00e9\n" + A + " refs/heads/a\n^" + P + "\n"
				+ B + " refs/heads/Z\n");
		List<String> order = new ArrayList<>();
		for (int record = refs.start; record < refs.buf.length; record = refs.nextRecord(record)) {
			order.add(refs.name(record));
		}
		assertThat(order).containsExactly("refs/heads/Z", "refs/heads/a", "refs/heads/z", "refs/heads/\u00e9");
		assertThat(refs.peeled(find(refs, "refs/heads/a")).name()).isEqualTo(P);
		assertThat(refs.traits.fullyPeeled()).isFalse();
	}

	@Test
	void findsTheFirstRefBelowADirectoryAndNoRefThatOnlySharesItsPrefix() throws Exception {
		PackedRefs refs = parse(
				"# pack-refs with: peeled fully-peeled sorted \n" + A + " refs/heads/a\n" + A + " refs/heads/a-b\n" + A
						+ " refs/heads/a/c\n^" + P + "\n" + A + " refs/heads/ab/x\n" + B + " refs/tags/t\n");
		assertThat(refs.firstBelow("refs/heads/a")).isEqualTo("refs/heads/a/c");
		assertThat(refs.firstBelow("refs/heads")).isEqualTo("refs/heads/a");
		assertThat(refs.firstBelow("refs/heads/a-b")).isNull();
		assertThat(refs.firstBelow("refs/heads/a/c")).isNull();
		assertThat(refs.firstBelow("refs/tags/t")).isNull();
		assertThat(refs.firstBelow("refs/tags/s")).isNull();
		assertThat(parse("").firstBelow("refs")).isNull();
	}

	@Test
	void readsTraitsFromTheHeader() throws Exception {
		PackedRefs refs = parse("# pack-refs with: peeled sorted \n" + A + " refs/heads/a\n" + A + " refs/tags/t\n");
		assertThat(refs.traits.fullyPeeled()).isFalse();
		assertThat(refs.peelKnown(find(refs, "refs/tags/t"))).isTrue();
		assertThat(refs.peelKnown(find(refs, "refs/heads/a"))).isFalse();
	}

	@Test
	void missingFinalNewlineIsCorruptAndNamesTheFile() {
		assertThatThrownBy(() -> parse("# pack-refs with: peeled fully-peeled sorted \n" + A + " refs/heads/a"))
			.isInstanceOf(CorruptRefStoreException.class)
			.hasMessageContaining("/repo/.git/packed-refs")
			.hasMessageContaining("unterminated line 1");
	}

	@Test
	void damagedLineIsReportedWithItsLineNumber() throws Exception {
		PackedRefs refs = parse(new String(PackedRefs.HEADER, StandardCharsets.US_ASCII) + A + " refs/heads/a\n"
				+ "xyz refs/heads/b\n" + A + " refs/heads/c\n");
		assertThatThrownBy(() -> find(refs, "refs/heads/b")).isInstanceOf(CorruptRefStoreException.class)
			.hasMessageContaining("packed-refs: line 3: not a ref line")
			.satisfies((ex) -> assertThat(((CorruptRefStoreException) ex).position()).isEqualTo(3));
	}

	@Test
	void unknownHeaderIsCorrupt() {
		assertThatThrownBy(() -> parse("# something else\n" + A + " refs/heads/a\n"))
			.isInstanceOf(CorruptRefStoreException.class)
			.hasMessageContaining("line 1: unknown header");
	}

	@Test
	void emptyAndHeaderOnlyFilesHoldNoRecord() throws Exception {
		assertThat(parse("").isEmpty()).isTrue();
		assertThat(parse(new String(PackedRefs.HEADER, StandardCharsets.US_ASCII)).isEmpty()).isTrue();
	}

}
