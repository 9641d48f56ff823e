-- The campaigns' and the schedule queue's passes take their leases in REFSTORE_JOB_LEASE, beside the jobs' (one
-- distributed lock for the application): Spring Integration's lock table goes. A node of an older version still
-- running during an upgrade can no longer take a pass's lock there and skips its passes until it is upgraded.
DROP TABLE INT_LOCK;
