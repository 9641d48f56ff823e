-- V56 raised the cache of the journal's identity to 1,000 values, but each time H2 reserves the next values it commits
-- its own transaction, and with WRITE_DELAY=0 that commit writes every page the ingestion's open transaction had
-- changed: 50 extra writes of the changed index pages per run of 20,000 entries, a quarter of the ingestion's time
-- (JFR, 1,000,000 entries). 100,000 values per reservation: one every five runs. A crash skips at most that many
-- ids; they stay increasing, which is all the journal asks of them (its order).
ALTER TABLE refstore_journal_entry ALTER COLUMN id SET CACHE 100000;
