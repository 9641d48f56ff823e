package io.refstore.core.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import io.refstore.core.interop.RefModel.Value;
import io.refstore.core.testing.TempRepo;

/**
 * The bytes of everything a files-backend ref store consists of, read straight from disk:
 * {@code HEAD}, {@code ORIG_HEAD}, {@code packed-refs}, every file and directory below
 * {@code refs/} and {@code logs/}, and any lock or temporary file left in the git
 * directory. Two twins that went through the same updates must have equal snapshots, byte
 * for byte. Immutable.
 */
final class RepoSnapshot implements StoreSnapshot {

	private static final byte[] DIRECTORY = new byte[0];

	private static final List<String> ROOT_FILES = List.of("HEAD", "ORIG_HEAD", "packed-refs");

	private final TreeMap<String, byte[]> entries;

	private RepoSnapshot(TreeMap<String, byte[]> entries) {
		this.entries = entries;
	}

	/** Reads the ref files of the repository whose git directory is {@code gitDir}. */
	static RepoSnapshot of(Path gitDir) {
		TreeMap<String, byte[]> entries = new TreeMap<>();
		try {
			for (String name : ROOT_FILES) {
				Path file = gitDir.resolve(name);
				if (Files.isRegularFile(file)) {
					entries.put(name, Files.readAllBytes(file));
				}
			}
			try (Stream<Path> root = Files.list(gitDir)) {
				root.map((path) -> path.getFileName().toString())
					.filter((name) -> name.endsWith(".lock") || name.endsWith(".new"))
					.forEach((name) -> entries.put(name, DIRECTORY));
			}
			for (String tree : List.of("refs", "logs")) {
				walk(gitDir, gitDir.resolve(tree), entries);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return new RepoSnapshot(entries);
	}

	private static void walk(Path gitDir, Path top, TreeMap<String, byte[]> entries) throws IOException {
		if (!Files.isDirectory(top)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(top)) {
			for (Path path : (Iterable<Path>) paths::iterator) {
				String relative = gitDir.relativize(path).toString();
				if (Files.isDirectory(path)) {
					entries.put(relative + "/", DIRECTORY);
				}
				else {
					entries.put(relative, Files.readAllBytes(path));
				}
			}
		}
	}

	/**
	 * Replaces the ref files of {@code twin} by this snapshot's: deletes its
	 * {@code HEAD}, {@code ORIG_HEAD}, {@code packed-refs}, {@code refs/}, {@code logs/}
	 * and leftover locks, then writes this snapshot's entries.
	 */
	@Override
	public void restore(TempRepo twin) throws IOException {
		Path gitDir = twin.gitDir();
		RepoSnapshot current = of(gitDir);
		for (String path : current.entries.descendingKeySet()) {
			Files.deleteIfExists(gitDir.resolve(path));
		}
		for (var entry : this.entries.entrySet()) {
			Path target = gitDir.resolve(entry.getKey());
			if (entry.getKey().endsWith("/")) {
				Files.createDirectories(target);
			}
			else if (entry.getValue() != DIRECTORY) {
				Files.createDirectories(target.getParent());
				Files.write(target, entry.getValue());
			}
		}
	}

	/**
	 * Lock files ({@code *.lock}) and temporary files ({@code *.new}) anywhere in the
	 * snapshot.
	 */
	List<String> leftovers() {
		return this.entries.keySet()
			.stream()
			.filter((path) -> path.endsWith(".lock") || path.endsWith(".new"))
			.toList();
	}

	/** Reflogs: the ref names that have a file below {@code logs/}. */
	@Override
	public List<String> reflogNames() {
		return this.entries.entrySet()
			.stream()
			.filter((entry) -> entry.getKey().startsWith("logs/") && entry.getValue() != DIRECTORY)
			.map((entry) -> entry.getKey().substring("logs/".length()))
			.toList();
	}

	/**
	 * The refs as git would read them: loose files override {@code packed-refs}; symbolic
	 * refs included, dangling or not.
	 */
	@Override
	public Map<String, Value> refs() {
		Map<String, Value> refs = new HashMap<>();
		byte[] packed = this.entries.get("packed-refs");
		if (packed != null) {
			for (String line : new String(packed, StandardCharsets.UTF_8).split("\n")) {
				if (!line.isEmpty() && line.charAt(0) != '#' && line.charAt(0) != '^') {
					refs.put(line.substring(41), Value.direct(line.substring(0, 40)));
				}
			}
		}
		this.entries.forEach((path, bytes) -> {
			boolean ref = path.equals("HEAD") || path.equals("ORIG_HEAD") || path.startsWith("refs/");
			if (ref && bytes != DIRECTORY) {
				refs.put(path, parseLoose(path, new String(bytes, StandardCharsets.UTF_8)));
			}
		});
		return refs;
	}

	private static Value parseLoose(String path, String content) {
		if (content.startsWith("ref: ")) {
			return Value.symbolic(content.substring(5).strip());
		}
		if (content.length() < 40) {
			throw new IllegalStateException("unreadable loose ref " + path + ": " + content);
		}
		return Value.direct(content.substring(0, 40));
	}

	/**
	 * Describes every difference in files (refs, logs, {@code packed-refs}, leftover
	 * locks) from {@code other}, or returns null if they are equal byte for byte.
	 * Directories do not count: git itself leaves empty ones behind (a failed update
	 * keeps the directories made for its lock file).
	 */
	@Override
	public String differences(StoreSnapshot other, String thisName, String otherName) {
		return differences((RepoSnapshot) other, thisName, otherName, false);
	}

	/**
	 * Describes directories that exist in only one of the snapshots, or returns null if
	 * there are none.
	 */
	@Override
	public String minorDifferences(StoreSnapshot other, String thisName, String otherName) {
		return differences((RepoSnapshot) other, thisName, otherName, true);
	}

	@Override
	public String changes(StoreSnapshot later) {
		return differences(later, "before", "after");
	}

	private String differences(RepoSnapshot other, String thisName, String otherName, boolean directories) {
		StringBuilder report = new StringBuilder();
		TreeSet<String> paths = new TreeSet<>(this.entries.keySet());
		paths.addAll(other.entries.keySet());
		paths.removeIf((path) -> path.endsWith("/") != directories);
		for (String path : paths) {
			byte[] mine = this.entries.get(path);
			byte[] theirs = other.entries.get(path);
			if (mine == null || theirs == null) {
				report.append("  ")
					.append(path)
					.append(" only in ")
					.append((mine == null) ? otherName : thisName)
					.append(content(Objects.requireNonNullElse(mine, theirs)))
					.append('\n');
			}
			else if (!Arrays.equals(mine, theirs)) {
				report.append("  ")
					.append(path)
					.append(" differs")
					.append(lineDifference(mine, theirs, thisName, otherName))
					.append('\n');
			}
		}
		return (report.length() == 0) ? null : report.toString();
	}

	/**
	 * The first line where two files differ, with its line number and the line before it.
	 */
	private static String lineDifference(byte[] mine, byte[] theirs, String thisName, String otherName) {
		List<String> a = new String(mine, StandardCharsets.UTF_8).lines().toList();
		List<String> b = new String(theirs, StandardCharsets.UTF_8).lines().toList();
		int line = 0;
		while (line < a.size() && line < b.size() && a.get(line).equals(b.get(line))) {
			line++;
		}
		String before = (line > 0) ? "\n    (line " + line + " in both: " + escape(a.get(line - 1)) + ")" : "";
		return " from line " + (line + 1) + " on (" + a.size() + " vs " + b.size() + " lines):" + before + "\n    "
				+ thisName + ": " + ((line < a.size()) ? escape(a.get(line)) : "<end>") + "\n    " + otherName + ": "
				+ ((line < b.size()) ? escape(b.get(line)) : "<end>");
	}

	private static String escape(String line) {
		return line.replace("\t", "\\t");
	}

	private static String content(byte[] bytes) {
		if (bytes == DIRECTORY) {
			return "";
		}
		String text = new String(bytes, StandardCharsets.UTF_8).replace("\t", "\\t");
		String shown = (text.length() > 1500) ? text.substring(0, 1500) + "..." : text;
		return "\n      " + shown.replace("\n", "\n      ").stripTrailing();
	}

}
