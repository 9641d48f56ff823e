package io.refstore.core.repo;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the text of one git config file into entries, following git's syntax:
 * {@code [section]}, {@code [section "subsection"]}, the legacy
 * {@code [section.subsection]}, {@code key = value} and bare {@code key} lines, quotes,
 * the escapes {@code \n \t \b \" \\}, comments after {@code #} or {@code ;} outside
 * quotes, and a trailing backslash that continues a value on the next line. Not
 * thread-safe: one instance parses one text once.
 */
final class ConfigParser {

	private static final int EOF = -1;

	private final String text;

	private final Path source;

	private int pos;

	private int line = 1;

	private String section;

	private String subsection;

	private final List<GitConfig.Entry> entries = new ArrayList<>();

	private ConfigParser(String text, Path source) {
		// git reads CR LF as LF everywhere, also inside quotes
		this.text = text.replace("\r\n", "\n");
		this.source = source;
		this.pos = this.text.startsWith("\uFEFF") ? 1 : 0;
	}

	static List<GitConfig.Entry> parse(String text, Path source) throws ConfigException {
		return new ConfigParser(text, source).run();
	}

	private List<GitConfig.Entry> run() throws ConfigException {
		for (int c = next(); c != EOF; c = next()) {
			if (c == '\n' || isSpace(c)) {
				continue;
			}
			if (c == '#' || c == ';') {
				skipLine();
			}
			else if (c == '[') {
				sectionHeader();
			}
			else if (isAlpha(c)) {
				keyValue(c);
			}
			else {
				throw bad("unexpected character '" + (char) c + "'");
			}
		}
		return this.entries;
	}

	private void sectionHeader() throws ConfigException {
		StringBuilder name = new StringBuilder();
		int c = next();
		while (isAlnum(c) || c == '-' || c == '.') {
			name.append(lower(c));
			c = next();
		}
		if (c == ']') {
			if (name.length() == 0) {
				throw bad("empty section name");
			}
			int dot = name.indexOf(".");
			// legacy [section.subsection]: git lower-cases the subsection too
			this.section = (dot < 0) ? name.toString() : name.substring(0, dot);
			this.subsection = (dot < 0) ? null : name.substring(dot + 1);
			return;
		}
		if (c != ' ' && c != '\t') {
			throw bad("bad section header, expected ']' or a quoted subsection");
		}
		while (c == ' ' || c == '\t') {
			c = next();
		}
		if (c != '"') {
			throw bad("bad section header, expected '\"' to open the subsection");
		}
		this.section = name.toString();
		this.subsection = quotedSubsection();
	}

	private String quotedSubsection() throws ConfigException {
		StringBuilder sub = new StringBuilder();
		for (int c = next();; c = next()) {
			if (c == EOF || c == '\n') {
				throw bad("unterminated subsection name");
			}
			if (c == '"') {
				break;
			}
			if (c == '\\') {
				c = next();
				if (c == EOF || c == '\n') {
					throw bad("unterminated subsection name");
				}
			}
			sub.append((char) c);
		}
		if (next() != ']') {
			throw bad("bad section header, expected ']' right after the subsection's closing quote");
		}
		return sub.toString();
	}

	private void keyValue(int first) throws ConfigException {
		int keyLine = this.line;
		StringBuilder key = new StringBuilder().append(lower(first));
		int c = next();
		while (isAlnum(c) || c == '-') {
			key.append(lower(c));
			c = next();
		}
		while (c == ' ' || c == '\t') {
			c = next();
		}
		String value = null;
		if (c != '\n' && c != EOF) {
			if (c != '=') {
				throw bad("bad key '" + key + "', expected '=' or the end of the line");
			}
			value = value();
		}
		// a key before any section header is legal for git, but no lookup can reach it
		String sect = (this.section != null) ? this.section : "";
		this.entries.add(new GitConfig.Entry(sect, this.subsection, key.toString(), value, this.source, keyLine));
	}

	/** Reads a value up to and including the end of its (last) line. */
	private String value() throws ConfigException {
		StringBuilder value = new StringBuilder();
		boolean quoted = false;
		int spaces = 0;
		for (int c = next(); c != EOF && c != '\n'; c = next()) {
			if (!quoted && (c == '#' || c == ';')) {
				skipLine();
				break;
			}
			if (!quoted && isSpace(c)) {
				// leading blanks are dropped, inner runs kept, trailing ones dropped at
				// the end
				spaces += (value.length() > 0) ? 1 : 0;
				continue;
			}
			value.append(" ".repeat(spaces));
			spaces = 0;
			if (c == '"') {
				quoted = !quoted;
			}
			else if (c == '\\') {
				escape(value);
			}
			else {
				value.append((char) c);
			}
		}
		if (quoted) {
			throw bad("unterminated quote in value");
		}
		return value.toString();
	}

	private void escape(StringBuilder value) throws ConfigException {
		int c = next();
		switch (c) {
			case '\n', EOF -> {
				// line continuation; at the end of the file git treats the backslash as
				// one too
			}
			case 'n' -> value.append('\n');
			case 't' -> value.append('\t');
			case 'b' -> value.append('\b');
			case '"', '\\' -> value.append((char) c);
			default -> throw bad("bad escape '\\" + (char) c + "' in value");
		}
	}

	private int next() {
		if (this.pos >= this.text.length()) {
			return EOF;
		}
		char c = this.text.charAt(this.pos++);
		if (c == '\n') {
			this.line++;
		}
		return c;
	}

	private void skipLine() {
		for (int c = next(); c != '\n' && c != EOF; c = next()) {
			// comment text
		}
	}

	private ConfigException bad(String reason) {
		// the newline that ended a bad line has already been counted
		int at = (this.pos > 0 && this.text.charAt(this.pos - 1) == '\n') ? this.line - 1 : this.line;
		return new ConfigException(this.source, at, "bad config line " + at + ": " + reason);
	}

	private static boolean isSpace(int c) {
		return c == ' ' || c == '\t' || c == '\r';
	}

	private static boolean isAlpha(int c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
	}

	private static boolean isAlnum(int c) {
		return isAlpha(c) || (c >= '0' && c <= '9');
	}

	private static char lower(int c) {
		return (char) ((c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c);
	}

}
