package io.refstore.core.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.refstore.core.testing.TempRepo;

/**
 * The objects refs may point at in the differential tests, written by git into a
 * repository: commits, annotated tags of commits, a tag of a tag, a tag of a tag of a
 * tag, a tag of a tree and a tag of a blob, plus ids of objects that do not exist. Every
 * object is made by one {@code git fast-import} run (and one {@code hash-object} for the
 * tree tag, which fast-import cannot mark), so two repositories given the same pool hold
 * byte-identical objects.
 *
 * <p>
 * Immutable once made; safe to share between threads.
 */
final class ObjectPool {

	/**
	 * The object types the generator needs to know (git refuses non-commits on branches).
	 */
	enum Type {

		COMMIT, TAG, TREE, BLOB, MISSING

	}

	private static final String TAGGER = "tagger C O Mitter <committer@example.com> 1700000000 +0000\n";

	private static final String COMMITTER = "committer C O Mitter <committer@example.com> 1700000000 +0000\n";

	private final List<String> commits;

	private final List<String> tags;

	private final List<String> missing;

	private final Map<String, Type> types;

	private ObjectPool(List<String> commits, List<String> tags, List<String> missing, Map<String, Type> types) {
		this.commits = List.copyOf(commits);
		this.tags = List.copyOf(tags);
		this.missing = List.copyOf(missing);
		this.types = Map.copyOf(types);
	}

	/**
	 * Writes the pool into {@code repo} and removes the refs fast-import needed, leaving
	 * no ref behind.
	 * @param repo a repository without refs under {@code refs/pool/} and
	 * {@code refs/tags/pool-}
	 * @param commitCount how many commits (at least 4)
	 * @return the pool
	 */
	static ObjectPool create(TempRepo repo, int commitCount) {
		StringBuilder stream = new StringBuilder();
		blob(stream, 1, "blob for a tag\n");
		for (int i = 0; i < commitCount; i++) {
			// two lines of history so that commits have parents on both, and trees differ
			// between commits
			String branch = (i % 3 == 2) ? "refs/pool/side" : "refs/pool/main";
			String content = "content " + i + "\n";
			stream.append("commit ").append(branch).append("\nmark :").append(100 + i).append('\n');
			stream.append(COMMITTER);
			data(stream, "commit " + i + "\n");
			stream.append("M 644 inline f").append(i % 5).append('\n');
			data(stream, content);
			stream.append('\n');
		}
		int tagCount = Math.min(8, commitCount);
		for (int i = 0; i < tagCount; i++) {
			tag(stream, "pool-c" + i, 1000 + i, ":" + (100 + i * commitCount / tagCount));
		}
		tag(stream, "pool-tag-of-tag", 1100, ":1000");
		tag(stream, "pool-tag-of-tag-of-tag", 1101, ":1100");
		tag(stream, "pool-blob", 1102, ":1");
		Path marks = repo.dir().resolveSibling(repo.dir().getFileName() + ".pool-marks");
		repo.run(stream.toString().getBytes(StandardCharsets.UTF_8), "fast-import", "--quiet",
				"--export-marks=" + marks)
			.requireOk();
		Map<Integer, String> ids = readMarks(marks);
		return collect(repo, ids, commitCount, tagCount);
	}

	private static ObjectPool collect(TempRepo repo, Map<Integer, String> ids, int commitCount, int tagCount) {
		Map<String, Type> types = new HashMap<>();
		List<String> commits = new ArrayList<>();
		for (int i = 0; i < commitCount; i++) {
			commits.add(ids.get(100 + i));
			types.put(ids.get(100 + i), Type.COMMIT);
		}
		List<String> tags = new ArrayList<>();
		for (int mark : marksOfTags(tagCount)) {
			tags.add(ids.get(mark));
		}
		String tree = repo.git("rev-parse", commits.get(0) + "^{tree}").trim();
		String treeTag = repo.tagObject("pool-tree", tree, "tree");
		tags.add(treeTag);
		tags.add(repo.tagObject("pool-tag-of-tree-tag", treeTag, "tag"));
		tags.forEach((tag) -> types.put(tag, Type.TAG));
		types.put(ids.get(1), Type.BLOB);
		types.put(tree, Type.TREE);
		List<String> missing = List.of("0123456789abcdef0123456789abcdef01234567",
				"fedcba9876543210fedcba9876543210fedcba98");
		missing.forEach((id) -> types.put(id, Type.MISSING));
		StringBuilder deletes = new StringBuilder("delete refs/pool/main\ndelete refs/pool/side\n");
		for (String line : repo.git("for-each-ref", "--format=%(refname)", "refs/tags/").split("\n")) {
			if (line.startsWith("refs/tags/pool-")) {
				deletes.append("delete ").append(line).append('\n');
			}
		}
		repo.run(deletes.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		return new ObjectPool(commits, tags, missing, types);
	}

	private static List<Integer> marksOfTags(int tagCount) {
		List<Integer> marks = new ArrayList<>();
		for (int i = 0; i < tagCount; i++) {
			marks.add(1000 + i);
		}
		marks.addAll(List.of(1100, 1101, 1102));
		return marks;
	}

	private static void blob(StringBuilder stream, int mark, String content) {
		stream.append("blob\nmark :").append(mark).append('\n');
		data(stream, content);
	}

	private static void tag(StringBuilder stream, String name, int mark, String from) {
		stream.append("tag ").append(name).append("\nmark :").append(mark).append("\nfrom ").append(from).append('\n');
		stream.append(TAGGER);
		data(stream, name + "\n");
	}

	private static void data(StringBuilder stream, String content) {
		stream.append("data ").append(content.getBytes(StandardCharsets.UTF_8).length).append('\n').append(content);
	}

	private static Map<Integer, String> readMarks(Path marks) {
		try {
			Map<Integer, String> ids = new HashMap<>();
			for (String line : Files.readAllLines(marks)) {
				int space = line.indexOf(' ');
				ids.put(Integer.parseInt(line.substring(1, space)), line.substring(space + 1).trim());
			}
			Files.delete(marks);
			return ids;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Commit ids, oldest first. */
	List<String> commits() {
		return this.commits;
	}

	/** Annotated tag ids: of commits, of tags, of a tree and of a blob. */
	List<String> tags() {
		return this.tags;
	}

	/** Well-formed ids of objects that are not in the repository. */
	List<String> missing() {
		return this.missing;
	}

	/** The type of a pool object ({@link Type#MISSING} for ids not in the pool). */
	Type type(String id) {
		return this.types.getOrDefault(id, Type.MISSING);
	}

	/**
	 * Whether this pool holds the same ids as {@code other} (the twins were made
	 * identically).
	 */
	boolean sameAs(ObjectPool other) {
		return this.commits.equals(other.commits) && this.tags.equals(other.tags) && this.types.equals(other.types);
	}

}
