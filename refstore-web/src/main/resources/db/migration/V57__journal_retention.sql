-- The ref journal's retention per repository (docs/journal.md): how long and how many entries the database keeps
-- (NULL: the application's default, refstore.journal.retention.*), and the moment before which a retention sweep
-- pruned entries (a point-in-time restore to an earlier moment is refused).
ALTER TABLE refstore_journal_source ADD COLUMN max_age_days INT;
ALTER TABLE refstore_journal_source ADD COLUMN max_entries BIGINT;
ALTER TABLE refstore_journal_source ADD COLUMN pruned_before TIMESTAMP WITH TIME ZONE;
