package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.fleet.FleetMembership;

/**
 * The dashboard in Chromium: a search narrows the list as one types (htmx swaps the
 * results and the address bar follows), and an operator maintains every due repository of
 * the search through "Maintain all due", its confirmation and its flash message, after
 * which git finds the loose refs packed. Screenshots {@code dashboard-search} and
 * {@code dashboard-maintain-all-due}.
 */
class DashboardBrowserIT extends BrowserTestSupport {

	private static final String GROUP = "browse-fleet";

	@Autowired
	FleetMembership membership;

	private static List<TempRepo> due;

	@BeforeEach
	void repositories() {
		if (due != null) {
			return;
		}
		due = List.of(loose(GROUP + "/alpha.git", 20), loose(GROUP + "/bravo.git", 20),
				loose(GROUP + "/charlie.git", 20));
		loose(GROUP + "/delta.git", 2).git("pack-refs", "--all");
		loose("browse-other.git", 20);
		this.membership.refreshInventory();
	}

	private static TempRepo loose(String name, int refs) {
		TempRepo repo = TempRepo.init(GitCli.system(), ROOT.resolve(name), "--bare");
		String commit = repo.commit("one", null);
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < refs; i++) {
			updates.append("create refs/heads/topic-").append(i).append(' ').append(commit).append('\n');
		}
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		return repo;
	}

	@Test
	void aSearchNarrowsTheListAsOneTypes() {
		logIn("viewer");
		WebElement search = chrome.findElement(By.id("q"));
		for (char c : (GROUP + "/").toCharArray()) {
			search.sendKeys(String.valueOf(c));
		}
		waitForText(By.id("page-position"), "1–4 of 4");
		// read in one script: htmx may swap the rows again for the last keystrokes
		waitUpTo(Duration.ofSeconds(10)).until((driver) -> List
			.of(GROUP + "/alpha.git", GROUP + "/bravo.git", GROUP + "/charlie.git", GROUP + "/delta.git")
			.equals(chrome.executeScript("return Array.from(document.querySelectorAll('#repos tbody tr[data-repo]'))"
					+ ".map((row) => row.dataset.repo).sort();")));
		// the rows match after the first letters already; the address follows the last
		// request
		waitUpTo(Duration.ofSeconds(10)).until((driver) -> driver.getCurrentUrl().contains("q=" + GROUP));
		assertThat(chrome.getCurrentUrl()).contains("q=" + GROUP);
		assertThat(chrome.findElements(By.id("maintain-due-button"))).as("offered to a viewer").isEmpty();
		screenshot("dashboard-search");

		search.sendKeys("zz-nothing");
		waitFor(By.id("no-match"));
		assertThat(chrome.findElement(By.id("no-match")).getText()).contains("No repository matches these filters.");
	}

	@Test
	void anOperatorMaintainsEveryDueRepositoryOfTheSearch() {
		logIn("operator");
		chrome.get(url("/?q=" + GROUP));
		WebElement button = waitFor(By.id("maintain-due-button"));
		assertThat(button.getText()).isEqualTo("Maintain all due (3)…");
		button.click();
		waitForText(By.id("maintain-due-count"), "3 repositories are");
		assertThat(chrome.findElement(By.id("maintain-due-names")).getText()).contains(GROUP + "/alpha.git",
				GROUP + "/bravo.git", GROUP + "/charlie.git");
		chrome.findElement(By.id("maintain-due-confirm")).click();
		waitForText(By.cssSelector(".flash"), "Maintenance launched for 3 repositories as campaign");
		assertThat(chrome.getCurrentUrl()).endsWith("/?q=" + GROUP);
		assertThat(chrome.findElement(By.cssSelector(".flash")).getText()).contains("none skipped");
		assertThat(chrome.findElement(By.id("campaign-link")).getText()).startsWith("Follow campaign");
		screenshot("dashboard-maintain-all-due");
		Awaitility.await("the loose refs packed")
			.atMost(Duration.ofSeconds(60))
			.until(() -> due.stream().noneMatch((repo) -> Files.exists(repo.dir().resolve("refs/heads/topic-0"))));
		for (TempRepo repo : due) {
			assertThat(repo.git("for-each-ref", "--format=%(refname)", "refs/heads/").lines()).hasSize(20);
		}
	}

}
