-- A fire's targets wait as QUEUED runs while their node runs refstore.fleet.jobs-per-node of that fire's jobs;
-- the queue is read by outcome.
CREATE INDEX refstore_schedule_run_outcome ON refstore_schedule_run (outcome, id);
