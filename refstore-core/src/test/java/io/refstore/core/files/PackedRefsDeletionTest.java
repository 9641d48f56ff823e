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
import io.refstore.core.ref.HashAlgorithm;

class PackedRefsDeletionTest {

	private static final String HEADER = "# pack-refs with: peeled fully-peeled sorted \n";

	@TempDir
	Path dir;

	/**
	 * Records a, b (peeled), c, d/e, d/f (peeled), z, each a line (with its peeled line).
	 */
	private static List<String> records() {
		List<String> records = new ArrayList<>();
		String[] names = { "refs/heads/a", "refs/tags/b", "refs/heads/c", "refs/heads/d/e", "refs/tags/d/f", "refs/z" };
		for (int i = 0; i < names.length; i++) {
			String record = String.valueOf((char) ('1' + i)).repeat(40) + " " + names[i] + "\n";
			if (names[i].startsWith("refs/tags/")) {
				record += "^" + "f".repeat(40) + "\n";
			}
			records.add(record);
		}
		records.sort((x, y) -> x.substring(41).compareTo(y.substring(41)));
		return records;
	}

	private Path packed(String header, List<String> records) throws IOException {
		Path file = this.dir.resolve("packed-refs");
		Files.writeString(file, header + String.join("", records), StandardCharsets.UTF_8);
		return file;
	}

	private String rewrite(Path file, String... deleted) throws IOException {
		List<byte[]> names = new ArrayList<>();
		for (String name : deleted) {
			names.add(name.getBytes(StandardCharsets.UTF_8));
		}
		Path target = this.dir.resolve("packed-refs.new");
		boolean written = PackedRefsDeletion.writeWithout(file, HashAlgorithm.SHA1, names, null, target, false,
				() -> PackedRefs.read(file, HashAlgorithm.SHA1));
		return written ? Files.readString(target) : null;
	}

	@Test
	void copiesEverythingButTheDeletedRecordsWithTheirPeeledLines() throws IOException {
		List<String> records = records();
		Path file = packed(HEADER, records);
		for (String[] deleted : new String[][] { { "refs/heads/a" }, { "refs/z" }, { "refs/tags/b", "refs/heads/c" },
				{ "refs/tags/d/f", "refs/heads/a", "refs/z", "refs/nothing" },
				{ "refs/heads/a", "refs/tags/b", "refs/heads/c", "refs/heads/d/e", "refs/tags/d/f", "refs/z" } }) {
			StringBuilder expected = new StringBuilder(HEADER);
			for (String record : records) {
				if (!List.of(deleted).contains(record.substring(41, record.indexOf('\n')))) {
					expected.append(record);
				}
			}
			assertThat(rewrite(file, deleted)).as(String.join(",", deleted)).isEqualTo(expected.toString());
		}
	}

	@Test
	void writesNothingWhenNoDeletedNameIsPacked() throws IOException {
		Path file = packed(HEADER, records());
		assertThat(rewrite(file, "refs/heads/b", "refs/heads/d", "refs/heads/d/e/f")).isNull();
		assertThat(rewrite(this.dir.resolve("missing"), "refs/heads/a")).isNull();
		assertThat(this.dir.resolve("packed-refs.new")).doesNotExist();
	}

	@Test
	void reportsADamagedLineMetBySearchAndLeavesNoFile() throws IOException {
		List<String> records = records();
		records.set(2, "not a record\n");
		Path file = packed(HEADER, records);
		assertThatThrownBy(() -> rewrite(file, records().get(2).substring(41).trim()))
			.isInstanceOf(CorruptRefStoreException.class)
			.hasMessageContaining("line 4");
		assertThat(this.dir.resolve("packed-refs.new")).doesNotExist();
	}

	@Test
	void refusesToRewriteAFileWithADamagedLineAnywhere() throws IOException {
		List<String> records = records();
		records.add("this is not a ref\n");
		Path file = packed(HEADER, records);
		assertThatThrownBy(() -> rewrite(file, "refs/heads/a")).isInstanceOf(CorruptRefStoreException.class)
			.hasMessageContaining("line 10");
		List<String> orphan = records();
		// after the record of refs/tags/b, which has its peeled line already
		orphan.add(4, "^" + "e".repeat(40) + "\n");
		Path second = packed(HEADER, orphan);
		assertThatThrownBy(() -> rewrite(second, "refs/z")).isInstanceOf(CorruptRefStoreException.class)
			.hasMessageContaining("line 7");
		List<String> emptyName = records();
		emptyName.add(1, "9".repeat(40) + " \n");
		Path third = packed(HEADER, emptyName);
		assertThatThrownBy(() -> rewrite(third, "refs/z")).isInstanceOf(CorruptRefStoreException.class)
			.hasMessageContaining("line 3: not a ref line");
		List<String> badHex = records();
		badHex.set(2, "g" + badHex.get(2).substring(1));
		Path fourth = packed(HEADER, badHex);
		assertThatThrownBy(() -> rewrite(fourth, "refs/z")).isInstanceOf(CorruptRefStoreException.class)
			.hasMessageContaining("line 4: not a ref line");
		assertThat(this.dir.resolve("packed-refs.new")).doesNotExist();
	}

}
