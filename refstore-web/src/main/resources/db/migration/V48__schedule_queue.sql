-- A fire's targets wait as QUEUED runs while their node runs refstore.fleet.jobs-per-node of that fire's jobs. A
-- run records the node holding its repository when it fired (null if none was known), and the queue is read by
-- fire and node.
ALTER TABLE refstore_schedule_run ADD COLUMN node VARCHAR(200);
CREATE INDEX refstore_schedule_run_queue ON refstore_schedule_run (outcome, schedule_name, scheduled_at, node, id);
