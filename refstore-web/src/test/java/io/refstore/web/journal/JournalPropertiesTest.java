package io.refstore.web.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * {@code refstore.journal.*} bound as the application binds it: the defaults, and a
 * setting the ingestion cannot work with refused naming it.
 */
class JournalPropertiesTest {

	@Test
	void theDefaultsIngestEvery30SecondsInRunsOf20000() {
		JournalProperties settings = bind(Map.of());

		assertThat(settings.ingestInterval()).isEqualTo(Duration.ofSeconds(30));
		assertThat(settings.ingestRun()).isEqualTo(20_000);
	}

	@Test
	void aRunIsSetInEntries() {
		assertThat(bind(Map.of("refstore.journal.ingest-run", "2000")).ingestRun()).isEqualTo(2_000);
	}

	@Test
	void aRunOfNoEntryIsRefusedNamingTheSetting() {
		assertThatThrownBy(() -> bind(Map.of("refstore.journal.ingest-run", "0"))).isInstanceOf(BindException.class)
			.rootCause()
			.hasMessage("refstore.journal.ingest-run must be at least 1: 0");
	}

	@Test
	void aNegativeIntervalIsRefusedNamingTheSetting() {
		assertThatThrownBy(() -> bind(Map.of("refstore.journal.ingest-interval", "-1s")))
			.isInstanceOf(BindException.class)
			.rootCause()
			.hasMessage("refstore.journal.ingest-interval must not be negative: PT-1S");
	}

	private static JournalProperties bind(Map<String, String> settings) {
		return new Binder(new MapConfigurationPropertySource(settings)).bindOrCreate("refstore.journal",
				JournalProperties.class);
	}

}
