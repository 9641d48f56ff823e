-- PostgreSQL only (db/{vendor} on PostgreSQL): the shared migrations are written for H2 and
-- PostgreSQL alike, and the one type name PostgreSQL lacks, CLOB, becomes a domain over TEXT before they run.
DO $$
BEGIN
	CREATE DOMAIN clob AS TEXT;
EXCEPTION
	WHEN duplicate_object THEN NULL;
END
$$;
