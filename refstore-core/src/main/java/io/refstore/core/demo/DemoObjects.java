package io.refstore.core.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TagBuilder;
import org.eclipse.jgit.lib.TreeFormatter;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * Writes the objects of a demo repository with JGit's inserter: a linear history of commits, each changing
 * one file, and annotated tags. Deterministic: the same counts give the same object ids. Not thread-safe.
 */
final class DemoObjects implements AutoCloseable {

	/** The time of the first commit; each later one is an hour on. */
	static final long EPOCH = 1_700_000_000L;

	private final Repository repository;

	private final ObjectInserter inserter;

	private final ObjectId readme;

	/** Opens the object database of the git directory {@code gitDir}, which must hold a files-format config. */
	DemoObjects(Path gitDir) throws IOException {
		this.repository = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setBare().build();
		this.inserter = this.repository.newObjectInserter();
		this.readme = blob("# demo\n\nA repository made by refstore's demo setup.\n");
	}

	private ObjectId blob(String text) throws IOException {
		return this.inserter.insert(Constants.OBJ_BLOB, text.getBytes(StandardCharsets.UTF_8));
	}

	static PersonIdent person(String name, long epochSeconds) {
		return new PersonIdent(name, name.toLowerCase(java.util.Locale.ROOT).replace(' ', '.') + "@example.com",
				epochSeconds * 1000, 0);
	}

	/**
	 * Writes {@code count} commits, each the child of the one before.
	 * @return their ids, oldest first
	 */
	List<ObjectId> history(int count) throws IOException {
		List<ObjectId> commits = new ArrayList<>(count);
		ObjectId parent = null;
		for (int i = 0; i < count; i++) {
			TreeFormatter tree = new TreeFormatter();
			tree.append("README.md", FileMode.REGULAR_FILE, this.readme);
			tree.append("counter.txt", FileMode.REGULAR_FILE, blob("change " + i + "\n"));
			CommitBuilder commit = new CommitBuilder();
			commit.setTreeId(this.inserter.insert(tree));
			if (parent != null) {
				commit.setParentId(parent);
			}
			PersonIdent who = person("Demo Author", EPOCH + i * 3600L);
			commit.setAuthor(who);
			commit.setCommitter(who);
			commit.setMessage("Change " + i + "\n");
			parent = this.inserter.insert(commit);
			commits.add(parent);
		}
		return commits;
	}

	/** Writes an annotated tag of {@code commit} named {@code name}. */
	ObjectId tag(String name, ObjectId commit, long epochSeconds) throws IOException {
		TagBuilder tag = new TagBuilder();
		tag.setObjectId(commit, Constants.OBJ_COMMIT);
		tag.setTag(name);
		tag.setTagger(person("Release Manager", epochSeconds));
		tag.setMessage("Release " + name + "\n");
		return this.inserter.insert(tag);
	}

	/** Makes every written object visible in the object database. */
	void flush() throws IOException {
		this.inserter.flush();
	}

	@Override
	public void close() {
		this.inserter.close();
		this.repository.close();
	}

}
