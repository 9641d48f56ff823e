-- The ref journal keeps each repository under its storage and path, <storage>/<path> (JournalNames); before, a
-- source row was named as the request that made it named the repository, so one reached by both its names (the
-- ingestion sweep's team/a.git, the console's s-beta/team/a.git in a fleet of several storages) had two rows, each
-- with every entry of the one file. Here a row named by a path alone takes the storage the fleet's inventory knows
-- for that path (when exactly one storage holds it; else, or when no inventory knows it, it stays as it is), and of
-- the rows that then name one repository the one holding the most entries stays, with its entries, offset and
-- retention (a retention set on another of them is kept where it has none); the others go, their entries too.
-- Written for H2 and PostgreSQL alike.
CREATE TABLE refstore_journal_source_name (
	id BIGINT NOT NULL PRIMARY KEY,
	qualified VARCHAR(1024) NOT NULL,
	held BIGINT NOT NULL,
	keep BIGINT
);

INSERT INTO refstore_journal_source_name (id, qualified, held)
SELECT s.id,
	CASE
		-- already <storage>/<path>: a name that starts with a storage's is looked up in that storage only
		WHEN EXISTS (SELECT 1 FROM refstore_storage st WHERE LEFT(s.repository, LENGTH(st.name) + 1) = st.name || '/')
			THEN s.repository
		ELSE COALESCE((SELECT MIN(r.storage || '/' || r.path) FROM refstore_fleet_repository r
				WHERE r.path = s.repository HAVING COUNT(*) = 1), s.repository)
	END,
	(SELECT COUNT(*) FROM refstore_journal_entry e WHERE e.source_id = s.id)
FROM refstore_journal_source s;

UPDATE refstore_journal_source_name SET keep = (SELECT MIN(m.id) FROM refstore_journal_source_name m
	WHERE m.qualified = refstore_journal_source_name.qualified
		AND m.held = (SELECT MAX(o.held) FROM refstore_journal_source_name o
			WHERE o.qualified = refstore_journal_source_name.qualified));

UPDATE refstore_journal_source SET
	max_age_days = COALESCE(max_age_days, (SELECT MIN(o.max_age_days) FROM refstore_journal_source o
		JOIN refstore_journal_source_name n ON n.id = o.id WHERE n.keep = refstore_journal_source.id)),
	max_entries = COALESCE(max_entries, (SELECT MIN(o.max_entries) FROM refstore_journal_source o
		JOIN refstore_journal_source_name n ON n.id = o.id WHERE n.keep = refstore_journal_source.id))
WHERE id IN (SELECT keep FROM refstore_journal_source_name WHERE keep <> id);

DELETE FROM refstore_journal_entry WHERE source_id IN (SELECT id FROM refstore_journal_source_name WHERE keep <> id);

DELETE FROM refstore_journal_source WHERE id IN (SELECT id FROM refstore_journal_source_name WHERE keep <> id);

UPDATE refstore_journal_source SET repository = (SELECT n.qualified FROM refstore_journal_source_name n
	WHERE n.id = refstore_journal_source.id)
WHERE id IN (SELECT id FROM refstore_journal_source_name WHERE qualified <> (SELECT s.repository
	FROM refstore_journal_source s WHERE s.id = refstore_journal_source_name.id));

DROP TABLE refstore_journal_source_name;
