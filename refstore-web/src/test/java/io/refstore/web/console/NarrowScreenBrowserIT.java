package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.fleet.FleetMembership;

/**
 * The dashboard and the ref browser at 400 px and at 1,400 px, in a real Chromium: at 400
 * px the dashboard is a card per repository with its size and maintenance on screen, and
 * the main content never scrolls sideways; a ref name breaks only between its path's
 * components, never inside one (each component is one text node, which must lie on one
 * line); at 1,400 px a page of unpeeled refs has no empty Peeled column.
 */
class NarrowScreenBrowserIT extends BrowserTestSupport {

	@Autowired
	FleetMembership membership;

	private static final String REPO = "narrow-screens.git";

	/** The text nodes of ref names that span more than one line: broken inside. */
	private static final String BROKEN_COMPONENTS = """
			const broken = [];
			for (const name of document.querySelectorAll('#refs .ref-name')) {
				const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
				for (let node = walker.nextNode(); node; node = walker.nextNode()) {
					const range = document.createRange();
					range.selectNodeContents(node);
					const lines = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
					if (lines.size > 1) {
						broken.push(node.textContent);
					}
				}
			}
			return broken;
			""";

	private static final String MAIN_FITS = "var m = document.querySelector('main');"
			+ " return m.scrollWidth <= m.clientWidth;";

	@Test
	void theDashboardAndTheRefBrowserFitNarrowAndWideScreens() {
		TempRepo repo = TempRepo.init(GitCli.system(), ROOT.resolve(REPO), "--bare");
		String commit = repo.commit("one", null);
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < 30; i++) {
			updates.append("create refs/heads/team-")
				.append(i % 3)
				.append("/feature/a-rather-long-topic-name-")
				.append(i)
				.append(' ')
				.append(commit)
				.append('\n');
		}
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		// the dashboard lists what the node's inventory recorded (at start, then every
		// minute)
		this.membership.refreshInventory();
		logIn("viewer");
		try {
			chrome.manage().window().setSize(new Dimension(400, 900));
			chrome.get(url("/"));
			WebElement card = waitFor(By.cssSelector("tr[data-repo='" + REPO + "']"));
			screenshot("dashboard-400px");
			assertThat((Boolean) script(MAIN_FITS)).as("the dashboard fits 400 px").isTrue();
			long width = (Long) script("return document.documentElement.clientWidth;");
			for (String label : List.of("Size", "Maintenance")) {
				WebElement cell = card.findElement(By.cssSelector("td[data-label='" + label + "']"));
				assertThat(cell.isDisplayed()).isTrue();
				assertThat(((Number) script("return arguments[0].getBoundingClientRect().right;", cell)).doubleValue())
					.as(label + " on screen")
					.isLessThanOrEqualTo(width);
			}

			chrome.get(url("/repo?name=" + REPO));
			waitFor(By.cssSelector("#refs .ref-name"));
			screenshot("refs-400px");
			assertThat((Boolean) script(MAIN_FITS)).as("the ref browser fits 400 px").isTrue();
			assertThat(script(BROKEN_COMPONENTS)).as("components broken inside").asList().isEmpty();
			assertThat(chrome.findElement(By.cssSelector("#refs tr:not(.root-ref) .ref-name")).getText())
				.startsWith("refs/heads/team-");

			chrome.manage().window().setSize(new Dimension(1400, 900));
			chrome.get(url("/repo?name=" + REPO));
			waitFor(By.cssSelector("#refs .ref-name"));
			assertThat(script(BROKEN_COMPONENTS)).as("components broken inside").asList().isEmpty();
			assertThat(chrome.findElement(By.cssSelector("#refs thead")).getText()).doesNotContain("Peeled");
		}
		finally {
			chrome.manage().window().setSize(new Dimension(1280, 900));
		}
	}

	private static Object script(String script, Object... arguments) {
		return ((JavascriptExecutor) chrome).executeScript(script, arguments);
	}

}
