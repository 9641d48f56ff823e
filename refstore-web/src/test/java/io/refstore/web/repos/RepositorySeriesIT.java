package io.refstore.web.repos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
		// larger than any repository other tests left under the same root
		int bigRefs = 5_000 + (int) refsByRepository().values().stream().mapToLong(Long::longValue).max().orElse(0);
		String big = uniqueName("metrics-big");
		TempRepo large = bareRepo(big);
		String commit = large.commit("one", null);
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < bigRefs; i++) {
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
		long all = refsByRepository().values().stream().mapToLong(Long::longValue).sum();
		double exported = scrape.lines()
			.filter((line) -> line.startsWith("refstore_refs{"))
			.mapToDouble((line) -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
			.sum();
		assertThat(exported).isEqualTo(all);
		assertThat(prometheusValue(scrape, "refstore_refs", "repository=\"" + big + "\"", "namespace=\"refs/heads\""))
			.isEqualTo(bigRefs);
	}

	private Map<String, Long> refsByRepository() throws Exception {
		Map<String, Long> refs = new HashMap<>();
		for (String name : this.registry.names()) {
			try (OpenRepo repo = this.registry.open(name)) {
				refs.put(name,
						RefCounts.of(repo.store()).namespaces().values().stream().mapToLong(Long::longValue).sum());
			}
			catch (IOException | RuntimeException ex) {
				// as the metrics do: a repository other tests left unreadable has no
				// series
			}
		}
		return refs;
	}

}
