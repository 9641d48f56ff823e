package io.refstore.core.repo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An immutable snapshot of git configuration: one config file, or several read in order
 * (the later one wins). Immutable and therefore safe for use by several threads.
 * <p>
 * Lookups name a section (case-insensitive), an optional subsection (case-sensitive,
 * {@code null} for none) and a key (case-insensitive), as in
 * {@code getString("remote", "origin", "url")}. A legacy header {@code [branch.Foo]} has
 * the subsection {@code foo}: git lower-cases it. When a key occurs several times,
 * single-value lookups return the last occurrence. A key written without {@code =} is an
 * implicit {@code true}: {@link #getBoolean} reads it as true, {@link #getString} as the
 * empty string.
 * <p>
 * {@code [include]} and {@code [includeIf]} sections are kept as ordinary entries and are
 * <em>not</em> followed: the files they name are not read.
 */
public final class GitConfig {

	private static final GitConfig EMPTY = new GitConfig(List.of());

	private final List<Entry> entries;

	private final Map<String, List<Entry>> index;

	GitConfig(List<Entry> entries) {
		this.entries = List.copyOf(entries);
		this.index = new HashMap<>();
		for (Entry entry : this.entries) {
			this.index.computeIfAbsent(lookupKey(entry.section, entry.subsection, entry.key), (k) -> new ArrayList<>())
				.add(entry);
		}
	}

	/** A config without entries. */
	public static GitConfig empty() {
		return EMPTY;
	}

	/**
	 * Reads and parses a config file (as UTF-8).
	 * @param file the file; a missing file is an empty config
	 * @return the snapshot
	 * @throws ConfigException if a line is malformed (naming the file and line)
	 * @throws IOException if the file exists but cannot be read
	 */
	public static GitConfig read(Path file) throws IOException {
		byte[] bytes;
		try {
			bytes = Files.readAllBytes(file);
		}
		catch (NoSuchFileException ex) {
			return EMPTY;
		}
		return parse(new String(bytes, StandardCharsets.UTF_8), file);
	}

	/**
	 * Parses config text.
	 * @param text the whole text of one config file
	 * @param source the file it came from, used only in error messages (may be
	 * {@code null})
	 * @return the snapshot
	 * @throws ConfigException if a line is malformed (naming the source and line)
	 */
	public static GitConfig parse(String text, Path source) throws ConfigException {
		return new GitConfig(ConfigParser.parse(text, source));
	}

	/** This config followed by {@code later}, whose entries win over this one's. */
	GitConfig with(GitConfig later) {
		if (later.entries.isEmpty()) {
			return this;
		}
		List<Entry> all = new ArrayList<>(this.entries);
		all.addAll(later.entries);
		return new GitConfig(all);
	}

	/**
	 * The last value of a key.
	 * @param section the section, such as {@code core}
	 * @param subsection the subsection, or {@code null} for none
	 * @param key the key, such as {@code bare}
	 * @return the value ({@code ""} for a key without {@code =}), or empty if the key is
	 * not set
	 */
	public Optional<String> getString(String section, String subsection, String key) {
		return last(section, subsection, key).map(Entry::valueOrEmpty);
	}

	/**
	 * Every value of a key, in file order.
	 * @return the values ({@code ""} for a key without {@code =}); an empty list if the
	 * key is not set
	 */
	public List<String> getAll(String section, String subsection, String key) {
		List<Entry> found = this.index.get(lookupKey(section, subsection, key));
		return (found == null) ? List.of() : found.stream().map(Entry::valueOrEmpty).toList();
	}

	/**
	 * Every variable of a section, in the order git's config callbacks see them.
	 * @param section the section, such as {@code fsck}
	 * @return each variable's name after the section's dot (a subsection kept as written,
	 * the key in lower case) and its value ({@code null} for a key without {@code =})
	 */
	public List<Variable> variables(String section) {
		List<Variable> variables = new ArrayList<>();
		for (Entry entry : this.entries) {
			if (entry.section.equalsIgnoreCase(section)) {
				String key = entry.key.toLowerCase(Locale.ROOT);
				variables
					.add(new Variable((entry.subsection != null) ? entry.subsection + "." + key : key, entry.value));
			}
		}
		return variables;
	}

	/**
	 * A variable of a section ({@link #variables}).
	 *
	 * @param name the name after the section's dot
	 * @param value the value, {@code null} for a key without {@code =}
	 */
	public record Variable(String name, String value) {

	}

	/**
	 * The last value of a key read as a boolean by git's rules: {@code true},
	 * {@code yes}, {@code on} and a key without {@code =} are true; {@code false},
	 * {@code no}, {@code off} and the empty value are false (words in any case); an
	 * integer is true unless it is 0.
	 * @return the value, or empty if the key is not set
	 * @throws IllegalArgumentException if the value is none of these, naming key, value,
	 * file and line
	 */
	public Optional<Boolean> getBoolean(String section, String subsection, String key) {
		return last(section, subsection, key).map(ConfigValues::toBoolean);
	}

	/**
	 * The last value of a key read as an integer by git's rules: optional sign, decimal,
	 * {@code 0x} hex or {@code 0} octal digits, then an optional unit {@code k},
	 * {@code m} or {@code g} (either case, powers of 1024).
	 * @return the value, or empty if the key is not set
	 * @throws IllegalArgumentException if the value is malformed or out of range, naming
	 * key, value, file and line
	 */
	public OptionalLong getLong(String section, String subsection, String key) {
		Optional<Entry> entry = last(section, subsection, key);
		return entry.isPresent() ? OptionalLong.of(ConfigValues.toLong(entry.get())) : OptionalLong.empty();
	}

	/**
	 * The last value of a key read as an unsigned number, as git's
	 * {@code git_config_ulong} reads it (a {@code -} anywhere is malformed).
	 * @return the value, or empty if the key is not set
	 * @throws ConfigValueException in git's words for a malformed value
	 */
	public OptionalLong getUnsignedLong(String section, String subsection, String key) {
		Optional<Entry> entry = last(section, subsection, key);
		return entry.isPresent() ? OptionalLong.of(ConfigValues.toUnsignedLong(entry.get())) : OptionalLong.empty();
	}

	/**
	 * The last entry of a key, for callers that must report where a bad value came from.
	 */
	Optional<Entry> last(String section, String subsection, String key) {
		List<Entry> found = this.index.get(lookupKey(section, subsection, key));
		return (found == null) ? Optional.empty() : Optional.of(found.get(found.size() - 1));
	}

	/** Every entry of a section (any subsection), in order. */
	List<Entry> section(String section) {
		String wanted = section.toLowerCase(Locale.ROOT);
		return this.entries.stream().filter((e) -> e.section.equals(wanted)).toList();
	}

	private static String lookupKey(String section, String subsection, String key) {
		// NUL cannot occur in names, and \1 marks "no subsection" apart from the empty
		// subsection
		return section.toLowerCase(Locale.ROOT) + '\0' + ((subsection != null) ? subsection : "\1") + '\0'
				+ key.toLowerCase(Locale.ROOT);
	}

	@Override
	public String toString() {
		return "GitConfig" + this.entries.stream().map(Entry::name).toList();
	}

	/**
	 * One {@code key = value} line.
	 *
	 * @param section the lower-case section name
	 * @param subsection the subsection, or {@code null}
	 * @param key the lower-case key
	 * @param value the value, or {@code null} for a key written without {@code =}
	 * @param source the file, or {@code null}
	 * @param line the 1-based line of the key
	 */
	record Entry(String section, String subsection, String key, String value, Path source, int line) {

		String valueOrEmpty() {
			return (this.value != null) ? this.value : "";
		}

		/** The dotted name git prints, such as {@code remote.origin.url}. */
		String name() {
			return this.section + ((this.subsection != null) ? "." + this.subsection : "") + "." + this.key;
		}

		/** Where this entry is, for messages. */
		String where() {
			return ConfigException.where(this.source, this.line);
		}

	}

}
