package io.refstore.web.jobs;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.util.UriComponentsBuilder;
import org.springframework.web.util.UriUtils;

import io.refstore.batch.api.JobFilter;
import io.refstore.batch.api.JobStatus;

/**
 * The job history's links, each keeping the filters it does not change: a counter's (the
 * filters with its status), a page's (the filters with its offset), the way back to the
 * list after an action on some of its jobs. Parameters without a value are left out, so a
 * link says only what it selects ({@code /jobs?status=FAILED&repo=team%2F*}).
 *
 * @param filter the list's filter
 */
record JobListLinks(JobFilter filter) {

	/** The parameters of the list's address. */
	private static final Set<String> PARAMETERS = Set.of("status", "type", "repo", "actor", "from", "to", "offset");

	/** Whether any filter is set (the status included), the page aside. */
	public boolean filtered() {
		return this.filter.status() != null || this.filter.type() != null || this.filter.repository() != null
				|| this.filter.actor() != null || this.filter.from() != null || this.filter.to() != null;
	}

	/**
	 * The first page of the jobs in {@code status} ({@code null} for all), filtered
	 * alike.
	 */
	public String status(JobStatus status) {
		return href(query(status, 0));
	}

	/** The page at {@code offset}. */
	public String page(long offset) {
		return href(query(this.filter.status(), offset));
	}

	/** This page's query, without its {@code ?}, to come back to after an action. */
	public String back() {
		String query = UriComponentsBuilder.newInstance()
			.queryParams(query(this.filter.status(), this.filter.offset()))
			.build()
			.encode()
			.getQuery();
		return (query != null) ? query.replace("+", "%2B") : "";
	}

	/**
	 * The list's address for a query a form sent back (as {@link #back} wrote it): only
	 * the list's own parameters are kept, so it never leads elsewhere.
	 */
	static String of(String back) {
		MultiValueMap<String, String> given = UriComponentsBuilder.fromPath("/jobs")
			.query((back != null) ? back : "")
			.build()
			.getQueryParams();
		MultiValueMap<String, String> kept = new LinkedMultiValueMap<>();
		for (Map.Entry<String, List<String>> parameter : given.entrySet()) {
			if (PARAMETERS.contains(parameter.getKey())) {
				parameter.getValue()
					.stream()
					.findFirst()
					.map(JobListLinks::decoded)
					.ifPresent((value) -> kept.add(parameter.getKey(), value));
			}
		}
		return UriComponentsBuilder.fromPath("/jobs")
			.queryParams(kept)
			.build()
			.encode()
			.toUriString()
			.replace("+", "%2B");
	}

	/**
	 * A value as {@link #back} encoded it; {@code null} for one that is not encoded so.
	 */
	private static String decoded(String value) {
		try {
			return (value != null) ? UriUtils.decode(value, StandardCharsets.UTF_8) : null;
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private MultiValueMap<String, String> query(JobStatus status, long offset) {
		MultiValueMap<String, String> query = new LinkedMultiValueMap<>();
		put(query, "status", status);
		put(query, "type", this.filter.type());
		put(query, "repo", this.filter.repository());
		put(query, "actor", this.filter.actor());
		put(query, "from", this.filter.from());
		put(query, "to", this.filter.to());
		if (offset > 0) {
			query.add("offset", Long.toString(offset));
		}
		return query;
	}

	private static void put(MultiValueMap<String, String> query, String name, Object value) {
		if (value != null) {
			query.add(name, value.toString());
		}
	}

	private static String href(MultiValueMap<String, String> query) {
		// a + in a query is read as a space
		return UriComponentsBuilder.fromPath("/jobs")
			.queryParams(query)
			.build()
			.encode()
			.toUriString()
			.replace("+", "%2B");
	}

}
