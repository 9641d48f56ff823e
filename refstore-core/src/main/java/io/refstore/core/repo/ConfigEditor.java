package io.refstore.core.repo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.refstore.core.io.LockFile;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.RefFormat;

/**
 * Rewrites the ref-storage part of a repository's own config file the way {@code git refs migrate} does,
 * keeping every other line as it was: {@code extensions.refStorage} set for reftable or removed for files,
 * and {@code core.repositoryformatversion} 1 while any extension needs it, else 0. The new file replaces the
 * old one atomically under git's {@code config.lock}.
 */
public final class ConfigEditor {

	private static final Pattern SECTION = Pattern.compile("^\\s*\\[\\s*([A-Za-z0-9.-]+)\\s*(\"(?:[^\"\\\\]|\\\\.)*\")?\\s*\\].*");

	private static final Pattern KEY = Pattern.compile("^\\s*([A-Za-z][A-Za-z0-9-]*)\\s*(=.*)?$");

	private ConfigEditor() {
	}

	private static boolean isBareHeader(String line) {
		return line.strip().equalsIgnoreCase("[extensions]");
	}

	/**
	 * Points the repository at {@code format}.
	 * @param configFile the repository's {@code config}
	 * @param format the new ref storage format
	 * @param hash the repository's object hash (SHA-256 needs format version 1)
	 */
	public static void setRefStorage(Path configFile, RefFormat format, HashAlgorithm hash) throws IOException {
		List<String> lines = new ArrayList<>(Files.readAllLines(configFile, StandardCharsets.UTF_8));
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
		boolean reftable = format == RefFormat.REFTABLE;
		if (reftable) {
			if (extensionsHeader < 0) {
				lines.add("[extensions]");
				extensionsHeader = lines.size() - 1;
			}
			lines.add(extensionsHeader + 1, "\trefStorage = reftable");
			if (versionLine > extensionsHeader) {
				versionLine++;
			}
		}
		else if (extensionsHeader >= 0 && !otherExtensions && isBareHeader(lines.get(extensionsHeader))) {
			// an [extensions] section left empty goes, as git leaves no empty section behind a migration
			lines.remove(extensionsHeader);
			if (versionLine > extensionsHeader) {
				versionLine--;
			}
			if (coreHeader > extensionsHeader) {
				coreHeader--;
			}
		}
		int version = (reftable || otherExtensions || hash != HashAlgorithm.SHA1) ? 1 : 0;
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
		try (LockFile lock = LockFile.acquire(configFile, Duration.ofSeconds(1))) {
			lock.write(text.toString().getBytes(StandardCharsets.UTF_8), false);
			lock.commit();
		}
	}

}
