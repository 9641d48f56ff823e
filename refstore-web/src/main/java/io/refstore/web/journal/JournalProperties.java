package io.refstore.web.journal;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The ref journal's settings, {@code refstore.journal.*}.
 *
 * @param ingestInterval how long the sweep that copies every repository's journal file
 * into the database waits between rounds (default 30s; 0 turns the sweep off: queries
 * still ingest their repository first)
 */
@ConfigurationProperties("refstore.journal")
public record JournalProperties(@DefaultValue("30s") Duration ingestInterval) {

	public JournalProperties {
		if (ingestInterval.isNegative()) {
			throw new IllegalArgumentException(
					"refstore.journal.ingest-interval must not be negative: " + ingestInterval);
		}
	}

}
