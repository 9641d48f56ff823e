-- Jobs handed from the node that was asked to the node that holds the repository: one row per request, taken by
-- that node at most once (taken_at) or cancelled by the asking node when it waited in vain (cancelled_at), never
-- both; the outcome is the new execution's id or the refusal (error_kind: parameter, conflict, state, error).
-- The request itself travels by Spring Integration's PostgreSQL channel (LISTEN/NOTIFY), and so does the reply.
CREATE TABLE refstore_job_handoff (
	request_id VARCHAR(36) NOT NULL PRIMARY KEY,
	kind VARCHAR(20) NOT NULL,
	origin_node VARCHAR(200) NOT NULL,
	target_node VARCHAR(200) NOT NULL,
	job_type VARCHAR(50),
	repository VARCHAR(1024),
	parameters TEXT,
	restart_of BIGINT,
	actor VARCHAR(200) NOT NULL,
	created_at TIMESTAMP WITH TIME ZONE NOT NULL,
	taken_at TIMESTAMP WITH TIME ZONE,
	cancelled_at TIMESTAMP WITH TIME ZONE,
	done_at TIMESTAMP WITH TIME ZONE,
	execution_id BIGINT,
	error_kind VARCHAR(20),
	error_parameter VARCHAR(200),
	error_value TEXT,
	error_message TEXT,
	error_execution BIGINT
);
CREATE INDEX refstore_job_handoff_created ON refstore_job_handoff (created_at);
