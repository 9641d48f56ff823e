package io.refstore.web.system;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.refstore.batch.api.JobParameterNames;

/**
 * What may be shown of a server-side text (an exception's or a job's message) to a
 * client: its first line, without exception class names ({@code java.lang.X: },
 * {@code Caused by:}) and with every absolute path cut to its last name (a backup's or a
 * repository's name, never the server's layout). The full text stays in the log.
 * Stateless.
 */
public final class Redaction {

	/** An absolute path of two names or more, not inside a word or a relative path. */
	private static final Pattern ABSOLUTE_PATH = Pattern.compile("(?<![\\w.~/-])(?:/[^/\\s'\"`,;:()\\[\\]<>]+){2,}/?");

	/** A qualified exception or error class name, with its colon. */
	private static final Pattern EXCEPTION_PREFIX = Pattern
		.compile("^\\s*(?:Caused by:\\s*)?(?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*(?::\\s*|\\s*$)");

	private Redaction() {
	}

	/**
	 * {@code message}'s first line without exception class names and with absolute paths
	 * cut to their last name; {@code null} for {@code null}.
	 */
	public static String message(String message) {
		if (message == null) {
			return null;
		}
		String line = message.lines().filter((l) -> !l.isBlank()).findFirst().orElse("");
		for (Matcher prefix = EXCEPTION_PREFIX.matcher(line); prefix.find(); prefix = EXCEPTION_PREFIX.matcher(line)) {
			line = line.substring(prefix.end());
		}
		line = paths(line).strip();
		return (line.isEmpty() && !message.isBlank()) ? "failed; the server log has the details" : line;
	}

	/**
	 * A job's or an audit entry's parameters as a client may see them: without
	 * {@code repositoryPath} (the repository's name is shown) and with every absolute
	 * path in a value cut to its last name (a plan's, a manifest's, a backup's).
	 */
	public static Map<String, String> parameters(Map<String, String> parameters) {
		Map<String, String> shown = new LinkedHashMap<>();
		parameters.forEach((name, value) -> {
			if (!name.equals(JobParameterNames.REPOSITORY_PATH)) {
				shown.put(name, paths(value));
			}
		});
		return shown;
	}

	/** {@code text} with every absolute path cut to its last name. */
	public static String paths(String text) {
		if (text == null || text.indexOf('/') < 0) {
			return text;
		}
		return ABSOLUTE_PATH.matcher(text).replaceAll((match) -> {
			String path = match.group();
			String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
			return Matcher.quoteReplacement(trimmed.substring(trimmed.lastIndexOf('/') + 1));
		});
	}

}
