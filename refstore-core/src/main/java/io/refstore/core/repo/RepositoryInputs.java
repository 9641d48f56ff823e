package io.refstore.core.repo;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * Checks a job input a user names (a deletion plan, a manifest or a directory of them, a
 * migration's backup) before a job reads it: it must lie in its directory below the
 * repository's git directory, and no component from the git directory down to it may be a
 * symbolic link, so that it cannot lead into another repository or outside the roots.
 * Each component's attributes are read without following links
 * ({@link LinkOption#NOFOLLOW_LINKS}); a path compared after {@link Path#toRealPath}
 * would have followed them.
 * <p>
 * A check before an open is a race with whoever can write there: the readers of these
 * inputs also open the final file without following a link, so the check guards the
 * directories above it. Stateless and thread-safe.
 */
public final class RepositoryInputs {

	/** What an input must be. */
	public enum Kind {

		/** A regular file. */
		FILE,
		/** A directory. */
		DIRECTORY,
		/** A regular file or a directory. */
		FILE_OR_DIRECTORY

	}

	private RepositoryInputs() {
	}

	/**
	 * The input {@code given} names in {@code dir}, checked.
	 * @param parameter the parameter that named it, for the refusal
	 * @param gitDir the repository's git directory (a real path)
	 * @param dir the directory the input must lie in, {@code gitDir} or below it, given
	 * relative to {@code gitDir} ({@code refstore-plans})
	 * @param given the input as the user gave it: relative to {@code dir}, or absolute
	 * inside it
	 * @return the input's absolute path, normalized
	 * @throws RefusedJobInputException naming {@code parameter} if it lies outside
	 * {@code dir}, does not exist, is not of {@code kind}, or a component below
	 * {@code gitDir} is a symbolic link or not a directory
	 * @throws IOException if the file system cannot be read
	 */
	public static Path check(String parameter, Path gitDir, String dir, String given, Kind kind) throws IOException {
		Path base = gitDir.resolve(dir).normalize();
		Path path;
		try {
			path = base.resolve(given).normalize();
		}
		catch (RuntimeException ex) {
			throw new RefusedJobInputException(parameter, given, "it is not a path");
		}
		if (!base.startsWith(gitDir) || !path.startsWith(base) || path.equals(base)) {
			throw new RefusedJobInputException(parameter, given, "it must name something inside " + dir + "/");
		}
		BasicFileAttributes last = walk(parameter, given, gitDir, path);
		boolean fits = switch (kind) {
			case FILE -> last.isRegularFile();
			case DIRECTORY -> last.isDirectory();
			case FILE_OR_DIRECTORY -> last.isRegularFile() || last.isDirectory();
		};
		if (!fits) {
			throw new RefusedJobInputException(parameter, given, "'" + shown(gitDir, path) + "' is not a "
					+ ((kind == Kind.DIRECTORY) ? "directory" : (kind == Kind.FILE) ? "file" : "file or directory"));
		}
		return path;
	}

	/**
	 * Reads the attributes of every component from below {@code gitDir} to {@code path},
	 * none followed, and returns the last one's.
	 */
	private static BasicFileAttributes walk(String parameter, String given, Path gitDir, Path path) throws IOException {
		Path current = gitDir;
		BasicFileAttributes attributes = null;
		for (Path component : gitDir.relativize(path)) {
			if (attributes != null && !attributes.isDirectory()) {
				throw new RefusedJobInputException(parameter, given,
						"'" + shown(gitDir, current) + "' is not a directory");
			}
			current = current.resolve(component);
			Optional<BasicFileAttributes> read;
			try {
				read = attributes(current);
			}
			catch (FileSystemException ex) {
				// a name too long, a component not searchable: no input of the user's
				throw new RefusedJobInputException(parameter, given,
						"'" + shown(gitDir, current) + "' cannot be read (" + ex.getReason() + ")");
			}
			if (read.isEmpty()) {
				throw new RefusedJobInputException(parameter, given, "'" + shown(gitDir, current) + "' does not exist");
			}
			attributes = read.get();
			if (attributes.isSymbolicLink()) {
				throw new RefusedJobInputException(parameter, given, "'" + shown(gitDir, current)
						+ "' is a symbolic link; inputs are read from the repository only");
			}
		}
		return attributes;
	}

	private static Optional<BasicFileAttributes> attributes(Path path) throws IOException {
		try {
			return Optional.of(Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
		}
		catch (NoSuchFileException | NotDirectoryException ex) {
			return Optional.empty();
		}
	}

	/** {@code path} as a user may see it: relative to the git directory. */
	static String shown(Path gitDir, Path path) {
		return gitDir.relativize(path).toString();
	}

	/**
	 * Refuses an input that records another repository's identity.
	 * @param parameter the parameter that named it
	 * @param given the input as given
	 * @param recorded the identity the input records, or empty for one written before
	 * identities were recorded (accepted: it passed {@link #check}, so it lies in this
	 * repository)
	 * @param repository the repository the job runs on
	 * @throws RefusedJobInputException naming {@code parameter} if the identities differ
	 */
	public static void checkOwner(String parameter, String given, Optional<RepositoryId> recorded,
			Repository repository) {
		if (recorded.isEmpty()) {
			return;
		}
		Optional<RepositoryId> own;
		try {
			own = RepositoryId.find(repository);
		}
		catch (IOException ex) {
			throw new RefusedJobInputException(parameter, given,
					"this repository's " + RepositoryId.FILE + " cannot be read (a symbolic link, or no identity)");
		}
		if (!own.equals(recorded)) {
			throw new RefusedJobInputException(parameter, given, "it was written for another repository (id "
					+ recorded.get() + ", this one's is " + own.map(RepositoryId::value).orElse("not recorded") + ")");
		}
	}

}
