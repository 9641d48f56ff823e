package io.refstore.core.repo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Finds the repository a directory belongs to, the way {@code git -C
 *
<dir>
 * } does: from the directory upward, each level is checked first for a {@code .git} entry
 * (directory, or file reading {@code gitdir: <path>}), then for being a git directory
 * itself (a bare repository, or the inside of a {@code .git} directory). Stateless.
 * <p>
 * A directory is a git directory if it holds a valid {@code HEAD} (a symbolic ref
 * {@code ref: refs/...} or an object id) and its common directory (itself, or the target
 * of its {@code commondir} file) holds {@code objects/} and {@code refs/} directories.
 * <p>
 * Not implemented: {@code GIT_DIR}, {@code GIT_WORK_TREE},
 * {@code GIT_CEILING_DIRECTORIES}, the file system boundary check and
 * {@code safe.directory} ownership checks.
 */
final class RepositoryLocator {

	private static final String GITDIR_PREFIX = "gitdir:";

	private RepositoryLocator() {
	}

	/**
	 * Where a repository was found.
	 *
	 * @param gitDir the git directory (real path)
	 * @param commonDir the common directory (real path; equals {@code gitDir} except in
	 * linked worktrees)
	 * @param checkout the directory whose {@code .git} entry led here, or {@code null} if
	 * the git directory was found directly
	 */
	record Location(Path gitDir, Path commonDir, Path checkout) {
	}

	static Location locate(Path start) throws IOException {
		Path dir;
		try {
			dir = start.toRealPath();
		}
		catch (NoSuchFileException ex) {
			throw new NotARepositoryException(start.toAbsolutePath(), "cannot open a repository: no such directory");
		}
		if (!Files.isDirectory(dir)) {
			throw new NotARepositoryException(dir, "cannot open a repository: not a directory");
		}
		for (Path level = dir; level != null; level = level.getParent()) {
			Location found = atLevel(level);
			if (found != null) {
				return found;
			}
		}
		throw new NotARepositoryException(dir, "not a git repository (or any of the parent directories)");
	}

	private static Location atLevel(Path level) throws IOException {
		Path dotGit = level.resolve(".git");
		if (Files.isRegularFile(dotGit)) {
			Path target = readGitFile(dotGit);
			Location found = asGitDir(target, level);
			if (found == null) {
				// git stops here instead of walking on: the .git file claims this level
				throw new NotARepositoryException(target, "not a git repository (named by " + dotGit + ")");
			}
			return found;
		}
		if (Files.isDirectory(dotGit)) {
			Location found = asGitDir(dotGit, level);
			if (found != null) {
				return found;
			}
		}
		return asGitDir(level, null);
	}

	/** The location if {@code dir} is a git directory, else {@code null}. */
	static Location asGitDir(Path dir, Path checkout) throws IOException {
		if (!Files.isDirectory(dir) || !hasValidHead(dir.resolve("HEAD"))) {
			return null;
		}
		Path common = dir;
		Path commondirFile = dir.resolve("commondir");
		if (Files.isRegularFile(commondirFile)) {
			String link = Files.readString(commondirFile, StandardCharsets.UTF_8).strip();
			common = dir.resolve(link).normalize();
			if (!Files.isDirectory(common)) {
				throw new NotARepositoryException(common,
						"not a git repository (the common directory named by " + commondirFile + ")");
			}
		}
		if (!Files.isDirectory(common.resolve("objects")) || !Files.isDirectory(common.resolve("refs"))) {
			return null;
		}
		return new Location(dir.toRealPath(), common.toRealPath(), checkout);
	}

	private static boolean hasValidHead(Path head) throws IOException {
		if (!Files.isRegularFile(head)) {
			return false;
		}
		byte[] bytes = Files.readAllBytes(head);
		String text = new String(bytes, 0, Math.min(bytes.length, 256), StandardCharsets.UTF_8).strip();
		if (text.startsWith("ref:")) {
			return text.substring(4).strip().startsWith("refs/");
		}
		return (text.length() == 40 || text.length() == 64) && text.chars().allMatch(RepositoryLocator::isHex);
	}

	private static boolean isHex(int c) {
		return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
	}

	/**
	 * The git directory named by a {@code .git} file, resolved against the file's
	 * directory.
	 */
	static Path readGitFile(Path file) throws IOException {
		String text = Files.readString(file, StandardCharsets.UTF_8);
		if (!text.startsWith(GITDIR_PREFIX)) {
			throw new NotARepositoryException(file, "invalid gitfile format (expected 'gitdir: <path>')");
		}
		String target = text.substring(GITDIR_PREFIX.length()).strip();
		if (target.isEmpty()) {
			throw new NotARepositoryException(file, "invalid gitfile format (no path after 'gitdir:')");
		}
		return file.getParent().resolve(target).normalize();
	}

}
