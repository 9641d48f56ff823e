package io.refstore.web.refs;

import java.nio.charset.StandardCharsets;

import org.springframework.web.util.UriUtils;

/**
 * A context-relative link with query parameters, for a template's {@code @{${link}}}:
 * parameters without a value are left out, values are encoded for a query ({@code +} too,
 * which a ref name may hold and a server would read as a space). Not thread-safe.
 */
final class QueryLink {

	private final StringBuilder link;

	private boolean first = true;

	QueryLink(String path) {
		this.link = new StringBuilder(path);
	}

	/** Adds {@code name=value} unless the value is {@code null} or empty. */
	QueryLink add(String name, Object value) {
		String text = (value != null) ? value.toString() : "";
		if (text.isEmpty()) {
			return this;
		}
		this.link.append(this.first ? '?' : '&')
			.append(name)
			.append('=')
			.append(UriUtils.encodeQueryParam(text, StandardCharsets.UTF_8).replace("+", "%2B"));
		this.first = false;
		return this;
	}

	@Override
	public String toString() {
		return this.link.toString();
	}

}
