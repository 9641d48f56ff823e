package io.refstore.core.migrate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.refstore.core.repo.StoreGate;
import io.refstore.core.testing.TestFiles;

/**
 * The exact state of a directory tree: every directory, and every file with its content,
 * by relative path. Two equal snapshots mean nothing was created, deleted or changed.
 * Also copies trees for twin repositories.
 */
final class DirSnapshot {

	private DirSnapshot() {
	}

	/**
	 * Every path below {@code root} (as {@code /}-separated relative names, in sorted
	 * order) mapped to {@code dir}, or to the file's content in hex, skipping the
	 * top-level entries named in {@code skip} and the gate's file
	 * ({@link StoreGate#FILE}: the first swap in a repository makes it, and it stays,
	 * holding no data).
	 */
	static Map<String, String> of(Path root, Set<String> skip) {
		Map<String, String> state = new TreeMap<>();
		try (Stream<Path> paths = Files.walk(root)) {
			paths.filter((path) -> !path.equals(root))
				.filter((path) -> !skip.contains(root.relativize(path).getName(0).toString())
						&& !root.relativize(path).toString().equals(StoreGate.FILE))
				.forEach((path) -> state.put(name(root, path), describe(path)));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return state;
	}

	/**
	 * The number of lines in all files below {@code root} (such as the entries of a
	 * {@code logs/} tree).
	 */
	static long lines(Path root) {
		try (Stream<Path> paths = Files.walk(root)) {
			long lines = 0;
			for (Path file : (Iterable<Path>) paths.filter(Files::isRegularFile)::iterator) {
				lines += Files.readAllLines(file).size();
			}
			return lines;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String name(Path root, Path path) {
		return root.relativize(path).toString().replace('\\', '/');
	}

	private static String describe(Path path) {
		try {
			if (Files.isSymbolicLink(path)) {
				return "link " + Files.readSymbolicLink(path);
			}
			if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
				return "dir";
			}
			return HexFormat.of().formatHex(Files.readAllBytes(path));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Copies the tree at {@code from} to {@code to} (which must not exist), keeping
	 * modification times.
	 */
	static void copy(Path from, Path to) {
		TestFiles.copyTree(from, to, true);
	}

}
