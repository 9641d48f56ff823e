package io.refstore.core.cli.revision;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import io.refstore.core.objects.ObjectContents;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogEntry;

/**
 * The revision operators {@code update-ref} takes in its values, as git's revision
 * syntax: {@code <rev>~<n>}, {@code <rev>^<n>}, {@code <rev>^{}} and
 * {@code <rev>^{<type>}}, {@code <ref>@{<n>}} (the n-th previous value in the ref's log)
 * and {@code <rev>:<path>} (a tree entry). Dates in {@code @{...}}, {@code @{-n}} and
 * searches ({@code :/text}) are not supported: such values name nothing.
 *
 * <p>
 * Not thread-safe (it opens the database once, when first needed).
 */
final class Revisions {

	/** Resolves the base of an expression: a full id or a ref name, as git expands it. */
	@FunctionalInterface
	interface BaseResolver {

		ObjectId resolve(String name) throws IOException;

	}

	/** Opens the object database when an expression first needs it. */
	@FunctionalInterface
	public interface ObjectsOpener {

		ObjectDatabase open() throws IOException;

	}

	private final RefStore refs;

	private final ObjectsOpener opener;

	private final BaseResolver base;

	private ObjectDatabase objects;

	Revisions(RefStore refs, ObjectsOpener opener, BaseResolver base) {
		this.refs = refs;
		this.opener = opener;
		this.base = base;
	}

	/** Whether a value uses an operator this class reads. */
	static boolean isExpression(String value) {
		return value.indexOf('~') >= 0 || value.indexOf('^') >= 0 || value.indexOf(':') >= 0 || value.contains("@{");
	}

	/**
	 * The object a revision expression names.
	 * @return the id, or {@code null} if it names nothing
	 */
	ObjectId resolve(String value) throws IOException {
		if (this.objects == null) {
			this.objects = this.opener.open();
		}
		int colon = value.indexOf(':');
		if (colon >= 0) {
			if (colon == 0) {
				// the index (":path", ":0:path") and searches (":/text") are not read
				// here
				return null;
			}
			ObjectId treeish = resolve(value.substring(0, colon));
			return (treeish != null) ? treeEntry(treeish, value.substring(colon + 1)) : null;
		}
		int end = value.length();
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c == '~' || c == '^') {
				end = i;
				break;
			}
		}
		ObjectId id = baseOf(value.substring(0, end));
		int i = end;
		while (id != null && i < value.length()) {
			char op = value.charAt(i++);
			if (op == '^' && i < value.length() && value.charAt(i) == '{') {
				int close = value.indexOf('}', i);
				if (close < 0) {
					return null;
				}
				id = peel(id, value.substring(i + 1, close));
				i = close + 1;
				continue;
			}
			int digits = i;
			while (i < value.length() && Character.isDigit(value.charAt(i))) {
				i++;
			}
			int n = (i > digits) ? Integer.parseInt(value.substring(digits, i)) : 1;
			if (op == '~') {
				for (int k = 0; k < n && id != null; k++) {
					id = parent(id, 1);
				}
			}
			else if (op == '^') {
				id = (n == 0) ? peel(id, "commit") : parent(id, n);
			}
			else {
				return null;
			}
		}
		return id;
	}

	/** A name, a full id, or {@code <ref>@{<n>}}. */
	private ObjectId baseOf(String text) throws IOException {
		int at = text.indexOf("@{");
		if (at < 0) {
			return this.base.resolve(text);
		}
		if (!text.endsWith("}")) {
			return null;
		}
		String spec = text.substring(at + 2, text.length() - 1);
		if (spec.isEmpty() || !spec.chars().allMatch(Character::isDigit)) {
			return null;
		}
		String name = text.substring(0, at);
		String full = fullName(name.isEmpty() || name.equals("@") ? "HEAD" : name);
		if (full == null) {
			return null;
		}
		List<ReflogEntry> log = this.refs.reflog(full);
		if (spec.length() > 9) {
			return null;
		}
		int n = Integer.parseInt(spec);
		// @{0} is the newest entry's new value, @{n} the value n entries before
		return (n < log.size()) ? log.get(log.size() - 1 - n).newId() : null;
	}

	/** The full name a short ref name expands to, as git's rules (the first existing). */
	private String fullName(String name) throws IOException {
		for (String prefix : new String[] { "", "refs/", "refs/tags/", "refs/heads/", "refs/remotes/" }) {
			if (this.refs.hasReflog(prefix + name) || this.refs.resolve(prefix + name).isPresent()) {
				return prefix + name;
			}
		}
		return null;
	}

	/** The {@code n}-th parent of the commit {@code id} peels to, or {@code null}. */
	private ObjectId parent(ObjectId id, int n) throws IOException {
		ObjectId commit = peel(id, "commit");
		if (commit == null) {
			return null;
		}
		byte[] content = ObjectContents.read(this.objects, commit).content();
		HashAlgorithm algorithm = commit.algorithm();
		byte[] parent = "parent ".getBytes(StandardCharsets.US_ASCII);
		int line = 0;
		int seen = 0;
		while (line < content.length && content[line] != '\n') {
			if (Arrays.equals(content, line, Math.min(content.length, line + parent.length), parent, 0, parent.length)
					&& ++seen == n) {
				return ObjectId.tryParse(algorithm,
						new String(content, line + parent.length, algorithm.hexLength(), StandardCharsets.US_ASCII));
			}
			while (line < content.length && content[line] != '\n') {
				line++;
			}
			line++;
		}
		return null;
	}

	/**
	 * Peels tags until an object of {@code type} ({@code ""}: any non-tag; a commit peels
	 * to its tree for {@code "tree"}); {@code null} if there is none.
	 */
	private ObjectId peel(ObjectId id, String type) throws IOException {
		ObjectId current = id;
		for (int depth = 0; depth < 64 && current != null; depth++) {
			ObjectType actual = this.objects.type(current);
			if (actual == null) {
				return null;
			}
			if (type.equals("object") || actual.gitName().equals(type)
					|| (type.isEmpty() && actual != ObjectType.TAG)) {
				return current;
			}
			if (actual == ObjectType.TAG) {
				current = this.objects.tagTarget(current);
			}
			else if (actual == ObjectType.COMMIT && type.equals("tree")) {
				byte[] content = ObjectContents.read(this.objects, current).content();
				return ObjectId.tryParse(current.algorithm(),
						new String(content, 5, current.algorithm().hexLength(), StandardCharsets.US_ASCII));
			}
			else {
				return null;
			}
		}
		return null;
	}

	/** The object at {@code path} in the tree {@code treeish} peels to. */
	private ObjectId treeEntry(ObjectId treeish, String path) throws IOException {
		ObjectId tree = peel(treeish, "tree");
		if (path.isEmpty()) {
			return tree;
		}
		for (String part : path.split("/")) {
			if (tree == null || part.isEmpty()) {
				return null;
			}
			tree = entry(tree, part.getBytes(StandardCharsets.UTF_8));
		}
		return tree;
	}

	/** The id of one entry of a tree ({@code <mode> SP <name> NUL <raw id>}...). */
	private ObjectId entry(ObjectId tree, byte[] name) throws IOException {
		ObjectContents.Content object = ObjectContents.read(this.objects, tree);
		if (object == null || object.type() != ObjectType.TREE) {
			return null;
		}
		byte[] content = object.content();
		int raw = tree.algorithm().rawLength();
		int i = 0;
		while (i < content.length) {
			int space = i;
			while (space < content.length && content[space] != ' ') {
				space++;
			}
			int nul = space + 1;
			while (nul < content.length && content[nul] != 0) {
				nul++;
			}
			if (nul + 1 + raw > content.length) {
				return null;
			}
			if (Arrays.equals(content, space + 1, nul, name, 0, name.length)) {
				return ObjectId.fromRaw(tree.algorithm(), content, nul + 1);
			}
			i = nul + 1 + raw;
		}
		return null;
	}

}
