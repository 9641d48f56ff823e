-- PostgreSQL only: the two indexes that find deletions (a repository's deleted refs view, the fleet's deletions under
-- a prefix) hold only the deletions, as partial indexes, instead of every entry with its deletion flag. Each entry
-- that is no deletion (most of them) then updates four secondary indexes instead of six. The queries name
-- "deletion = TRUE", which the planner matches to "WHERE deletion". H2 has no partial indexes and keeps V55's (db/h2/V62).
CREATE INDEX refstore_journal_entry_deleted ON refstore_journal_entry (source_id, id) WHERE deletion;
CREATE INDEX refstore_journal_entry_fleet_deleted ON refstore_journal_entry (ref_key, id) WHERE deletion;
DROP INDEX refstore_journal_entry_deletion;
DROP INDEX refstore_journal_entry_fleet_ref;
