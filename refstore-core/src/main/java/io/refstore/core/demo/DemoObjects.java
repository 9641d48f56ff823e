package io.refstore.core.demo;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.refstore.core.objects.LooseObjectWriter;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.ObjectId;

/**
 * Writes the objects of a demo repository as loose objects: a linear history of commits,
 * each changing one file, and annotated tags. Deterministic: the same counts give the
 * same object ids. Not thread-safe.
 */
final class DemoObjects {

	/** The time of the first commit; each later one is an hour on. */
	static final long EPOCH = 1_700_000_000L;

	private final LooseObjectWriter writer;

	private final ObjectId readme;

	/** Writes into the object database of the git directory {@code gitDir}. */
	DemoObjects(Path gitDir) throws IOException {
		this.writer = new LooseObjectWriter(gitDir.resolve("objects"));
		this.readme = blob("# demo\n\nA repository made by refstore's demo setup.\n");
	}

	private ObjectId blob(String text) throws IOException {
		return this.writer.write(ObjectType.BLOB, text.getBytes(StandardCharsets.UTF_8));
	}

	/** A commit's or tag's identity line: name, address, time and zone (always UTC). */
	static String person(String name, long epochSeconds) {
		return name + " <" + name.toLowerCase(Locale.ROOT).replace(' ', '.') + "@example.com> " + epochSeconds
				+ " +0000";
	}

	/**
	 * Writes {@code count} commits, each the child of the one before.
	 * @return their ids, oldest first
	 */
	List<ObjectId> history(int count) throws IOException {
		List<ObjectId> commits = new ArrayList<>(count);
		ObjectId parent = null;
		for (int i = 0; i < count; i++) {
			// a tree's entries in name order: "README.md" sorts before "counter.txt"
			// (upper case first)
			ByteArrayOutputStream tree = new ByteArrayOutputStream();
			entry(tree, "README.md", this.readme);
			entry(tree, "counter.txt", blob("change " + i + "\n"));
			StringBuilder commit = new StringBuilder();
			commit.append("tree ").append(this.writer.write(ObjectType.TREE, tree.toByteArray()).name()).append('\n');
			if (parent != null) {
				commit.append("parent ").append(parent.name()).append('\n');
			}
			String who = person("Demo Author", EPOCH + i * 3600L);
			commit.append("author ")
				.append(who)
				.append("\ncommitter ")
				.append(who)
				.append("\n\nChange ")
				.append(i)
				.append('\n');
			parent = this.writer.write(ObjectType.COMMIT, commit.toString().getBytes(StandardCharsets.UTF_8));
			commits.add(parent);
		}
		return commits;
	}

	private static void entry(ByteArrayOutputStream tree, String name, ObjectId id) {
		tree.writeBytes(("100644 " + name + '\0').getBytes(StandardCharsets.UTF_8));
		tree.writeBytes(id.toRaw());
	}

	/** Writes an annotated tag of {@code commit} named {@code name}. */
	ObjectId tag(String name, ObjectId commit, long epochSeconds) throws IOException {
		String tag = "object " + commit.name() + "\ntype commit\ntag " + name + "\ntagger "
				+ person("Release Manager", epochSeconds) + "\n\nRelease " + name + "\n";
		return this.writer.write(ObjectType.TAG, tag.getBytes(StandardCharsets.UTF_8));
	}

}
