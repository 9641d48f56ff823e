-- The ref journal's object ids in columns of their own (NULL where a value is none or a symbolic ref), indexed for
-- the fleet's "which refs ever pointed at this object", and ref names indexed across repositories for "who deleted
-- refs/heads/release-*".
ALTER TABLE refstore_journal_entry ADD COLUMN old_object VARCHAR(64);
ALTER TABLE refstore_journal_entry ADD COLUMN new_object VARCHAR(64);
UPDATE refstore_journal_entry SET old_object = old_value
	WHERE CHAR_LENGTH(old_value) IN (40, 64) AND old_value NOT LIKE 'ref:%' AND old_value <> REPEAT('0', CHAR_LENGTH(old_value));
UPDATE refstore_journal_entry SET new_object = new_value
	WHERE CHAR_LENGTH(new_value) IN (40, 64) AND new_value NOT LIKE 'ref:%' AND deletion = FALSE;
CREATE INDEX refstore_journal_entry_old_object ON refstore_journal_entry (old_object);
CREATE INDEX refstore_journal_entry_new_object ON refstore_journal_entry (new_object);
CREATE INDEX refstore_journal_entry_fleet_ref ON refstore_journal_entry (deletion, ref_key, id);
