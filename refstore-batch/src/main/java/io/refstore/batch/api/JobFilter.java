package io.refstore.batch.api;

import java.time.LocalDateTime;

/**
 * What {@link RefJobs#list} returns: every criterion that is {@code null} matches
 * everything. Newest first. A caller checks its own input against the bounds: they are a
 * programming contract, not a refusal of a request.
 *
 * @param status a status
 * @param type a job type
 * @param repository the repository name as given at launch, or a pattern of it with
 * {@code *} (any characters) and {@code ?} (one)
 * @param actor who launched
 * @param from created at or after
 * @param to created before
 * @param offset executions to skip
 * @param limit the most to return (1 to 1000)
 */
public record JobFilter(JobStatus status, RefJobType type, String repository, String actor, LocalDateTime from,
		LocalDateTime to, int offset, int limit) {

	public JobFilter {
		if (offset < 0) {
			throw new IllegalArgumentException("offset " + offset + " is negative");
		}
		if (limit < 1 || limit > 1000) {
			throw new IllegalArgumentException("limit " + limit + " is not from 1 to 1000");
		}
	}

	/** Every execution, the first {@code limit}. */
	public static JobFilter all(int limit) {
		return new JobFilter(null, null, null, null, null, null, 0, limit);
	}

}
