package io.refstore.core.repo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Turns a repository name given by a user (a job parameter, a form field) into a
 * directory below one of the configured root directories, and refuses any name that could
 * reach outside them.
 * <p>
 * A name is a relative path of {@code /}-separated components such as
 * {@code team/project.git}. Refused before the file system is consulted: a missing or
 * empty name, an absolute path, an empty, {@code .} or {@code ..} component, a backslash,
 * a {@code %} (no percent-decoding happens anywhere, so {@code %2e%2e} is refused rather
 * than guessed at), NUL and other control characters, and names longer than
 * {@value #MAX_NAME_LENGTH} characters. Refused after consulting it: a name whose
 * existing part, with every symbolic link followed ({@link Path#toRealPath}), lies
 * outside the root it was looked up in, a dangling symbolic link, and a name that exists
 * but is not a directory. Other characters, including non-ASCII look-alikes of dots and
 * slashes, are literal file-name characters.
 * <p>
 * Each root is a named <em>storage</em> (as hosting software names the places it keeps
 * repositories: GitLab's {@code default}): a name whose first component is a storage's
 * name ({@code default/team/project.git}) is looked up in that storage only, the rest of
 * it as the name; any other name is looked up in every root.
 * <p>
 * The roots are searched in order; the first that holds the name wins. Immutable and
 * thread-safe. Links can change after a check, so callers should open the returned real
 * path, not the name, and resolve again for each use.
 */
public final class RepositoryPaths {

	/** The longest name accepted, in characters. */
	public static final int MAX_NAME_LENGTH = 1024;

	/**
	 * What a storage's name may be: a letter or digit, then those, {@code .}, {@code _}
	 * or {@code -}.
	 */
	public static final Pattern STORAGE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

	/** The name of the first root when no storage name is given for it. */
	public static final String DEFAULT_STORAGE = "default";

	private final List<Path> roots;

	/** Storage name to real root, in search order. */
	private final Map<String, Path> storages;

	/**
	 * Roots without names: the first is the storage {@value #DEFAULT_STORAGE}, the others
	 * {@code default-2}, {@code default-3}...
	 * @param roots the directories repositories may live in, searched in this order; each
	 * must exist and is kept as its real path
	 * @throws IllegalArgumentException if the list is empty or a root is missing or not a
	 * directory, naming it
	 * @throws IOException if a root's real path cannot be read
	 */
	public RepositoryPaths(List<Path> roots) throws IOException {
		this(roots, Map.of());
	}

	/**
	 * @param roots the directories repositories may live in, searched in this order; each
	 * must exist and is kept as its real path
	 * @param storages names for roots (a path not among {@code roots} is a root after
	 * them); a root without one is named as by {@link #RepositoryPaths(List)}
	 * @throws IllegalArgumentException if there is no root, a root is missing or not a
	 * directory, a storage's name is malformed, or two names share a root, naming it
	 * @throws IOException if a root's real path cannot be read
	 */
	public RepositoryPaths(List<Path> roots, Map<String, Path> storages) throws IOException {
		List<Path> all = new ArrayList<>((roots != null) ? roots : List.of());
		Map<Path, String> named = new LinkedHashMap<>();
		for (Map.Entry<String, Path> storage : storages.entrySet()) {
			if (!STORAGE_NAME.matcher(storage.getKey()).matches()) {
				throw new IllegalArgumentException("storages: '" + storage.getKey()
						+ "' is not a storage name (a letter or digit, then letters, digits, '.', '_' or '-')");
			}
			Path root = existing("storages." + storage.getKey(), storage.getValue());
			String other = named.put(root, storage.getKey());
			if (other != null) {
				throw new IllegalArgumentException(
						"storages: '" + other + "' and '" + storage.getKey() + "' name the same directory");
			}
			all.add(storage.getValue());
		}
		if (all.isEmpty()) {
			throw new IllegalArgumentException("roots: at least one repository root directory is required");
		}
		List<Path> real = new ArrayList<>(all.size());
		for (int i = 0; i < all.size(); i++) {
			Path root = existing("roots[" + i + "]", all.get(i));
			if (!real.contains(root)) {
				real.add(root);
			}
		}
		Map<String, Path> byName = new LinkedHashMap<>();
		int unnamed = 0;
		for (Path root : real) {
			String name = named.get(root);
			while (name == null) {
				unnamed++;
				String candidate = (unnamed == 1) ? DEFAULT_STORAGE : DEFAULT_STORAGE + "-" + unnamed;
				name = named.containsValue(candidate) ? null : candidate;
			}
			byName.put(name, root);
		}
		this.roots = List.copyOf(real);
		this.storages = Collections.unmodifiableMap(byName);
	}

	private static Path existing(String setting, Path root) throws IOException {
		if (root == null || !Files.isDirectory(root)) {
			throw new IllegalArgumentException(setting + " '" + root + "' is not an existing directory");
		}
		return root.toRealPath();
	}

	/** The storages: each name with its root's real path, in search order. */
	public Map<String, Path> storages() {
		return this.storages;
	}

	/**
	 * The storage holding {@code dir} (a real path, as {@link #resolve} returns), with
	 * the repository's name in it; empty if no root holds it.
	 */
	public Optional<Located> locate(Path dir) {
		for (Map.Entry<String, Path> storage : this.storages.entrySet()) {
			if (dir.startsWith(storage.getValue()) && !dir.equals(storage.getValue())) {
				String name = storage.getValue().relativize(dir).toString().replace('\\', '/');
				return Optional.of(new Located(storage.getKey(), name));
			}
		}
		return Optional.empty();
	}

	/**
	 * A repository's place: its storage and its name there.
	 *
	 * @param storage the storage's name
	 * @param name the path below the storage's root, {@code /}-separated
	 */
	public record Located(String storage, String name) {

		/**
		 * {@code <storage>/<name>}, the name that finds it whatever the other storages
		 * hold.
		 */
		public String qualified() {
			return this.storage + "/" + this.name;
		}

	}

	/** The roots as real paths, in search order. */
	public List<Path> roots() {
		return this.roots;
	}

	/**
	 * Finds the repository directory {@code name} denotes.
	 * @param parameter the name of the parameter that carried {@code name}, for the error
	 * message
	 * @param name the repository name as the user gave it
	 * @return the real path of the directory in the first root that holds it, or empty if
	 * no root does
	 * @throws InvalidRepositoryNameException if the name is malformed or leads outside
	 * its root
	 * @throws IOException if the file system cannot be read
	 */
	public Optional<Path> resolve(String parameter, String name) throws IOException {
		String refusal = syntaxRefusal(name);
		if (refusal != null) {
			throw new InvalidRepositoryNameException(parameter, name, refusal);
		}
		int slash = name.indexOf('/');
		Path storage = (slash > 0) ? this.storages.get(name.substring(0, slash)) : null;
		if (storage != null) {
			return resolveIn(storage, parameter, name.substring(slash + 1));
		}
		for (Path root : this.roots) {
			Optional<Path> found = resolveIn(root, parameter, name);
			if (found.isPresent()) {
				return found;
			}
		}
		return Optional.empty();
	}

	private static Optional<Path> resolveIn(Path root, String parameter, String name) throws IOException {
		Path candidate = root.resolve(name);
		// the deepest part that exists is checked even when the whole does not, so that a
		// link planted
		// inside a root cannot be used to probe (or later create) directories outside it
		Path existing = candidate;
		while (!Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
			existing = existing.getParent();
		}
		Path real;
		try {
			real = existing.toRealPath();
		}
		catch (NoSuchFileException ex) {
			throw new InvalidRepositoryNameException(parameter, name,
					"it leads through a symbolic link whose target does not exist (" + root.relativize(existing)
							+ " in root " + root + ")");
		}
		if (!real.startsWith(root)) {
			throw new InvalidRepositoryNameException(parameter, name,
					"it leads outside the repository root " + root + " through a symbolic link");
		}
		if (!existing.equals(candidate)) {
			return Optional.empty();
		}
		if (!Files.isDirectory(real)) {
			throw new InvalidRepositoryNameException(parameter, name, "it is not a directory in root " + root);
		}
		return Optional.of(real);
	}

	/**
	 * Why {@code name} is refused without looking at the file system, or {@code null} if
	 * it is not.
	 */
	static String syntaxRefusal(String name) {
		if (name == null) {
			return "it is missing";
		}
		if (name.isEmpty()) {
			return "it is empty";
		}
		if (name.length() > MAX_NAME_LENGTH) {
			return "it is longer than " + MAX_NAME_LENGTH + " characters";
		}
		String character = characterRefusal(name);
		if (character != null) {
			return character;
		}
		if (name.charAt(0) == '/' || Path.of(name).isAbsolute()) {
			return "it is an absolute path (give a path relative to a repository root)";
		}
		return componentRefusal(name);
	}

	private static String characterRefusal(String name) {
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			if (c == 0) {
				return "it contains a NUL character";
			}
			if (c < 0x20 || c == 0x7f) {
				return "it contains a control character";
			}
			if (c == '\\') {
				return "it contains a backslash (only '/' separates components)";
			}
			if (c == '%') {
				return "it contains '%' (percent-encoded names are refused; give the decoded name)";
			}
		}
		return null;
	}

	private static String componentRefusal(String name) {
		int start = 0;
		for (int i = 0; i <= name.length(); i++) {
			if (i < name.length() && name.charAt(i) != '/') {
				continue;
			}
			String component = name.substring(start, i);
			if (component.isEmpty()) {
				return "it has an empty component (a trailing or double '/')";
			}
			if (component.equals(".") || component.equals("..")) {
				return "it has a '" + component + "' component";
			}
			start = i + 1;
		}
		return null;
	}

}
