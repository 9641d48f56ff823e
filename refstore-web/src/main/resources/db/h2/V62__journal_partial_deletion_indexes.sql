-- PostgreSQL replaces the two indexes of deletions by partial ones here (db/postgresql/V62). H2 has no partial
-- indexes and keeps V55's. Nothing to change; the version is here so that both databases end at the same one.
SELECT 1;
