-- A fire looks up the runs already recorded for its fire time (a fire Quartz recovers from a node that died during
-- it queues only what that node did not): by schedule and fire time, not by scanning the schedule's history.
CREATE INDEX refstore_schedule_run_fire ON refstore_schedule_run (schedule_name, scheduled_at);
