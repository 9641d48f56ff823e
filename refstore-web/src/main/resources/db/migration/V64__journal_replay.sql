-- A journal file read again from its first byte (one restored from a backup, or the new file after a compaction)
-- may hold entries the database has already: replay_to is the highest entry id the source held when that reading
-- began, and the ingester stores no entry of the file that one up to it holds (docs/journal.md, "Ingestion").
-- NULL when no such reading is under way.
ALTER TABLE refstore_journal_source ADD COLUMN replay_to BIGINT;
