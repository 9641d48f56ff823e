package io.refstore.web.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MvcResult;

import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;

/**
 * The inventory history in the console, on repositories made by git: the repository
 * page's button runs the inventory (OPERATOR, not VIEWER); run twice minutes apart with
 * 2,000 refs added in between, the page and the dashboard tell that change ("+2,000 in
 * ..."), not a rate per week extrapolated from it (which would be 14,000, above the
 * default alert of 10,000: no flag), beside a repository without inventory; the
 * repository page's fragment draws refs per namespace over the two runs.
 */
class InventoryControllerTest extends ConsoleTestSupport {

	@org.springframework.beans.factory.annotation.Autowired
	io.refstore.web.fleet.FleetMembership membership;

	static String growing;

	static String quiet;

	static TempRepo repo;

	static String commit;

	@BeforeAll
	static void repositories() {
		growing = uniqueName("console-inventory-growing");
		repo = bareRepo(growing);
		commit = repo.commit("one", null);
		addBranches("first", 20);
		repo.git("update-ref", "refs/tags/v1", commit);
		quiet = uniqueName("console-inventory-quiet");
		TempRepo other = bareRepo(quiet);
		other.git("update-ref", "refs/heads/main", other.commit("one", null));
	}

	private static void addBranches(String stem, int count) {
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < count; i++) {
			updates.append("create refs/heads/" + stem + "/" + i + " " + commit + "\n");
		}
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
	}

	private void runInventoryFromThePage() throws Exception {
		String location = this.mvc
			.perform(post("/jobs/new/inventory").param("repo", growing).with(operator()).with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andReturn()
			.getResponse()
			.getRedirectedUrl();
		long id = Long.parseLong(location.substring(location.lastIndexOf('/') + 1));
		String job = await("inventory " + id + " to end").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.mvc.perform(get("/api/jobs/" + id).with(as("viewer")))
				.andReturn()
				.getResponse()
				.getContentAsString(), (now) -> !JsonPath.<Boolean>read(now, "$.running"));
		assertThat(JsonPath.<String>read(job, "$.status")).isEqualTo("COMPLETED");
	}

	@Test
	void twoRunsOfAGrowingRepositoryAreChartedAndFlagged() throws Exception {
		this.mvc.perform(post("/jobs/new/inventory").param("repo", growing).with(viewer()).with(csrf()))
			.andExpect(status().isForbidden());
		this.mvc.perform(get("/repo/inventory").param("name", growing).with(operator()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"no-inventory\"")))
			.andExpect(content().string(containsString("id=\"run-inventory\"")));
		runInventoryFromThePage();
		addBranches("second", 2000);
		runInventoryFromThePage();

		MvcResult page = this.mvc.perform(get("/repo/inventory").param("name", growing).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(view().name(InventoryController.VIEWS_INVENTORY))
			.andExpect(content().string(containsString("Refs per namespace over time")))
			.andExpect(content().string(containsString("id=\"inventory-growth-chart\"")))
			.andExpect(content().string(not(containsString("id=\"growing-fast\""))))
			.andExpect(content().string(containsString("Refs grew by")))
			.andExpect(content().string(containsString("+2,000")))
			.andExpect(content().string(not(containsString("14,000"))))
			.andExpect(content().string(not(containsString("id=\"run-inventory\""))))
			.andReturn();
		Map<String, Object> model = page.getModelAndView().getModel();
		String namespaces = (String) model.get("namespaceChart");
		assertThat(JsonPath.<List<?>>read(namespaces, "$.x")).hasSize(2);
		assertThat(JsonPath.<List<Integer>>read(namespaces, "$.series[?(@.label == 'refs/heads')].values[*]"))
			.containsExactly(20, 2020);
		assertThat(JsonPath.<List<Integer>>read(namespaces, "$.series[?(@.label == 'refs/tags')].values[*]"))
			.containsExactly(1, 1);
		assertThat(JsonPath.<List<Integer>>read((String) model.get("growthChart"), "$.series[0].values"))
			.containsExactly(null, null);
		String html = page.getResponse().getContentAsString();
		assertThat(html).contains("data-series=\"{&quot;x&quot;:[");

		this.mvc.perform(get("/repo").param("name", growing).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("hx-get=\"/repo/inventory?name=" + growing + "\"")));

		// the dashboard lists what the node's inventory recorded
		this.membership.refreshInventory();
		assertThat(dashboardRow(growing)).contains("+2,000 in").doesNotContain("growing fast");
		assertThat(dashboardRow(quiet)).contains("unknown").doesNotContain("growing fast");
	}

	/** The dashboard's row of repository {@code name}, searched for by its name. */
	private String dashboardRow(String name) throws Exception {
		return row(this.mvc.perform(get("/").param("q", name).with(viewer()))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(), name);
	}

	/** The dashboard's table row of repository {@code name}. */
	private static String row(String html, String name) {
		String row = html.substring(html.indexOf(">" + name + "</a>"));
		return row.substring(0, row.indexOf("</tr>"));
	}

}
