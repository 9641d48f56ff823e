package io.refstore.web.schedules;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Extra job parameters as the console's forms take them: one {@code key=value} per line.
 * Lines without a key before an {@code =} are ignored; the job's own validation names any
 * bad key or value at launch.
 */
final class ParameterLines {

	private ParameterLines() {
	}

	/** The parameters in {@code text} (may be {@code null}), in the order written. */
	public static Map<String, String> parse(String text) {
		Map<String, String> parameters = new LinkedHashMap<>();
		for (String line : (text == null) ? new String[0] : text.split("\\R")) {
			int eq = line.indexOf('=');
			if (eq > 0) {
				parameters.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
			}
		}
		return parameters;
	}

	/** {@code parameters} as lines, for a form showing them again. */
	public static String format(Map<String, String> parameters) {
		StringBuilder lines = new StringBuilder();
		parameters.forEach((key, value) -> lines.append(key).append('=').append(value).append('\n'));
		return lines.toString();
	}

}
