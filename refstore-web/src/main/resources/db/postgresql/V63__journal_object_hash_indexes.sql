-- PostgreSQL only: "which refs ever pointed at this object" looks object ids up by equality alone, so their two
-- indexes become hash indexes. Object ids are random: each entry put a key into a random page of two B-trees of
-- 40-character keys, the costliest part of an ingestion (docs/journal.md, "Figures"); a hash index keeps a 4-byte
-- hash per entry and leaves out the NULLs (no object). H2 keeps V55's B-trees (db/h2/V63).
CREATE INDEX refstore_journal_entry_old_object_hash ON refstore_journal_entry USING hash (old_object);
CREATE INDEX refstore_journal_entry_new_object_hash ON refstore_journal_entry USING hash (new_object);
DROP INDEX refstore_journal_entry_old_object;
DROP INDEX refstore_journal_entry_new_object;
