package io.refstore.core.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabases;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@link PackedRefsDeletion#writeChanged}: on a sorted, fully peeled {@code packed-refs}
 * (written by git) its spliced copy is byte for byte the file a merge of every record
 * writes ({@link FilesPacker#writeMerged}), for random deletions, replacements and new
 * records (tags peeled through a real object database); without the header's promise, and
 * without a file, it merges.
 */
class PackedRefsChangeIT {

	@TempDir
	Path dir;

	@Test
	void aSplicedCopyIsTheFileAMergeWrites() throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), this.dir.resolve("repo"));
		String one = repo.commit("one", null);
		String two = repo.commit("two", one);
		String tag = repo.tagObject("v1", one, "commit");
		List<String> ids = List.of(one, two, tag);
		Random random = new Random(42);
		StringBuilder refs = new StringBuilder();
		TreeSet<String> names = new TreeSet<>();
		for (int i = 0; i < 2000; i++) {
			String name = name(random);
			if (names.add(name)) {
				refs.append("create ").append(name).append(' ').append(id(name, ids, random)).append('\n');
			}
		}
		repo.run(refs.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		repo.git("pack-refs", "--all");
		Path packed = repo.gitDir().resolve("packed-refs");
		Path unsorted = this.dir.resolve("unsorted");
		Files.writeString(unsorted,
				Files.readString(packed).replaceFirst("^# pack-refs with: [^\n]*\n", "# pack-refs with: peeled \n"));
		List<String> existing = new ArrayList<>(names);
		try (ObjectDatabase objects = ObjectDatabases.open(repo.gitDir().resolve("objects"), HashAlgorithm.SHA1)) {
			for (int round = 0; round < 40; round++) {
				List<byte[]> deleted = new ArrayList<>();
				TreeSet<String> written = new TreeSet<>();
				int changes = 1 + random.nextInt((round % 4 == 0) ? 200 : 5);
				for (int i = 0; i < changes; i++) {
					String name = random.nextBoolean() ? existing.get(random.nextInt(existing.size())) : name(random);
					if (random.nextInt(3) == 0) {
						if (!written.contains(name)) {
							deleted.add(name.getBytes(StandardCharsets.UTF_8));
						}
					}
					else if (deleted.stream()
						.noneMatch((d) -> Arrays.equals(d, name.getBytes(StandardCharsets.UTF_8)))) {
						written.add(name);
					}
				}
				List<DirectRef> values = new ArrayList<>();
				for (String name : written) {
					values.add(new DirectRef(name, ObjectId.fromHex(HashAlgorithm.SHA1, id(name, ids, random))));
				}
				values.sort((a, b) -> Arrays.compareUnsigned(a.name().getBytes(StandardCharsets.UTF_8),
						b.name().getBytes(StandardCharsets.UTF_8)));
				for (Path file : List.of(packed, unsorted, this.dir.resolve("missing"))) {
					String expected = merged(file, deleted, values, objects);
					Path target = this.dir.resolve("changed");
					PackedRefsDeletion.writeChanged(file, HashAlgorithm.SHA1, deleted, values, objects, target, false,
							() -> PackedRefs.read(file, HashAlgorithm.SHA1));
					assertThat(Files.readString(target)).as("round " + round + " of " + file.getFileName())
						.isEqualTo(expected);
					Files.delete(target);
				}
			}
		}
	}

	private String merged(Path file, List<byte[]> deleted, List<DirectRef> written, ObjectDatabase objects)
			throws IOException {
		List<byte[]> dropped = new ArrayList<>(deleted);
		dropped.sort(Arrays::compareUnsigned);
		Path target = this.dir.resolve("merged");
		FilesPacker.writeMerged(objects, PackedRefs.read(file, HashAlgorithm.SHA1), written, dropped, target, false);
		String text = Files.readString(target);
		Files.delete(target);
		return text;
	}

	/** A commit for a branch, a commit or the tag for anything else. */
	private static String id(String name, List<String> ids, Random random) {
		return ids.get(random.nextInt(name.startsWith("refs/heads/") ? 2 : 3));
	}

	/** Names that share prefixes, sort around each other and nest. */
	private static String name(Random random) {
		String[] kinds = { "refs/heads/", "refs/tags/", "refs/pull/", "refs/heads/a/" };
		return kinds[random.nextInt(kinds.length)] + (char) ('a' + random.nextInt(6)) + random.nextInt(400)
				+ (random.nextInt(5) == 0 ? "-x" : "");
	}

}
