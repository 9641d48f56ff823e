-- The inventory history: one row per completed inventoryRefsJob execution (the repository's totals and what its
-- ref store holds on disk: loose and packed refs for files, tables for reftable), and one row per namespace of
-- it. The job writes both in its step's transaction, so a run that failed leaves none and a run has one set.
CREATE TABLE refstore_inventory (
	job_execution_id BIGINT NOT NULL PRIMARY KEY,
	repository VARCHAR(1024) NOT NULL,
	recorded_at TIMESTAMP WITH TIME ZONE NOT NULL,
	format VARCHAR(20) NOT NULL,
	refs BIGINT NOT NULL,
	stale BIGINT NOT NULL,
	merged BIGINT,
	base_ref VARCHAR(1024),
	loose_refs BIGINT,
	packed_refs BIGINT,
	table_count INT,
	bytes BIGINT NOT NULL
);
CREATE INDEX refstore_inventory_repository ON refstore_inventory (repository, recorded_at);

CREATE TABLE refstore_inventory_namespace (
	job_execution_id BIGINT NOT NULL REFERENCES refstore_inventory (job_execution_id),
	namespace VARCHAR(1024) NOT NULL,
	refs BIGINT NOT NULL,
	stale BIGINT NOT NULL,
	merged BIGINT,
	PRIMARY KEY (job_execution_id, namespace)
);
