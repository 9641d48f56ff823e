package io.refstore.web.journal;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The ref journal's settings, {@code refstore.journal.*}.
 *
 * @param ingestInterval how long the sweep that copies every repository's journal file
 * into the database waits between rounds (default 30s; 0 turns the sweep off: queries
 * still ingest their repository first)
 * @param ingestRun the most entries one transaction of the ingestion stores (default
 * 20000): a run holds its entries in memory when it replays a journal file restored from
 * a backup, and one killed half way is read again whole
 * @param retention what the database keeps, and how the files are kept small
 */
@ConfigurationProperties("refstore.journal")
public record JournalProperties(@DefaultValue("30s") Duration ingestInterval, @DefaultValue("20000") int ingestRun,
		@DefaultValue Retention retention) {

	public JournalProperties {
		if (ingestInterval.isNegative()) {
			throw new IllegalArgumentException(
					"refstore.journal.ingest-interval must not be negative: " + ingestInterval);
		}
		if (ingestRun < 1) {
			throw new IllegalArgumentException("refstore.journal.ingest-run must be at least 1: " + ingestRun);
		}
	}

	/**
	 * {@code refstore.journal.retention.*}: the defaults a repository's own retention
	 * overrides, and the sweep that applies them.
	 *
	 * @param maxAge how long entries are kept (default: for ever); each ref keeps its
	 * newest older change, so its value at any moment since is still known
	 * @param maxEntries how many entries each repository keeps (default: all), with the
	 * same exception
	 * @param interval how long the sweep waits between rounds (default 1h; 0 turns it
	 * off)
	 * @param compactAbove a journal file this large, once ingested whole, is set aside
	 * for a new one (default 64MB)
	 */
	public record Retention(Duration maxAge, Long maxEntries, @DefaultValue("1h") Duration interval,
			@DefaultValue("64MB") DataSize compactAbove) {

		public Retention {
			if (maxAge != null && (maxAge.isNegative() || maxAge.isZero())) {
				throw new IllegalArgumentException("refstore.journal.retention.max-age must be positive: " + maxAge);
			}
			if (maxEntries != null && maxEntries < 1) {
				throw new IllegalArgumentException(
						"refstore.journal.retention.max-entries must be at least 1: " + maxEntries);
			}
			if (interval.isNegative()) {
				throw new IllegalArgumentException(
						"refstore.journal.retention.interval must not be negative: " + interval);
			}
		}

	}

}
