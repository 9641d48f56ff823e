package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.springframework.beans.factory.annotation.Autowired;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.fleet.FleetMembership;

/**
 * In a real headless Chromium, as a viewer: a repository of 100,000 refs appears on the
 * dashboard with its count, its page shows the namespace chart and the first page of refs
 * in git's order after HEAD and its target, "Next" continues exactly where the first
 * stopped and "Previous" comes back, the total the search covers, short ids whose full id
 * is on hover and on the clipboard, a glob and a prefix search narrow the list, and a ref
 * opens its own page. git itself judges the repository ({@code for-each-ref --count})
 * before the browser looks at it.
 */
class RefBrowserIT extends BrowserTestSupport {

	@Autowired
	FleetMembership membership;

	static final String REPO = "big.git";

	static List<String> names;

	static String commit;

	@BeforeAll
	static void hundredThousandRefs() throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), ROOT.resolve(REPO), "--bare");
		commit = repo.commit("one", null);
		names = new ArrayList<>(100_000);
		for (int i = 0; i < 40_000; i++) {
			names.add(String.format("refs/heads/feature/topic-%05d", i));
		}
		for (int i = 1; i <= 50_000; i++) {
			names.add("refs/pull/" + i + "/head");
		}
		for (int i = 0; i < 10_000; i++) {
			names.add(String.format("refs/tags/v%d.%d.%d", i / 1000, (i / 10) % 100, i % 10));
		}
		// ASCII names: String order is git's bytewise order
		Collections.sort(names);
		StringBuilder packed = new StringBuilder("# pack-refs with: peeled fully-peeled sorted \n");
		for (String name : names) {
			packed.append(commit).append(' ').append(name).append('\n');
		}
		try {
			Files.writeString(repo.gitDir().resolve("packed-refs"), packed, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		assertThat(repo.git("for-each-ref", "--count=1", "--format=%(refname)", "refs/tags/").trim())
			.isEqualTo("refs/tags/v0.0.0");
		assertThat(repo.git("rev-list", "--all", "--count").trim()).isEqualTo("1");
	}

	@Test
	void browsesSearchesAndPagesAHundredThousandRefs() {
		// the dashboard lists what the node's inventory recorded (at start, then every
		// minute): the application may have started before this class made its repository
		this.membership.refreshInventory();
		logIn("viewer");
		WebElement row = waitFor(By.cssSelector("tr[data-repo='" + REPO + "']"));
		assertThat(row.getText()).contains("100,000");
		navigate(row.findElement(By.className("repo-link")));

		waitFor(By.id("refs"));
		// the health comes in through htmx after the page of refs
		assertThat(waitFor(By.id("ref-count")).getText()).isEqualTo("100,000");
		waitFor(By.cssSelector("#namespace-chart[data-drawn='true'] canvas"));
		assertThat(shownNames()).isEqualTo(names.subList(0, 100));
		assertThat(chrome.findElements(By.id("repo-actions"))).isEmpty();
		// HEAD first, with its target; the total the search covers
		assertThat(chrome.findElement(By.cssSelector("#refs tr.root-ref[data-ref='HEAD']")).getText())
			.startsWith("HEAD → refs/heads/");
		assertThat(waitFor(By.cssSelector("#match-count strong")).getText()).isEqualTo("100,000");
		screenshot("refs-first-page");

		// short ids, the full id on hover and on the clipboard
		WebElement first = chrome.findElement(By.cssSelector("#refs tr[data-ref='" + names.get(0) + "']"));
		assertThat(first.findElement(By.cssSelector(".oid code")).getText()).isEqualTo(commit.substring(0, 12));
		assertThat(first.findElement(By.cssSelector(".oid code")).getDomAttribute("title")).isEqualTo(commit);
		chrome.executeCdpCommand("Browser.grantPermissions",
				java.util.Map.of("permissions", List.of("clipboardReadWrite", "clipboardSanitizedWrite")));
		first.findElement(By.cssSelector("button.copy")).click();
		waitForText(By.cssSelector("#refs tr[data-ref='" + names.get(0) + "'] button.copy"), "Copied");
		assertThat(chrome.executeAsyncScript("navigator.clipboard.readText().then(arguments[0]);")).isEqualTo(commit);

		navigate(chrome.findElement(By.id("next-page")));
		waitFor(By.id("first-page"));
		assertThat(shownNames()).isEqualTo(names.subList(100, 200));
		assertThat(chrome.findElements(By.cssSelector("#refs tr.root-ref"))).isEmpty();
		navigate(chrome.findElement(By.id("next-page")));
		assertThat(shownNames()).isEqualTo(names.subList(200, 300));
		navigate(chrome.findElement(By.id("previous-page")));
		assertThat(shownNames()).isEqualTo(names.subList(100, 200));
		navigate(chrome.findElement(By.id("previous-page")));
		assertThat(shownNames()).isEqualTo(names.subList(0, 100));
		assertThat(chrome.findElements(By.id("previous-page"))).isEmpty();

		chrome.findElement(By.id("glob")).sendKeys("refs/tags/v9.9*");
		new Select(chrome.findElement(By.id("limit"))).selectByVisibleText("50");
		navigate(chrome.findElement(By.id("search")));
		waitFor(By.id("refs"));
		List<String> tags = shownNames();
		assertThat(tags).hasSize(50).allSatisfy((name) -> assertThat(name).startsWith("refs/tags/v9.9"));
		assertThat(tags.get(0)).isEqualTo("refs/tags/v9.9.0");
		// v9.9.0-9 and v9.90-99.*
		assertThat(waitFor(By.id("match-count")).getText()).isEqualTo("110 refs match.");
		assertThat(chrome.findElements(By.id("first-page"))).isEmpty();
		screenshot("refs-glob-search");

		chrome.findElement(By.id("glob")).clear();
		chrome.findElement(By.id("prefix")).sendKeys("refs/pull/");
		navigate(chrome.findElement(By.id("search")));
		waitFor(By.id("refs"));
		assertThat(shownNames().get(0)).isEqualTo("refs/pull/1/head");

		navigate(chrome.findElement(By.linkText("refs/pull/1/head")));
		assertThat(waitFor(By.id("type")).getText()).isEqualTo("commit");
		assertThat(chrome.findElement(By.tagName("h1")).getText()).isEqualTo("refs/pull/1/head");
		screenshot("ref-details");
	}

	@Test
	void aNarrowScreenStillShowsTheRefs() {
		logIn("viewer");
		chrome.manage().window().setSize(new org.openqa.selenium.Dimension(400, 800));
		try {
			chrome.get(url("/repo?name=" + REPO + "&prefix=refs/tags/"));
			waitFor(By.id("refs"));
			assertThat(shownNames()).hasSize(100);
			screenshot("refs-narrow");
		}
		finally {
			chrome.manage().window().setSize(new org.openqa.selenium.Dimension(1280, 900));
		}
	}

	/**
	 * Clicks something that loads a new page and waits until the old page is gone, so
	 * that the next look-up cannot find the old page's elements (which go stale under
	 * it).
	 */
	private static void navigate(WebElement clickable) {
		WebElement oldPage = chrome.findElement(By.tagName("html"));
		clickable.click();
		waitUpTo(java.time.Duration.ofSeconds(30)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until(org.openqa.selenium.support.ui.ExpectedConditions.stalenessOf(oldPage));
	}

	private static List<String> shownNames() {
		return chrome.findElements(By.cssSelector("#refs tr:not(.root-ref) .ref-name"))
			.stream()
			.map(WebElement::getText)
			.toList();
	}

}
