package io.refstore.core.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * refstore's object database reader answers, for both hashes, exactly as git 2.39 does
 * ({@code git cat-file -t}, {@code git rev-parse X^{}}) for repositories whose objects
 * are loose, packed by {@code git gc}, or repacked with tags stored as OFS_DELTA or
 * REF_DELTA entries.
 */
class ObjectDatabaseIT {

	/** How the fixture's objects are stored when the database reads them. */
	enum Layout {

		LOOSE, GC, REPACK_OFS_DELTA, REPACK_REF_DELTA;

		void apply(TempRepo repo) {
			switch (this) {
				case LOOSE -> {
				}
				case GC -> repo.git("gc", "-q");
				case REPACK_OFS_DELTA -> repo.git("repack", "-adf", "-q", "--depth=50", "--window=250");
				case REPACK_REF_DELTA -> repo.git("-c", "repack.useDeltaBaseOffset=false", "repack", "-adf", "-q",
						"--depth=50", "--window=250");
			}
		}

	}

	static Stream<Arguments> layouts() {
		return Stream.of(HashAlgorithm.values())
			.flatMap((algorithm) -> Stream.of(Layout.values()).map((layout) -> Arguments.of(algorithm, layout)));
	}

	@ParameterizedTest(name = "{0} {1}")
	@MethodSource("layouts")
	void typeAndPeelMatchGitForEveryObject(HashAlgorithm algorithm, Layout layout, @TempDir Path dir)
			throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), dir, "--object-format=" + algorithm.configName());
		Map<String, String> objects = fixture(repo);
		layout.apply(repo);
		if (layout == Layout.REPACK_OFS_DELTA || layout == Layout.REPACK_REF_DELTA) {
			assertThat(deltifiedTags(repo)).as("tags stored as deltas, so that delta chains are exercised")
				.isGreaterThan(10);
		}
		if (layout != Layout.LOOSE) {
			assertThat(looseObjectCount(repo)).isZero();
		}
		try (ObjectDatabase db = ObjectDatabases.open(repo.gitDir().resolve("objects"), algorithm)) {
			for (Map.Entry<String, String> object : objects.entrySet()) {
				ObjectId id = ObjectId.fromHex(algorithm, object.getValue());
				String gitType = repo.git("cat-file", "-t", object.getValue()).trim();
				assertThat(db.type(id)).as(object.getKey()).isEqualTo(ObjectType.valueOf(gitType.toUpperCase()));
				assertThat(db.exists(id)).as(object.getKey()).isTrue();
				ObjectId expectedPeel = gitType.equals("tag")
						? ObjectId.fromHex(algorithm, repo.git("rev-parse", object.getValue() + "^{}").trim()) : null;
				assertThat(db.peel(id)).as("peel " + object.getKey()).isEqualTo(expectedPeel);
			}
			assertBatchTypesMatchSingleOnes(db, algorithm, objects);
		}
	}

	/**
	 * {@link ObjectDatabase#types} in one batch, a missing id among them, agrees with one
	 * type at a time.
	 */
	private static void assertBatchTypesMatchSingleOnes(ObjectDatabase db, HashAlgorithm algorithm,
			Map<String, String> objects) throws IOException {
		List<ObjectId> ids = new java.util.ArrayList<>();
		objects.values().forEach((hex) -> ids.add(ObjectId.fromHex(algorithm, hex)));
		ids.add(ids.size() / 2, ObjectId.fromHex(algorithm, "ab".repeat(algorithm.rawLength())));
		byte[] raw = new byte[ids.size() * algorithm.rawLength()];
		for (int i = 0; i < ids.size(); i++) {
			ids.get(i).copyRawTo(raw, i * algorithm.rawLength());
		}
		ObjectType[] types = new ObjectType[ids.size()];
		db.types(algorithm, raw, ids.size(), types);
		for (int i = 0; i < ids.size(); i++) {
			assertThat(types[i]).as(ids.get(i).name()).isEqualTo(db.type(ids.get(i)));
		}
		assertThat(types[ids.size() / 2]).isNull();
	}

	@Test
	void readsAVersion1PackIndexAsGitDoes(@TempDir Path dir) throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), dir, "--object-format=sha1");
		Map<String, String> objects = fixture(repo);
		Layout.REPACK_OFS_DELTA.apply(repo);
		Path pack;
		try (Stream<Path> files = Files.list(repo.gitDir().resolve("objects/pack"))) {
			pack = files.filter((p) -> p.toString().endsWith(".pack")).findFirst().orElseThrow();
		}
		Path idx = pack.resolveSibling(pack.getFileName().toString().replace(".pack", ".idx"));
		Files.delete(idx);
		repo.git("index-pack", "--index-version=1", "-o", idx.toString(), pack.toString());
		byte[] head = Files.readAllBytes(idx);
		assertThat(head[0] == (byte) 0xff && head[1] == 't').as("no version 2 magic").isFalse();
		try (ObjectDatabase db = ObjectDatabases.open(repo.gitDir().resolve("objects"), HashAlgorithm.SHA1)) {
			for (Map.Entry<String, String> object : objects.entrySet()) {
				ObjectId id = ObjectId.fromHex(HashAlgorithm.SHA1, object.getValue());
				String gitType = repo.git("cat-file", "-t", object.getValue()).trim();
				assertThat(db.type(id)).as(object.getKey()).isEqualTo(ObjectType.valueOf(gitType.toUpperCase()));
				ObjectId expectedPeel = gitType.equals("tag")
						? ObjectId.fromHex(HashAlgorithm.SHA1, repo.git("rev-parse", object.getValue() + "^{}").trim())
						: null;
				assertThat(db.peel(id)).as("peel " + object.getKey()).isEqualTo(expectedPeel);
			}
			assertThat(db.type(ObjectId.fromHex(HashAlgorithm.SHA1, "ab".repeat(20)))).isNull();
		}
	}

	@ParameterizedTest
	@EnumSource(HashAlgorithm.class)
	void missingObjectHasNoTypeAndNoPeel(HashAlgorithm algorithm, @TempDir Path dir) throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), dir, "--object-format=" + algorithm.configName());
		fixture(repo);
		Layout.GC.apply(repo);
		ObjectId missing = ObjectId.fromHex(algorithm, "ab".repeat(algorithm.rawLength()));
		assertThat(repo.run(new byte[0], "cat-file", "-e", missing.name()).exitCode()).isNotZero();
		try (ObjectDatabase db = ObjectDatabases.open(repo.gitDir().resolve("objects"), algorithm)) {
			assertThat(db.type(missing)).isNull();
			assertThat(db.exists(missing)).isFalse();
			assertThat(db.peel(missing)).isNull();
		}
	}

	@ParameterizedTest
	@EnumSource(HashAlgorithm.class)
	void tagOfMissingObjectPeelsToItsTargetAsGitPackRefsDoes(HashAlgorithm algorithm, @TempDir Path dir)
			throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), dir, "--object-format=" + algorithm.configName());
		String absent = "cd".repeat(algorithm.rawLength());
		String tag = repo.tagObject("dangling", absent, "commit");
		String tagOfMissingTag = repo.tagObject("dangling-outer", absent, "tag");
		repo.git("update-ref", "refs/tags/dangling", tag);
		repo.git("update-ref", "refs/tags/dangling-outer", tagOfMissingTag);
		repo.git("pack-refs", "--all");
		String packed = Files.readString(repo.gitDir().resolve("packed-refs"));
		assertThat(packed).contains(tag + " refs/tags/dangling\n^" + absent + "\n");
		assertThat(packed).contains(tagOfMissingTag + " refs/tags/dangling-outer\n")
			.doesNotContain("refs/tags/dangling-outer\n^");
		try (ObjectDatabase db = ObjectDatabases.open(repo.gitDir().resolve("objects"), algorithm)) {
			assertThat(db.peel(ObjectId.fromHex(algorithm, tag))).hasToString(absent);
			assertThat(db.peel(ObjectId.fromHex(algorithm, tagOfMissingTag))).isNull();
		}
	}

	@ParameterizedTest
	@EnumSource(HashAlgorithm.class)
	void findsObjectsMovedIntoANewPackAfterOpening(HashAlgorithm algorithm, @TempDir Path dir) throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), dir, "--object-format=" + algorithm.configName());
		String first = repo.commit("first", null);
		repo.git("update-ref", "refs/heads/main", first);
		try (ObjectDatabase db = ObjectDatabases.open(repo.gitDir().resolve("objects"), algorithm)) {
			assertThat(db.type(ObjectId.fromHex(algorithm, first))).isEqualTo(ObjectType.COMMIT);
			String second = repo.commit("second", first);
			String tag = repo.tagObject("v2", second, "commit");
			repo.git("update-ref", "refs/tags/v2", tag);
			repo.git("repack", "-adq");
			repo.git("prune-packed");
			assertThat(looseObjectCount(repo)).isZero();
			// the batched lookup is the first to miss the packs it knows: it must find
			// the new pack
			assertThat(batchTypes(db, algorithm, second, tag)).containsExactly(ObjectType.COMMIT, ObjectType.TAG);
			assertThat(db.peel(ObjectId.fromHex(algorithm, tag))).hasToString(second);
			assertThat(db.type(ObjectId.fromHex(algorithm, first))).isEqualTo(ObjectType.COMMIT);
		}
	}

	@ParameterizedTest
	@EnumSource(HashAlgorithm.class)
	void readsObjectsThroughAlternates(HashAlgorithm algorithm, @TempDir Path dir) throws IOException {
		TempRepo origin = TempRepo.init(GitCli.system(), dir.resolve("origin"),
				"--object-format=" + algorithm.configName());
		String commit = origin.commit("shared", null);
		String tag = origin.tagObject("v1", commit, "commit");
		origin.git("update-ref", "refs/tags/v1", tag);
		origin.git("gc", "-q");
		GitCli.system().ok(dir, "clone", "-q", "--shared", "--bare", "origin", "clone.git");
		Path cloneObjects = dir.resolve("clone.git/objects");
		assertThat(cloneObjects.resolve("info/alternates")).exists();
		try (ObjectDatabase db = ObjectDatabases.open(cloneObjects, algorithm)) {
			assertThat(batchTypes(db, algorithm, tag, commit)).containsExactly(ObjectType.TAG, ObjectType.COMMIT);
			assertThat(db.type(ObjectId.fromHex(algorithm, commit))).isEqualTo(ObjectType.COMMIT);
			assertThat(db.peel(ObjectId.fromHex(algorithm, tag))).hasToString(commit);
		}
	}

	/** {@link ObjectDatabase#types} of the given ids, in one batch. */
	private static ObjectType[] batchTypes(ObjectDatabase db, HashAlgorithm algorithm, String... hex)
			throws IOException {
		byte[] raw = new byte[hex.length * algorithm.rawLength()];
		for (int i = 0; i < hex.length; i++) {
			ObjectId.fromHex(algorithm, hex[i]).copyRawTo(raw, i * algorithm.rawLength());
		}
		ObjectType[] types = new ObjectType[hex.length];
		db.types(algorithm, raw, hex.length, types);
		return types;
	}

	@Test
	void refusesIdsOfTheOtherHash(@TempDir Path dir) throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), dir, "--object-format=sha256");
		try (ObjectDatabase db = ObjectDatabases.open(repo.gitDir().resolve("objects"), HashAlgorithm.SHA256)) {
			assertThatThrownBy(() -> db.type(HashAlgorithm.SHA1.zeroId())).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("sha1 id")
				.hasMessageContaining("sha256 object database");
		}
	}

	/**
	 * A commit, its tree, a blob, tags of each, tags of tags, and thirty near-identical
	 * large tags that repack stores as deltas of each other; every object has a ref so
	 * that repacking keeps it.
	 * @return a label for each object and its hex id
	 */
	static Map<String, String> fixture(TempRepo repo) throws IOException {
		Map<String, String> objects = new LinkedHashMap<>();
		String commit = repo.commit("base", null);
		objects.put("commit", commit);
		objects.put("tree", repo.git("rev-parse", commit + "^{tree}").trim());
		objects.put("blob",
				repo.run("some content\n".getBytes(StandardCharsets.UTF_8), "hash-object", "-w", "--stdin")
					.requireOk()
					.stdout()
					.trim());
		objects.put("tag->commit", repo.tagObject("v-commit", commit, "commit"));
		objects.put("tag->tree", repo.tagObject("v-tree", objects.get("tree"), "tree"));
		objects.put("tag->blob", repo.tagObject("v-blob", objects.get("blob"), "blob"));
		objects.put("tag->tag->commit", repo.tagObject("v-tag", objects.get("tag->commit"), "tag"));
		String inner = repo.tagObject("v-tag1", objects.get("tag->tree"), "tag");
		objects.put("tag->tag->tag->tree", repo.tagObject("v-tag2", inner, "tag"));
		objects.putAll(similarTags(repo, commit, objects.get("tag->commit")));
		StringBuilder updates = new StringBuilder();
		int i = 0;
		for (String id : objects.values()) {
			updates.append("update refs/fixture/o").append(i++).append(' ').append(id).append('\n');
		}
		repo.run(updates.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		return objects;
	}

	private static Map<String, String> similarTags(TempRepo repo, String commit, String tag) throws IOException {
		String body = "lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(60);
		List<String> args = new ArrayList<>(List.of("hash-object", "-t", "tag", "-w"));
		for (int i = 0; i < 30; i++) {
			// every other one tags a tag, so that deltified tags also sit inside peel
			// chains
			String target = (i % 2 == 0) ? commit : tag;
			String type = (i % 2 == 0) ? "commit" : "tag";
			String text = "object " + target + "\ntype " + type + "\ntag similar-" + i
					+ "\ntagger C O Mitter <committer@example.com> 1700000000 +0000\n\n" + body + i + "\n";
			Path file = repo.gitDir().resolve("fixture-tag-" + i);
			Files.writeString(file, text);
			args.add(file.toString());
		}
		String[] ids = repo.git(args.toArray(String[]::new)).trim().split("\n");
		for (int i = 0; i < 30; i++) {
			Files.delete(repo.gitDir().resolve("fixture-tag-" + i));
		}
		Map<String, String> tags = new LinkedHashMap<>();
		for (int i = 0; i < ids.length; i++) {
			tags.put("similar-" + i, ids[i]);
		}
		return tags;
	}

	/** How many tags {@code git verify-pack -v} lists with a delta base. */
	static long deltifiedTags(TempRepo repo) throws IOException {
		try (Stream<Path> files = Files.list(repo.gitDir().resolve("objects/pack"))) {
			List<Path> indexes = files.filter((p) -> p.toString().endsWith(".idx")).toList();
			long count = 0;
			for (Path idx : indexes) {
				count += repo.git("verify-pack", "-v", idx.toString())
					.lines()
					.map((line) -> line.split("\\s+"))
					.filter((f) -> f.length == 7 && f[1].equals("tag"))
					.count();
			}
			return count;
		}
	}

	static long looseObjectCount(TempRepo repo) {
		String counts = repo.git("count-objects", "-v");
		return counts.lines()
			.filter((line) -> line.startsWith("count: "))
			.mapToLong((line) -> Long.parseLong(line.substring(7).trim()))
			.sum();
	}

}
