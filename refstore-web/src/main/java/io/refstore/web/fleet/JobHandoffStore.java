package io.refstore.web.fleet;

import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The {@code refstore_job_handoff} table: each job a node hands to the node holding its
 * repository, taken there at most once, or cancelled by the asking node if it was never
 * taken. Thread-safe.
 */
@Component
class JobHandoffStore {

	private final JdbcClient jdbc;

	JobHandoffStore(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	void create(JobHandoffRequest request) {
		this.jdbc
			.sql("INSERT INTO refstore_job_handoff (request_id, kind, origin_node, target_node, job_type, repository,"
					+ " parameters, restart_of, actor, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP)")
			.params(request.id(), request.kind().name(), request.origin(), request.target(), request.jobType(),
					request.repository(), request.parameters(), request.restartOf(), request.actor())
			.update();
	}

	/** Takes the request for its target node, unless it was taken or cancelled. */
	Optional<JobHandoffRequest> take(String id, String node) {
		int taken = this.jdbc
			.sql("UPDATE refstore_job_handoff SET taken_at = CURRENT_TIMESTAMP WHERE request_id = ?"
					+ " AND target_node = ? AND taken_at IS NULL AND cancelled_at IS NULL")
			.params(id, node)
			.update();
		if (taken != 1) {
			return Optional.empty();
		}
		return this.jdbc.sql("SELECT * FROM refstore_job_handoff WHERE request_id = ?")
			.param(id)
			.query((rs, row) -> new JobHandoffRequest(rs.getString("request_id"),
					JobHandoffRequest.Kind.valueOf(rs.getString("kind")), rs.getString("origin_node"),
					rs.getString("target_node"), rs.getString("job_type"), rs.getString("repository"),
					rs.getString("parameters"), rs.getObject("restart_of", Long.class), rs.getString("actor")))
			.optional();
	}

	/**
	 * Cancels a request its target node has not taken.
	 * @return false if it was taken
	 */
	boolean cancel(String id) {
		return this.jdbc
			.sql("UPDATE refstore_job_handoff SET cancelled_at = CURRENT_TIMESTAMP WHERE request_id = ?"
					+ " AND taken_at IS NULL AND cancelled_at IS NULL")
			.param(id)
			.update() == 1;
	}

	void done(String id, JobHandoffOutcome outcome) {
		this.jdbc.sql("UPDATE refstore_job_handoff SET done_at = CURRENT_TIMESTAMP, execution_id = ?, error_kind = ?,"
				+ " error_parameter = ?, error_value = ?, error_message = ?, error_execution = ? WHERE request_id = ?")
			.params(outcome.executionId(), outcome.errorKind(), outcome.parameter(), outcome.value(), outcome.message(),
					outcome.conflictingExecution(), id)
			.update();
	}

	/** The outcome of a request its target node has finished with. */
	Optional<JobHandoffOutcome> outcome(String id) {
		return this.jdbc.sql("SELECT * FROM refstore_job_handoff WHERE request_id = ? AND done_at IS NOT NULL")
			.param(id)
			.query((rs, row) -> new JobHandoffOutcome(rs.getObject("execution_id", Long.class),
					rs.getString("error_kind"), rs.getString("error_parameter"), rs.getString("error_value"),
					rs.getString("error_message"), rs.getObject("error_execution", Long.class)))
			.optional();
	}

}
