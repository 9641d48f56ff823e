package io.refstore.core.repo;

import java.io.IOException;
import java.util.Arrays;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.refstore.core.io.Fsync;
import io.refstore.core.io.LockFile;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.RefFormat;

/**
 * Rewrites the ref-storage part of a repository's own config file the way
 * {@code git refs migrate} does, keeping every other line as it was:
 * {@code extensions.refStorage} set for reftable (or a ref storage URI) or removed for
 * files, and {@code core.repositoryformatversion} 1 while any extension needs it, else 0.
 * The new file replaces the old one atomically under git's {@code config.lock}.
 */
public final class ConfigEditor {

	private static final Pattern SECTION = Pattern
		.compile("^\\s*\\[\\s*([A-Za-z0-9.-]+)\\s*(\"(?:[^\"\\\\]|\\\\.)*\")?\\s*\\].*");

	private static final Pattern KEY = Pattern.compile("^\\s*([A-Za-z][A-Za-z0-9-]*)\\s*(=.*)?$");

	/**
	 * The file in a migration's work directory that becomes {@code config.lock}, then
	 * {@code config}.
	 */
	static final String STAGED = "config.new";

	/**
	 * How long a {@code git config} writer may hold {@code config.lock} before the switch
	 * gives up.
	 */
	private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(5);

	private ConfigEditor() {
	}

	private static boolean isBareHeader(String line) {
		return line.strip().equalsIgnoreCase("[extensions]");
	}

	/**
	 * Points the repository at {@code format}.
	 * @param configFile the repository's {@code config}
	 * @param format the new ref storage format
	 * @param path where the refs are kept, as the ref storage URI in use names it
	 * ({@code <format>://<path>}), or {@code null} for the git directory
	 * @param hash the repository's object hash (SHA-256 needs format version 1)
	 * @param work a directory of the caller's on the same file system, where the new text
	 * is staged; the new {@code config} and the directory are synced before this returns
	 * @throws io.refstore.core.io.LockFailedException if another process holds
	 * {@code config.lock} for longer than a few seconds: the config is then unchanged
	 */
	public static void setRefStorage(Path configFile, RefFormat format, String path, HashAlgorithm hash, Path work)
			throws IOException {
		Path staged = work.resolve(STAGED);
		byte[] read = Files.readAllBytes(configFile);
		byte[] edited = edit(read, format, path, hash);
		Files.write(staged, edited);
		Fsync.file(staged);
		Fsync.directory(work);
		// the lock is a second name of the staged file: it holds the whole new text from
		// the instant it exists,
		// and a later run can prove it is this one's (ownedLock) after a kill at any
		// point
		try (LockFile lock = LockFile.acquireLinked(configFile, LOCK_TIMEOUT, staged)) {
			byte[] locked = Files.readAllBytes(configFile);
			if (!Arrays.equals(locked, read)) {
				// someone wrote the config between our read and our lock: edit what is
				// there now
				lock.write(edit(locked, format, path, hash), true);
			}
			lock.commit();
		}
		Fsync.directory(configFile.getParent());
	}

	/**
	 * Whether {@code config.lock} is the lock {@link #setRefStorage} took with
	 * {@code work}: a lock that is a name of the file it staged there. Any other holder's
	 * lock is never taken for stale.
	 */
	public static boolean ownsLock(Path configFile, Path work) throws IOException {
		Path lock = configFile.resolveSibling(configFile.getFileName() + ".lock");
		Path staged = work.resolve(STAGED);
		try {
			return Files.exists(staged) && Files.isSameFile(lock, staged);
		}
		catch (java.nio.file.NoSuchFileException ex) {
			return false;
		}
	}

	/**
	 * {@code config}'s text with the ref storage set to {@code format} (kept at
	 * {@code path}, if not {@code null}), every other line kept.
	 */
	static byte[] edit(byte[] config, RefFormat format, String path, HashAlgorithm hash) {
		List<String> lines = new ArrayList<>(new String(config, StandardCharsets.UTF_8).lines().toList());
		String section = "";
		int extensionsHeader = -1;
		int coreHeader = -1;
		int versionLine = -1;
		boolean otherExtensions = false;
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			Matcher header = SECTION.matcher(line);
			if (header.matches()) {
				section = header.group(1).toLowerCase(Locale.ROOT) + ((header.group(2) != null) ? header.group(2) : "");
				if (section.equals("extensions") && extensionsHeader < 0) {
					extensionsHeader = i;
				}
				if (section.equals("core") && coreHeader < 0) {
					coreHeader = i;
				}
				continue;
			}
			Matcher key = KEY.matcher(line);
			if (!key.matches()) {
				continue;
			}
			String name = key.group(1).toLowerCase(Locale.ROOT);
			if (section.equals("extensions") && name.equals("refstorage")) {
				lines.remove(i--);
			}
			else if (section.equals("extensions")) {
				otherExtensions = true;
			}
			else if (section.equals("core") && name.equals("repositoryformatversion")) {
				versionLine = i;
			}
		}
		// files in the git directory is git's default, which git writes no line for
		boolean named = format == RefFormat.REFTABLE || path != null;
		if (named) {
			if (extensionsHeader < 0) {
				lines.add("[extensions]");
				extensionsHeader = lines.size() - 1;
			}
			lines.add(extensionsHeader + 1,
					"\trefStorage = " + format.configName() + ((path != null) ? "://" + path : ""));
			if (versionLine > extensionsHeader) {
				versionLine++;
			}
		}
		else if (extensionsHeader >= 0 && !otherExtensions && isBareHeader(lines.get(extensionsHeader))) {
			// an [extensions] section left empty goes, as git leaves no empty section
			// behind a migration
			lines.remove(extensionsHeader);
			if (versionLine > extensionsHeader) {
				versionLine--;
			}
			if (coreHeader > extensionsHeader) {
				coreHeader--;
			}
		}
		int version = (named || otherExtensions || hash != HashAlgorithm.SHA1) ? 1 : 0;
		String versionText = "\trepositoryformatversion = " + version;
		if (versionLine >= 0) {
			lines.set(versionLine, versionText);
		}
		else if (coreHeader >= 0) {
			lines.add(coreHeader + 1, versionText);
		}
		else {
			lines.add(0, "[core]");
			lines.add(1, versionText);
		}
		StringBuilder text = new StringBuilder();
		for (String line : lines) {
			text.append(line).append('\n');
		}
		return text.toString().getBytes(StandardCharsets.UTF_8);
	}

}
