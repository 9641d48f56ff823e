package io.refstore.web.refs;

import java.time.Duration;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

import io.refstore.web.system.Problems;

/**
 * How long one request may scan refs: {@link #LIMIT}, checked every {@value #EVERY} refs,
 * so a search that would outlast it stops with a 503 problem (kind
 * {@code scan-time-limit}, {@code parameter} {@code glob}) instead of running on after
 * its client gave up. A glob costs at most its length times a name's per ref, so a search
 * meets the limit only on stores far beyond a million refs or on a machine in trouble.
 * One per request; not thread-safe.
 */
final class ScanDeadline {

	/** How long a request may scan: 10 seconds. */
	static final Duration LIMIT = Duration.ofSeconds(10);

	/** How many refs are scanned between two looks at the clock. */
	static final int EVERY = 1024;

	private final Duration limit;

	private final long deadline;

	private final Map<String, String> culprit;

	private int steps;

	/**
	 * A deadline {@code limit} from now.
	 * @param glob the search's glob (empty: none), named as the culprit
	 */
	ScanDeadline(Duration limit, String glob) {
		this.limit = limit;
		this.deadline = System.nanoTime() + limit.toNanos();
		this.culprit = glob.isEmpty() ? Map.of() : Map.of("parameter", "glob");
	}

	/** A deadline {@link #LIMIT} from now for a search with {@code glob}. */
	static ScanDeadline start(String glob) {
		return new ScanDeadline(LIMIT, glob);
	}

	/**
	 * Counts one ref scanned.
	 * @throws ErrorResponseException 503 once the limit has passed
	 */
	void step() {
		if (++this.steps % EVERY == 0 && System.nanoTime() - this.deadline > 0) {
			throw Problems.exception(HttpStatus.SERVICE_UNAVAILABLE, "scan-time-limit",
					"the search stopped after scanning " + this.steps + " refs in " + this.limit.toMillis()
							+ " ms; narrow it with a prefix, or a glob that starts with more literal text",
					this.culprit);
		}
	}

}
