-- H2 raises its identity's cache for the journal's entries here (db/h2/V56). PostgreSQL keeps its default of 1: a
-- cache there is per session and would number concurrent sessions' rows out of their order, and the journal's ids
-- are its order. Nothing to change; the version is here so that both databases end at the same one.
SELECT 1;
