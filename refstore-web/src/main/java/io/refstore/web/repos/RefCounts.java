package io.refstore.web.repos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;

/**
 * Counts the refs of a store per top-level namespace (the first two components,
 * {@code refs/heads}) in one pass. Refs arrive in name order, so each namespace is one
 * run: a name is compared with the current namespace's bytes and a string is made only
 * when a new run starts. Not thread-safe.
 */
final class RefCounts {

	private final Map<String, Long> namespaces = new LinkedHashMap<>();

	private long total;

	private byte[] current = new byte[0];

	private long inCurrent;

	private RefCounts() {
	}

	/** Counts every ref of {@code store} under {@code refs/}. */
	static RefCounts of(RefStore store) throws IOException {
		RefCounts counts = new RefCounts();
		try (RefCursor cursor = store.refs(RefQuery.ALL)) {
			while (cursor.next()) {
				counts.add(cursor.nameBuffer(), cursor.nameLength());
			}
		}
		counts.flush();
		return counts;
	}

	private void add(byte[] name, int length) {
		this.total++;
		int end = namespaceEnd(name, length);
		if (end == this.current.length && Arrays.equals(name, 0, end, this.current, 0, end)) {
			this.inCurrent++;
			return;
		}
		flush();
		this.current = Arrays.copyOf(name, end);
		this.inCurrent = 1;
	}

	private void flush() {
		if (this.inCurrent > 0) {
			this.namespaces.merge(new String(this.current, StandardCharsets.UTF_8), this.inCurrent, Long::sum);
		}
		this.inCurrent = 0;
	}

	/**
	 * The end of the second component ({@code refs/heads}), or the whole name if it has
	 * only one or two.
	 */
	private static int namespaceEnd(byte[] name, int length) {
		int slashes = 0;
		for (int i = 0; i < length; i++) {
			if (name[i] == '/' && ++slashes == 2) {
				return i;
			}
		}
		return length;
	}

	long total() {
		return this.total;
	}

	/** Unmodifiable: a count may be shared by several responses. */
	Map<String, Long> namespaces() {
		return java.util.Collections.unmodifiableMap(this.namespaces);
	}

}
