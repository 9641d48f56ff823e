package io.refstore.web.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * A fleet of 100,000 repositories exports 21 series per gauge: the 20 largest by name,
 * the sum of the others as {@code (other)}, with nothing lost or counted twice.
 */
class RepositorySeriesTest {

	@Test
	void theLargestKeepTheirSeriesAndTheOthersAreAddedUp() {
		Map<String, Long> refs = new HashMap<>();
		for (int i = 0; i < 100_000; i++) {
			refs.put("group/repo-" + i + ".git", (long) i);
		}
		RepositorySeries series = new RepositorySeries(refs, 20);
		RepositorySeries.Rows rows = series.rows();
		refs.forEach((name, count) -> {
			rows.add(name, Tags.of("namespace", "refs/heads"), count);
			rows.add(name, Tags.of("namespace", "refs/tags"), 1);
		});
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		MultiGauge.builder("refstore.refs").register(registry).register(rows.list());
		assertThat(registry.find("refstore.refs").gauges()).hasSize(2 * 21);
		assertThat(registry.find("refstore.refs").tag("namespace", "refs/heads").gauges())
			.extracting((gauge) -> gauge.getId().getTag("repository"))
			.containsAll(List.of("group/repo-99999.git", "group/repo-99980.git", RepositorySeries.OTHER))
			.doesNotContain("group/repo-99979.git", "group/repo-0.git");
		long top = 0;
		for (int i = 99_980; i < 100_000; i++) {
			top += i;
		}
		long all = 99_999L * 100_000 / 2;
		assertThat(registry.get("refstore.refs")
			.tags("repository", RepositorySeries.OTHER, "namespace", "refs/heads")
			.gauge()
			.value()).isEqualTo(all - top);
		assertThat(registry.get("refstore.refs")
			.tags("repository", RepositorySeries.OTHER, "namespace", "refs/tags")
			.gauge()
			.value()).isEqualTo(100_000 - 20);
		assertThat(registry.get("refstore.refs")
			.tags("repository", "group/repo-99999.git", "namespace", "refs/heads")
			.gauge()
			.value()).isEqualTo(99_999);
	}

	@Test
	void aFewRepositoriesHaveNoOtherSeriesAndTiesGoByName() {
		RepositorySeries two = new RepositorySeries(Map.of("b", 5L, "a", 5L, "c", 9L), 2);
		assertThat(two.label("c")).isEqualTo("c");
		assertThat(two.label("a")).isEqualTo("a");
		assertThat(two.label("b")).isEqualTo(RepositorySeries.OTHER);
		assertThat(new RepositorySeries(Map.of("a", 1L), 20).label("a")).isEqualTo("a");
		assertThat(new RepositorySeries(Map.of("a", 1L), 0).label("a")).isEqualTo(RepositorySeries.OTHER);
		RepositorySeries.Rows rows = new RepositorySeries(Map.of("a", 1L), 20).rows();
		rows.add("a", Tags.empty(), 1);
		assertThat(rows.list()).hasSize(1);
	}

}
