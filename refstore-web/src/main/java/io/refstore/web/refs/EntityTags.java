package io.refstore.web.refs;

/**
 * Compares entity tags of conditional requests (RFC 9110 section 13.1). Stateless.
 */
final class EntityTags {

	private EntityTags() {
	}

	/**
	 * Whether the header value (a list of entity tags, or {@code *}) names {@code etag}.
	 * Weak and strong tags compare alike (the weak comparison of If-None-Match).
	 */
	static boolean matches(String header, String etag) {
		String wanted = strip(etag);
		for (String candidate : header.split(",")) {
			String tag = candidate.strip();
			if (tag.equals("*") || strip(tag).equals(wanted)) {
				return true;
			}
		}
		return false;
	}

	/** The opaque part of an entity tag: without {@code W/} and quotes. */
	static String strip(String tag) {
		String value = tag.startsWith("W/") ? tag.substring(2) : tag;
		if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
			value = value.substring(1, value.length() - 1);
		}
		return value;
	}

}
