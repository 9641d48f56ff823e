-- PostgreSQL replaces the two indexes of object ids by hash indexes here (db/postgresql/V63). H2 keeps V55's B-trees.
-- Nothing to change; the version is here so that both databases end at the same one.
SELECT 1;
