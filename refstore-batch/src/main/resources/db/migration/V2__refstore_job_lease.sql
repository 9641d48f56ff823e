-- One mutating job per repository, across application instances: a row is the lease.
-- OWNER_INSTANCE renews HEARTBEAT and EXPIRES_AT while the job runs; a row past EXPIRES_AT is stale and
-- may be taken over. EXECUTION_ID is null between the claim and the job's start.
CREATE TABLE REFSTORE_JOB_LEASE (
	REPOSITORY VARCHAR(1024) NOT NULL PRIMARY KEY,
	JOB_NAME VARCHAR(100) NOT NULL,
	EXECUTION_ID BIGINT,
	OWNER_INSTANCE VARCHAR(200) NOT NULL,
	ACQUIRED TIMESTAMP(3) NOT NULL,
	HEARTBEAT TIMESTAMP(3) NOT NULL,
	EXPIRES_AT TIMESTAMP(3) NOT NULL
);
