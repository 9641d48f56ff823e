package io.refstore.core.repo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The config git takes from its command line and environment, over every file:
 * {@code GIT_CONFIG_PARAMETERS} (what {@code git -c name=value} and {@code --config-env}
 * pass on to the commands git runs) and then {@code GIT_CONFIG_COUNT} with
 * {@code GIT_CONFIG_KEY_<n>}/{@code GIT_CONFIG_VALUE_<n>}.
 */
final class CommandLineConfig {

	private CommandLineConfig() {
	}

	static GitConfig of(Map<String, String> env) throws ConfigException {
		List<GitConfig.Entry> entries = new ArrayList<>();
		String parameters = env.get("GIT_CONFIG_PARAMETERS");
		if (parameters != null && !parameters.isBlank()) {
			parseParameters(parameters, entries);
		}
		String count = env.get("GIT_CONFIG_COUNT");
		if (count != null && !count.isEmpty()) {
			int n;
			try {
				n = Integer.parseInt(count.strip());
			}
			catch (NumberFormatException ex) {
				throw new ConfigException(null, 0, "bogus count in GIT_CONFIG_COUNT");
			}
			for (int i = 0; i < n; i++) {
				String key = env.get("GIT_CONFIG_KEY_" + i);
				String value = env.get("GIT_CONFIG_VALUE_" + i);
				if (key == null) {
					throw new ConfigException(null, 0, "missing config key GIT_CONFIG_KEY_" + i);
				}
				if (value == null) {
					throw new ConfigException(null, 0, "missing config value GIT_CONFIG_VALUE_" + i);
				}
				entries.add(entry(key, value));
			}
		}
		return entries.isEmpty() ? GitConfig.empty() : new GitConfig(entries);
	}

	/**
	 * Reads git's quoting of the list: single-quoted words separated by spaces, each
	 * {@code 'name=value'}, {@code 'name'='value'} or {@code 'name'} (a bare true), a
	 * quote inside a word written {@code '\''}.
	 */
	private static void parseParameters(String text, List<GitConfig.Entry> entries) throws ConfigException {
		int i = 0;
		while (i < text.length()) {
			if (Character.isWhitespace(text.charAt(i))) {
				i++;
				continue;
			}
			StringBuilder name = new StringBuilder();
			i = unquote(text, i, name);
			if (i < text.length() && text.charAt(i) == '=') {
				StringBuilder value = new StringBuilder();
				i = unquote(text, i + 1, value);
				entries.add(entry(name.toString(), value.toString()));
			}
			else {
				String word = name.toString();
				int eq = word.indexOf('=');
				entries.add((eq < 0) ? entry(word, null) : entry(word.substring(0, eq), word.substring(eq + 1)));
			}
		}
	}

	/**
	 * Appends the quoted word at {@code i} to {@code into}; returns the index after it.
	 */
	private static int unquote(String text, int i, StringBuilder into) throws ConfigException {
		if (i >= text.length() || text.charAt(i) != '\'') {
			throw new ConfigException(null, 0, "bogus format in GIT_CONFIG_PARAMETERS");
		}
		i++;
		while (true) {
			int end = text.indexOf('\'', i);
			if (end < 0) {
				throw new ConfigException(null, 0, "bogus format in GIT_CONFIG_PARAMETERS");
			}
			into.append(text, i, end);
			i = end + 1;
			// '\'' continues the word with a quote
			if (text.startsWith("\\''", i)) {
				into.append('\'');
				i += 3;
				continue;
			}
			return i;
		}
	}

	private static GitConfig.Entry entry(String name, String value) throws ConfigException {
		int first = name.indexOf('.');
		int last = name.lastIndexOf('.');
		if (first <= 0 || last == name.length() - 1) {
			throw new ConfigException(null, 0, "key does not contain a section: " + name);
		}
		String section = name.substring(0, first).toLowerCase(Locale.ROOT);
		String subsection = (first == last) ? null : name.substring(first + 1, last);
		String key = name.substring(last + 1).toLowerCase(Locale.ROOT);
		return new GitConfig.Entry(section, subsection, key, value, null, 0);
	}

}
