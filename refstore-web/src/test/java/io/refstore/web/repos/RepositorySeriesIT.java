package io.refstore.web.repos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;
import io.refstore.web.system.RepositorySeries;

/**
 * With {@code refstore.metrics.top-repositories=3}, the per-repository gauges of a root
 * holding many repositories have four series: the three with the most refs and
 * {@code (other)}, which adds up the rest, so that the series together still count every
 * ref once.
 */
@TestPropertySource(properties = "refstore.test.top-repositories=3")
class RepositorySeriesIT extends ApiTestSupport {

	@Autowired
	RefStoreMetrics metrics;

	@Autowired
	RepoRegistry registry;

	@Test
	void onlyTheLargestRepositoriesHaveSeriesOfTheirOwn() throws Exception {
		String big = uniqueName("metrics-big");
		TempRepo large = bareRepo(big);
		String commit = large.commit("one", null);
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < 5_000; i++) {
			updates.append("create refs/heads/b/").append(i).append(' ').append(commit).append('\n');
		}
		large.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		large.git("pack-refs", "--all");
		List<String> small = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			small.add(uniqueName("metrics-small"));
			TempRepo repo = bareRepo(small.get(i));
			repo.git("update-ref", "refs/heads/main", repo.commit("one", null));
		}
		this.metrics.refresh();
		String scrape = prometheusScrape();
		List<String> bytes = scrape.lines().filter((line) -> line.startsWith("refstore_store_bytes{")).toList();
		assertThat(this.registry.names().size()).isGreaterThan(4);
		assertThat(bytes).hasSize(4)
			.anyMatch((line) -> line.contains("repository=\"" + big + "\""))
			.anyMatch((line) -> line.contains("repository=\"" + RepositorySeries.OTHER + "\""));
		// of the five with a ref each, two at most (ties go by name) beside the largest
		assertThat(small.stream().filter((repository) -> scrape.contains("repository=\"" + repository + "\"")))
			.hasSizeLessThanOrEqualTo(2);
		// nothing lost, nothing counted twice: the series add up to every repository's
		// refs
		long all = 0;
		for (String name : this.registry.names()) {
			try (OpenRepo repo = this.registry.open(name)) {
				all += RefCounts.of(repo.store()).namespaces().values().stream().mapToLong(Long::longValue).sum();
			}
		}
		double exported = scrape.lines()
			.filter((line) -> line.startsWith("refstore_refs{"))
			.mapToDouble((line) -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
			.sum();
		assertThat(exported).isEqualTo(all);
		assertThat(prometheusValue(scrape, "refstore_refs", "repository=\"" + big + "\"", "namespace=\"refs/heads\""))
			.isEqualTo(5_000);
	}

}
