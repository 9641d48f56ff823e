package io.refstore.core.journal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import io.refstore.core.io.FileBytes;
import io.refstore.core.io.Fsync;
import io.refstore.core.repo.FsyncSettings;
import io.refstore.core.repo.GitHooks;
import io.refstore.core.repo.Repository;

/**
 * Installs and removes the journal's {@code reference-transaction} hook, a POSIX shell
 * script that appends git's committed ref changes to the repository's journal (see
 * docs/journal.md), in the directory git takes hooks from ({@code core.hooksPath}, else
 * {@code hooks/}).
 * <p>
 * A hook already there is kept: it is linked as {@value #CHAINED} beside the new one,
 * which runs it with the same arguments and input and exits with its status. Every step
 * leaves a complete hook in place (a temporary file renamed over the old one), so a
 * transaction at any moment runs either the old hook or the new one with the old one
 * chained. Installing again only rewrites the script (the hook it chains stays);
 * uninstalling puts the old hook back by a rename, or removes the hook if there was none,
 * and removes the directories the install made if they are empty. The journal itself is
 * kept. Two installs or uninstalls of one repository at once are not supported.
 */
public final class JournalHook {

	/** The hook's file name. */
	public static final String HOOK = "reference-transaction";

	/** The name the hook installed over is kept under, beside the new one. */
	public static final String CHAINED = "reference-transaction.refstore-chained";

	/** The name a journal is set aside under, beside the journal. */
	static final String SET_ASIDE = "journal.ingested";

	/** The environment variables naming the writer by default, in the order tried. */
	public static final List<String> DEFAULT_WRITER_ENV = List.of("GL_USERNAME", "GL_ID", "REMOTE_USER");

	/** The line that marks a hook as this one, second in the script. */
	private static final String MARK = "# refstore-journal-hook ";

	/**
	 * The line recording which directories the install created (the hooks directory, the
	 * journal's), for the uninstall to remove.
	 */
	private static final String CREATED = "# refstore-journal-created:";

	private static final String HOOKS_DIR = "hooks-dir";

	private static final String JOURNAL_DIR = "journal-dir";

	private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

	private static final String TEMP = "reference-transaction.refstore-tmp";

	/** What an install or an uninstall did. */
	public enum Outcome {

		/** Installed where there was no hook. */
		INSTALLED,

		/** Installed over a hook, which it runs. */
		CHAINED,

		/** Was installed: the script was written anew, the hook it chains kept. */
		REINSTALLED,

		/** Removed, and the hook it was installed over put back. */
		RESTORED,

		/** Removed; there was no hook before. */
		REMOVED,

		/** Nothing to uninstall: the hook there is not this one, or there is none. */
		NOT_INSTALLED

	}

	private JournalHook() {
	}

	/**
	 * The repository's journal: {@code refstore/journal} in the common git directory,
	 * beside the ref store but no part of it (a format migration and its rollback leave
	 * it where it is).
	 */
	public static Path journalFile(Repository repository) {
		return journalFile(repository.commonDir());
	}

	/**
	 * Where the journal of the repository whose common git directory is {@code commonDir}
	 * is.
	 */
	public static Path journalFile(Path commonDir) {
		return commonDir.toAbsolutePath().resolve("refstore").resolve("journal");
	}

	/**
	 * The journal files of the repository whose common git directory is
	 * {@code commonDir}, oldest first: the one last set aside ({@link #setAside}), then
	 * the journal. Entries set aside before that are only in the application's database.
	 */
	public static List<Path> journalFiles(Path commonDir) {
		Path journal = journalFile(commonDir);
		return List.of(journal.resolveSibling(SET_ASIDE), journal);
	}

	/**
	 * Sets the journal of the repository whose common git directory is {@code commonDir}
	 * aside, renamed to {@code journal.ingested} (over an older one): the hook's next
	 * append starts a new journal, while an append that opened the file before the rename
	 * lands in the file set aside. The rename is synced.
	 * @return the file set aside
	 */
	public static Path setAside(Path commonDir) throws IOException {
		Path journal = journalFile(commonDir);
		Path aside = journal.resolveSibling(SET_ASIDE);
		Fsync.rename(journal, aside);
		return aside;
	}

	/**
	 * Forces the name of the journal file {@code journal} (its directory's entries) to
	 * the disk. The hook creates the file with its first append and, where git forces
	 * nothing, forces neither it nor its name: a reader that forces the bytes it read
	 * forces the name too before it relies on them, so that a power cut cannot take the
	 * whole file.
	 */
	public static void forceName(Path journal) throws IOException {
		Fsync.directory(journal.getParent());
	}

	/** Where git would run the hook from in {@code repository}. */
	public static Path hookFile(Repository repository) {
		return GitHooks.directory(repository).resolve(HOOK);
	}

	/**
	 * Installs the hook, or writes it anew if it is installed.
	 * @param writerEnv the environment variables naming the writer (the first set wins)
	 * @throws IllegalArgumentException if a name is not a shell variable's
	 */
	public static Outcome install(Repository repository, List<String> writerEnv) throws IOException {
		for (String name : writerEnv) {
			if (!VARIABLE.matcher(name).matches()) {
				throw new IllegalArgumentException("not an environment variable's name: '" + name + "'");
			}
		}
		Path hooks = GitHooks.directory(repository).toAbsolutePath();
		Path hook = hooks.resolve(HOOK);
		Path journalDir = journalFile(repository).getParent();
		List<String> created = new ArrayList<>();
		boolean ours = isOurs(hook);
		if (ours) {
			created.addAll(createdBy(hook));
		}
		else {
			if (!Files.isDirectory(hooks)) {
				created.add(HOOKS_DIR);
			}
			if (!Files.isDirectory(journalDir)) {
				created.add(JOURNAL_DIR);
			}
		}
		Fsync.createDirectories(hooks);
		Fsync.createDirectories(journalDir);
		Path temp = hooks.resolve(TEMP);
		writeExecutable(temp, script(repository, writerEnv, created));
		boolean chains = !ours && Files.exists(hook, LinkOption.NOFOLLOW_LINKS);
		if (chains) {
			keep(hook, hooks.resolve(CHAINED));
		}
		Fsync.rename(temp, hook);
		return ours ? Outcome.REINSTALLED : chains ? Outcome.CHAINED : Outcome.INSTALLED;
	}

	/**
	 * Removes the hook, putting back the one it was installed over, and the directories
	 * the install made if they are empty; the journal stays.
	 */
	public static Outcome uninstall(Repository repository) throws IOException {
		Path hooks = GitHooks.directory(repository).toAbsolutePath();
		Path hook = hooks.resolve(HOOK);
		if (!isOurs(hook)) {
			return Outcome.NOT_INSTALLED;
		}
		List<String> created = createdBy(hook);
		Path chained = hooks.resolve(CHAINED);
		Outcome outcome;
		if (Files.exists(chained, LinkOption.NOFOLLOW_LINKS)) {
			Fsync.rename(chained, hook);
			outcome = Outcome.RESTORED;
		}
		else {
			Files.delete(hook);
			Fsync.directory(hooks);
			outcome = Outcome.REMOVED;
		}
		if (created.contains(HOOKS_DIR)) {
			deleteIfEmpty(hooks);
		}
		deleteHandOvers(journalFile(repository));
		if (created.contains(JOURNAL_DIR)) {
			deleteIfEmpty(journalFile(repository).getParent());
		}
		return outcome;
	}

	/**
	 * Whether the journal's hook is installed where git takes the repository's
	 * {@code reference-transaction} hook from.
	 */
	public static boolean installed(Repository repository) throws IOException {
		return isOurs(hookFile(repository));
	}

	/** Whether {@code hook} is a file this class wrote. */
	static boolean isOurs(Path hook) throws IOException {
		if (!Files.isRegularFile(hook, LinkOption.NOFOLLOW_LINKS)) {
			return false;
		}
		List<String> head = head(hook);
		return head.size() > 1 && head.get(1).startsWith(MARK);
	}

	/** The directories the install of {@code hook} created. */
	private static List<String> createdBy(Path hook) throws IOException {
		for (String line : head(hook)) {
			if (line.startsWith(CREATED)) {
				return List.of(line.substring(CREATED.length()).strip().split(" +"));
			}
		}
		return List.of();
	}

	/** The first lines of a file, as far as its first 4 KiB go. */
	private static List<String> head(Path file) throws IOException {
		try (InputStream in = Files.newInputStream(file)) {
			String text = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
			return List.of(text.split("\n"));
		}
	}

	/**
	 * Links the hook about to be replaced under the chained name (a hard link, or a copy
	 * of a symbolic link), unless a run stopped after that step has done it already.
	 */
	private static void keep(Path hook, Path chained) throws IOException {
		if (Files.exists(chained, LinkOption.NOFOLLOW_LINKS)) {
			if (Files.isSameFile(hook, chained)) {
				return;
			}
			throw new IOException("cannot install the journal hook: '" + chained
					+ "' exists already, and is not the hook there; move one of them away");
		}
		if (Files.isSymbolicLink(hook)) {
			Files.createSymbolicLink(chained, Files.readSymbolicLink(hook));
		}
		else {
			Files.createLink(chained, hook);
		}
		Fsync.directory(chained.getParent());
	}

	private static void writeExecutable(Path file, byte[] content) throws IOException {
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
				StandardOpenOption.TRUNCATE_EXISTING)) {
			FileBytes.write(channel, content, content.length);
			Fsync.force(channel);
		}
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
	}

	/**
	 * Deletes the files in which the hook handed old values from the {@code prepared}
	 * state to the {@code committed} state of a git process ({@code journal.old.<pid>.
	 * <start>}): a process killed between the two leaves its file.
	 */
	private static void deleteHandOvers(Path journal) throws IOException {
		String prefix = journal.getFileName() + ".old.";
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(journal.getParent(),
				(entry) -> entry.getFileName().toString().startsWith(prefix))) {
			for (Path entry : entries) {
				Files.deleteIfExists(entry);
			}
		}
		catch (NoSuchFileException ex) {
			// no journal directory
		}
	}

	private static void deleteIfEmpty(Path dir) throws IOException {
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
			if (entries.iterator().hasNext()) {
				return;
			}
		}
		catch (NoSuchFileException ex) {
			return;
		}
		Files.delete(dir);
		Fsync.parentOf(dir);
	}

	/** The script, from its template, for this repository. */
	static byte[] script(Repository repository, List<String> writerEnv, List<String> created) throws IOException {
		String template;
		try (InputStream in = JournalHook.class.getResourceAsStream(HOOK + ".sh")) {
			if (in == null) {
				throw new IllegalStateException("the hook's template is missing from the class path");
			}
			template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		String text = template.replace("@JOURNAL@", quote(journalFile(repository).toString()))
			.replace("@WRITER_ENV@", quote(String.join(" ", writerEnv)))
			.replace("@SYNC@", FsyncSettings.of(repository.config()).references() ? "yes" : "''");
		if (!created.isEmpty()) {
			int secondLineEnd = text.indexOf('\n', text.indexOf('\n') + 1);
			text = text.substring(0, secondLineEnd + 1) + CREATED + " " + String.join(" ", created) + "\n"
					+ text.substring(secondLineEnd + 1);
		}
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/** {@code text} quoted for the shell. */
	static String quote(String text) {
		return "'" + text.replace("'", "'\\''") + "'";
	}

}
