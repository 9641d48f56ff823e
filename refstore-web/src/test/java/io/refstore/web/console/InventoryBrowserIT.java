package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.OffsetDateTime;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * In a real headless Chromium, as an operator: the repository page's "Run the inventory
 * now" runs the inventory twice around 2,000 new branches; minutes apart, the page and
 * the dashboard tell the change, not a rate per week; with the first run a day earlier,
 * the page draws both inventory charts (refs per namespace, growth per week) and flags
 * the growth, and the dashboard flags the repository too. A viewer sees the history
 * without the button.
 */
class InventoryBrowserIT extends BrowserTestSupport {

	@Autowired
	JdbcClient jdbc;

	static final String REPO = "inventory.git";

	@Test
	void runsTheInventoryFromTheRepositoryPageAndChartsItsGrowth() {
		TempRepo repo = TempRepo.init(GitCli.system(), ROOT.resolve(REPO), "--bare");
		String commit = repo.commit("one", null);
		branches(repo, commit, "first", 10);
		logIn("operator");
		runInventory();
		branches(repo, commit, "second", 2000);
		runInventory();

		// minutes apart: the change, not a rate per week extrapolated from it
		chrome.get(url("/repo?name=" + REPO));
		waitForText(By.id("inventory-growth"), "Refs grew by +2,000 in");
		assertThat(chrome.findElement(By.id("inventory-growth")).getText())
			.contains("a rate per week needs two inventories a day or more apart")
			.doesNotContain("per week (");
		assertThat(chrome.findElements(By.id("growing-fast"))).isEmpty();
		chrome.get(url("/"));
		assertThat(waitFor(By.cssSelector("tr[data-repo='" + REPO + "'] td.growth")).getText()).startsWith("+2,000 in")
			.doesNotContain("growing fast");

		// the first a day earlier: 2,000 a day is 14,000 a week, above the alert rate
		OffsetDateTime newest = this.jdbc.sql("SELECT MAX(recorded_at) FROM refstore_inventory WHERE repository = ?")
			.param(REPO)
			.query(OffsetDateTime.class)
			.single();
		this.jdbc.sql("UPDATE refstore_inventory SET recorded_at = ? WHERE repository = ? AND recorded_at < ?")
			.params(newest.minusDays(1), REPO, newest)
			.update();
		chrome.get(url("/repo?name=" + REPO));
		waitFor(By.cssSelector("#inventory-namespace-chart[data-drawn='true'] canvas"));
		waitFor(By.cssSelector("#inventory-growth-chart[data-drawn='true'] canvas"));
		assertThat(chrome.findElement(By.id("growing-fast")).getText()).contains("growing fast");
		assertThat(chrome.findElement(By.id("inventory-growth")).getText()).contains("14,000");
		// the legend tells the newest point, on the console's 24-hour clock, not uPlot's
		// "--"
		assertThat(chrome.findElement(By.cssSelector("#inventory-growth-chart .u-legend")).getText())
			.matches("(?s).*Time\\s*\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} .*14,000.*")
			.doesNotContain("--")
			.doesNotContainIgnoringCase("pm")
			.doesNotContainIgnoringCase("am ");
		chrome.executeScript("document.getElementById('inventory').scrollIntoView();");
		screenshot("repo-inventory");
		chrome.get(url("/"));
		assertThat(waitFor(By.cssSelector("tr[data-repo='" + REPO + "'] td.growth")).getText()).contains("14,000")
			.contains("growing fast");

		chrome.manage().deleteAllCookies();
		logIn("viewer");
		chrome.get(url("/repo?name=" + REPO));
		waitFor(By.cssSelector("#inventory-namespace-chart[data-drawn='true'] canvas"));
		assertThat(chrome.findElements(By.id("run-inventory"))).isEmpty();
	}

	private void runInventory() {
		chrome.get(url("/repo?name=" + REPO));
		waitFor(By.cssSelector("#run-inventory button")).click();
		waitFor(By.id("steps"));
		awaitJobStatus("Completed", Duration.ofSeconds(60));
	}

	private static void branches(TempRepo repo, String commit, String stem, int count) {
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < count; i++) {
			updates.append("create refs/heads/" + stem + "/" + i + " " + commit + "\n");
		}
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
	}

}
