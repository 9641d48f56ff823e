-- H2 reserves its journal identity's values 100,000 at a time here (db/h2/V61). PostgreSQL keeps its default of 1, as
-- in V56: a cache there is per session and would number concurrent sessions' rows out of their order. Nothing to
-- change; the version is here so that both databases end at the same one.
SELECT 1;
