package io.refstore.core.cli.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.refstore.core.cli.env.CommandFailure;

/**
 * {@code %(trailers:...)} options: {@code only}, {@code unfold}, {@code valueonly},
 * {@code key=<key>} (implies {@code only}), {@code separator=},
 * {@code key_value_separator=}. Immutable.
 */
record TrailerOptions(boolean unfold, boolean valueOnly, boolean only, List<String> keys, String separator,
		String keyValueSeparator) {

	static TrailerOptions parse(String arg) throws CommandFailure {
		boolean unfold = false;
		boolean valueOnly = false;
		List<String> keys = new ArrayList<>();
		String separator = null;
		String keyValueSeparator = null;
		Boolean only = null;
		if (arg != null && !arg.isEmpty()) {
			for (String part : arg.split(",")) {
				if (part.startsWith("key=")) {
					String key = part.substring(4);
					keys.add((key.endsWith(":") ? key.substring(0, key.length() - 1) : key).toLowerCase(Locale.ROOT));
				}
				else if (part.equals("key")) {
					throw CommandFailure.fatal("expected %(trailers:key=<value>)");
				}
				else if (part.startsWith("separator=")) {
					separator = unescape(part.substring(10));
				}
				else if (part.startsWith("key_value_separator=")) {
					keyValueSeparator = unescape(part.substring(20));
				}
				else if (flag(part, "unfold") != null) {
					unfold = flag(part, "unfold");
				}
				else if (flag(part, "valueonly") != null) {
					valueOnly = flag(part, "valueonly");
				}
				else if (flag(part, "only") != null) {
					only = flag(part, "only");
				}
				else {
					throw CommandFailure.fatal("unknown %(trailers) argument: " + part);
				}
			}
		}
		// a key implies only, unless only is given
		return new TrailerOptions(unfold, valueOnly, (only != null) ? only : !keys.isEmpty(), keys, separator,
				keyValueSeparator);
	}

	private static Boolean flag(String part, String name) {
		if (part.equals(name) || part.equals(name + "=true") || part.equals(name + "=yes")) {
			return true;
		}
		if (part.equals(name + "=false") || part.equals(name + "=no")) {
			return false;
		}
		return null;
	}

	/** The {@code %n} and {@code %xNN} escapes a separator may use. */
	private static String unescape(String s) {
		StringBuilder out = new StringBuilder();
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			if (c == '%' && i + 1 < s.length() && s.charAt(i + 1) == 'n') {
				out.append('\n');
				i++;
			}
			else if (c == '%' && i + 3 < s.length() + 0 && s.charAt(i + 1) == 'x') {
				out.append((char) Integer.parseInt(s.substring(i + 2, i + 4), 16));
				i += 3;
			}
			else {
				out.append(c);
			}
		}
		return out.toString();
	}

	/** Formats a message's trailer lines. */
	String format(List<String> trailers) {
		StringBuilder out = new StringBuilder();
		boolean first = true;
		for (String trailer : trailers) {
			boolean isTrailer = MessageParts.isTrailer(trailer);
			if (!isTrailer && this.only) {
				continue;
			}
			int colon = trailer.indexOf(':');
			String key = isTrailer ? trailer.substring(0, colon).strip() : null;
			String value = isTrailer ? trailer.substring(colon + 1).strip() : trailer;
			if (isTrailer && !this.keys.isEmpty() && !this.keys.contains(key.toLowerCase(Locale.ROOT))) {
				continue;
			}
			if (this.unfold) {
				value = value.replaceAll("\n\\s+", " ");
			}
			if (this.separator != null && !first) {
				out.append(this.separator);
			}
			first = false;
			if (isTrailer && !this.valueOnly) {
				out.append(key).append((this.keyValueSeparator != null) ? this.keyValueSeparator : ": ");
			}
			out.append(value);
			if (this.separator == null) {
				out.append('\n');
			}
		}
		return out.toString();
	}

}
