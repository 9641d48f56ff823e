package io.refstore.core.cli.revision;

import java.io.IOException;
import java.util.Optional;

import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.RefStore;

/**
 * The part of git's revision syntax the ref commands need: a value is a full hex object
 * id, or a ref name that git's rules expand ({@code main} → {@code refs/heads/main}); and
 * the reverse, the shortest name that expands back to a given ref
 * ({@code %(refname:short)}, {@code symbolic-ref --short}).
 *
 * <p>
 * Abbreviated hex ids are not supported; revision operators ({@code ^}, {@code ~},
 * {@code @{n}}, {@code :path}) only by a parser given the object database
 * ({@link Revisions}). Safe for use by several threads if the store is and no revision
 * operator is used.
 */
public final class RevParse {

	/**
	 * git's expansion rules in priority order, as prefix and suffix; git 2.55 shortens
	 * with all of them ({@code refs/remotes/origin/HEAD} is {@code origin}), 2.39 did
	 * without the last.
	 */
	private static final String[][] RULES = { { "", "" }, { "refs/", "" }, { "refs/tags/", "" }, { "refs/heads/", "" },
			{ "refs/remotes/", "" }, { "refs/remotes/", "/HEAD" } };

	private final RefStore refs;

	/** Revision operators, or {@code null} where only names and ids are taken. */
	private final Revisions revisions;

	public RevParse(RefStore refs) {
		this.refs = refs;
		this.revisions = null;
	}

	/**
	 * A parser that also takes revision operators ({@link Revisions}), reading objects
	 * from the database {@code objects} opens when an operator is first used.
	 */
	public RevParse(RefStore refs, Revisions.ObjectsOpener objects) {
		this.refs = refs;
		this.revisions = new Revisions(refs, objects, (name) -> resolvePlain(name).orElse(null));
	}

	/**
	 * Turns a value into an object id: a full-length hex id (existing or not, as git's
	 * parser does), {@code @} for {@code HEAD}, or a ref name expanded by git's rules and
	 * resolved.
	 * @param value what the user typed
	 * @return the id, or empty if the value names nothing
	 * @throws IOException if the store cannot be read
	 */
	public Optional<ObjectId> resolve(String value) throws IOException {
		Optional<ObjectId> plain = resolvePlain(value);
		if (plain.isPresent() || this.revisions == null || !Revisions.isExpression(value)) {
			return plain;
		}
		return Optional.ofNullable(this.revisions.resolve(value));
	}

	/** {@link #resolve} without revision operators. */
	private Optional<ObjectId> resolvePlain(String value) throws IOException {
		HashAlgorithm algorithm = this.refs.hashAlgorithm();
		ObjectId id = ObjectId.tryParse(algorithm, value);
		if (id != null) {
			return Optional.of(id);
		}
		String name = value.equals("@") ? "HEAD" : value;
		for (String[] rule : RULES) {
			Optional<DirectRef> ref = resolveRef(rule[0] + name + rule[1]);
			if (ref.isPresent()) {
				return Optional.of(ref.get().id());
			}
		}
		return Optional.empty();
	}

	/**
	 * Whether a full name resolves to an object id, as git's {@code ref_exists}: a
	 * symbolic ref that points nowhere does not exist, and neither does a name the store
	 * cannot hold.
	 */
	public Optional<DirectRef> resolveRef(String fullName) throws IOException {
		if (!RefName.isValid(fullName, true)) {
			return Optional.empty();
		}
		try {
			return this.refs.resolve(fullName);
		}
		catch (IllegalArgumentException ex) {
			// a store may refuse names outside its namespace (such as one-level names):
			// they name nothing
			return Optional.empty();
		}
	}

	/**
	 * The shortest form of a full ref name that git's rules expand back to it:
	 * {@code refs/heads/main} becomes {@code main}, or {@code heads/main} if {@code main}
	 * would also expand to another existing ref.
	 * @param fullName the full name
	 * @param strict whether a shorter form must not name another ref under any rule
	 * (git's {@code core.warnAmbiguousRefs}, used by {@code for-each-ref}), or only under
	 * rules of higher priority (as {@code symbolic-ref --short})
	 * @return the short name, or {@code fullName} itself if no shorter form is
	 * unambiguous
	 * @throws IOException if the store cannot be read
	 */
	public String shorten(String fullName, boolean strict) throws IOException {
		for (int i = RULES.length - 1; i > 0; i--) {
			String prefix = RULES[i][0];
			String suffix = RULES[i][1];
			if (!fullName.startsWith(prefix) || !fullName.endsWith(suffix)
					|| fullName.length() <= prefix.length() + suffix.length()) {
				continue;
			}
			String shortName = fullName.substring(prefix.length(), fullName.length() - suffix.length());
			if (!ambiguous(shortName, i, strict ? RULES.length : i)) {
				return shortName;
			}
		}
		return fullName;
	}

	private boolean ambiguous(String shortName, int rule, int rulesToCheck) throws IOException {
		for (int j = 0; j < rulesToCheck; j++) {
			if (j != rule && resolveRef(RULES[j][0] + shortName + RULES[j][1]).isPresent()) {
				return true;
			}
		}
		return false;
	}

}
