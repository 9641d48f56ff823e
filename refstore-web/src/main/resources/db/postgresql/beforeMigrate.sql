-- PostgreSQL only (db/{vendor} on PostgreSQL): the shared migrations are written for H2 and
-- PostgreSQL alike, and the one type name PostgreSQL lacks, CLOB, becomes a domain over TEXT before they run.
-- Nodes starting together on a new database create it at once: the one that waited on the other's transaction
-- fails on the catalog's unique index (unique_violation), not with duplicate_object.
DO $$
BEGIN
	CREATE DOMAIN clob AS TEXT;
EXCEPTION
	WHEN duplicate_object OR unique_violation THEN NULL;
END
$$;
