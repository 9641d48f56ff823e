package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import io.refstore.core.journal.JournalHook;
import io.refstore.core.repo.Repository;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * The Branches view in a real headless Chromium, judged by git 2.55: an admin opens it
 * from the repository page, searches as they type (htmx swaps the list, and the address
 * keeps the search), selects two branches, plans their deletion and lands on the plan,
 * opens the plan's list in the ref browser (a branch git moved since is marked), executes
 * it with the typed count (git no longer has them), finds both under Recently deleted in
 * the Branches view, restores one there, and git has it back at its old value while the
 * other stays deleted, then that one from the deletion job's manifest, where the job
 * lists its branches. At 400 px the view does not overflow sideways.
 */
class BranchesBrowserIT extends BrowserTestSupport {

	static final String REPO = "branches-view.git";

	static TempRepo repo;

	@BeforeAll
	static void repositoryWithAJournal() throws IOException {
		repo = TempRepo.init(GitCli.system(), ROOT.resolve(REPO), "--bare");
		try (Repository repository = Repository.open(repo.gitDir(), GitCli.system().environment())) {
			JournalHook.install(repository, JournalHook.DEFAULT_WRITER_ENV);
		}
		long now = Instant.now().getEpochSecond();
		GitCli old = GitCli.system().withEnv("GIT_COMMITTER_DATE", "@" + (now - 200 * 86_400) + " +0000");
		GitCli recent = GitCli.system().withEnv("GIT_COMMITTER_DATE", "@" + (now - 3_600) + " +0000");
		String base = repo.with(old).commit("Base of everything", null);
		String main = repo.with(recent).commit("Ship the release notes", base);
		StringBuilder updates = new StringBuilder("create refs/heads/main " + main + "\n");
		updates.append("create refs/heads/feature/search-as-you-type ")
			.append(repo.with(recent).commit("Search as you type", main))
			.append('\n');
		updates.append("create refs/heads/feature/tabs ")
			.append(repo.with(recent).commit("Tabs with counts", main))
			.append('\n');
		updates.append("create refs/heads/feature/wrapping-at-slashes-never-at-hyphens/and/more/levels ")
			.append(main)
			.append('\n');
		updates.append("create refs/heads/release/2024 ").append(base).append('\n');
		updates.append("create refs/heads/old/abandoned ")
			.append(repo.with(old).commit("Abandoned experiment with a subject long enough to wrap twice", base))
			.append('\n');
		repo.run(updates.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		repo.git("symbolic-ref", "HEAD", "refs/heads/main");
	}

	@Test
	void anAdminPlansTheDeletionOfTwoBranchesExecutesItAndRestoresOneFromTheBranchesView() {
		String search = repo.git("rev-parse", "refs/heads/feature/search-as-you-type").trim();
		String tabs = repo.git("rev-parse", "refs/heads/feature/tabs").trim();
		logIn("admin");
		chrome.get(url("/repo?name=" + REPO));
		navigate(waitFor(By.id("branches-link")));
		waitFor(By.id("branches"));
		assertThat(chrome.findElement(By.id("page-position")).getText()).isEqualTo("1–6 of 6");
		assertThat(chrome.findElement(By.id("tab-stale")).getText()).isEqualTo("Stale 2");
		screenshot("branches-view");

		// search as you type: htmx swaps the list in place, and the address keeps the
		// search
		WebElement page = chrome.findElement(By.tagName("html"));
		chrome.findElement(By.id("q")).sendKeys("FEATURE/");
		waitUpTo(Duration.ofSeconds(30)).ignoring(StaleElementReferenceException.class)
			.until((driver) -> driver.findElement(By.id("page-position")).getText().equals("1–3 of 3"));
		assertThat(chrome.findElement(By.tagName("html"))).isEqualTo(page);
		assertThat(chrome.getCurrentUrl()).contains("q=FEATURE");
		assertThat(shownBranches()).containsExactlyInAnyOrder("refs/heads/feature/search-as-you-type",
				"refs/heads/feature/tabs", "refs/heads/feature/wrapping-at-slashes-never-at-hyphens/and/more/levels");

		select("refs/heads/feature/search-as-you-type");
		select("refs/heads/feature/tabs");
		navigate(chrome.findElement(By.id("plan-selected")));
		String count = waitUpTo(Duration.ofSeconds(60)).ignoring(org.openqa.selenium.NoSuchElementException.class)
			.until((driver) -> driver.findElement(By.id("plan-count")))
			.getText();
		assertThat(count).isEqualTo("2");
		assertThat(chrome.findElement(By.id("plan-sample")).getText()).contains("refs/heads/feature/search-as-you-type",
				"refs/heads/feature/tabs");

		// the plan's whole list in the ref browser, each ref's value now as git has it:
		// git moves one of them meanwhile, and moves it back before the execution
		String main = repo.git("rev-parse", "refs/heads/main").trim();
		repo.git("update-ref", "refs/heads/feature/tabs", main);
		navigate(chrome.findElement(By.id("plan-browse")));
		waitFor(By.id("plan-refs"));
		assertThat(chrome.findElements(By.cssSelector("#plan-refs tbody tr"))
			.stream()
			.map((row) -> row.getAttribute("data-ref"))
			.toList()).containsExactly("refs/heads/feature/search-as-you-type", "refs/heads/feature/tabs");
		assertThat(chrome.findElement(By.id("page-position")).getText()).isEqualTo("1–2 of 2");
		assertThat(planRef("refs/heads/feature/tabs", "planned")).contains(tabs.substring(0, 12));
		assertThat(planRef("refs/heads/feature/tabs", "now")).contains(main.substring(0, 12))
			.contains("moved since the plan");
		assertThat(planRef("refs/heads/feature/search-as-you-type", "now")).contains(search.substring(0, 12))
			.doesNotContain("moved");
		assertThat(chrome.findElement(By.id("plan-changes")).getText())
			.isEqualTo("On this page, 1 ref moved since the plan and 0 are gone.");
		screenshot("plan-in-ref-browser");
		// at 400 px the page does not overflow sideways
		chrome.manage().window().setSize(new Dimension(400, 900));
		try {
			chrome.navigate().refresh();
			waitFor(By.id("plan-refs"));
			List<?> widths = (List<?>) chrome
				.executeScript("var m = document.querySelector('main'); return [m.scrollWidth, m.clientWidth];");
			assertThat(((Number) widths.get(0)).intValue()).as("main.scrollWidth")
				.isLessThanOrEqualTo(((Number) widths.get(1)).intValue());
			// nor does the list scroll inside its frame: each ref is a card
			Object list = chrome.executeScript(
					"var w = document.querySelector('#plan-refs').parentElement; return w.scrollWidth - w.clientWidth;");
			assertThat(((Number) list).intValue()).as("the list's overflow").isLessThanOrEqualTo(0);
			screenshot("plan-in-ref-browser-400px");
		}
		finally {
			chrome.manage().window().setSize(new Dimension(1280, 900));
		}
		repo.git("update-ref", "refs/heads/feature/tabs", tabs);
		navigate(chrome.findElement(By.id("plan-link")));
		waitFor(By.id("confirmCount"));
		chrome.findElement(By.id("confirmRepository")).sendKeys(REPO);
		chrome.findElement(By.id("confirmCount")).sendKeys(count);
		chrome.findElement(By.id("execute")).click();
		waitFor(By.id("restore"));
		assertThat(repo.git("for-each-ref", "--format=%(refname)", "refs/heads/feature/").lines())
			.containsExactly("refs/heads/feature/wrapping-at-slashes-never-at-hyphens/and/more/levels");

		chrome.get(url("/repo/branches?name=" + REPO));
		waitFor(By.id("deleted-branches"));
		assertThat(deletedBranches()).containsExactlyInAnyOrder("refs/heads/feature/search-as-you-type",
				"refs/heads/feature/tabs");
		assertThat(chrome.findElement(By.id("deletion-jobs")).getText()).contains("Deleted 2 refs")
			.contains("Restore…");
		navigate(chrome
			.findElement(By.cssSelector("#deleted-branches tr[data-branch='refs/heads/feature/tabs'] button.restore")));
		waitForText(By.cssSelector(".flash"), "Restored refs/heads/feature/tabs.");
		assertThat(deletedBranches()).containsExactly("refs/heads/feature/search-as-you-type");
		chrome.executeScript("document.getElementById('recently-deleted').scrollIntoView();");
		screenshot("branches-restore");
		assertThat(repo.git("rev-parse", "refs/heads/feature/tabs").trim()).isEqualTo(tabs);
		assertThat(repo.run(new byte[0], "rev-parse", "--verify", "-q", "refs/heads/feature/search-as-you-type")
			.exitCode()).isNotZero();
		assertThat(search).isNotEqualTo(tabs);

		// the other one from the deletion job's manifest, where the job lists it: a
		// restore of that branch alone
		WebElement fromJob = chrome.findElement(By.cssSelector(
				"#deletion-jobs li[data-branch='refs/heads/feature/search-as-you-type'] button.restore-from-job"));
		assertThat(chrome.findElements(
				By.cssSelector("#deletion-jobs li[data-branch='refs/heads/feature/tabs'] button.restore-from-job")))
			.as("back already: nothing to restore")
			.isEmpty();
		screenshot("branches-restore-from-manifest");
		navigate(fromJob);
		waitForText(By.cssSelector(".flash"), "Restoring refs/heads/feature/search-as-you-type from the manifest");
		awaitJobStatus("Completed", Duration.ofSeconds(60));
		assertThat(repo.git("rev-parse", "refs/heads/feature/search-as-you-type").trim()).isEqualTo(search);
		chrome.get(url("/repo/branches?name=" + REPO));
		waitFor(By.id("deletion-jobs"));
		assertThat(chrome.findElements(By.cssSelector("#deletion-jobs button.restore-from-job"))).isEmpty();
		chrome.manage().window().setSize(new Dimension(400, 900));
		try {
			chrome.get(url("/repo/branches?name=" + REPO));
			waitFor(By.id("deletion-jobs"));
			assertThat((Boolean) chrome
				.executeScript("var m = document.querySelector('main'); return m.scrollWidth <= m.clientWidth;"))
				.as("the deletion job's branches fit 400 px")
				.isTrue();
		}
		finally {
			chrome.manage().window().setSize(new Dimension(1280, 900));
		}
	}

	@Test
	void atFourHundredPixelsNothingOverflowsSideways() {
		logIn("operator");
		chrome.manage().window().setSize(new Dimension(400, 900));
		try {
			chrome.get(url("/repo/branches?name=" + REPO + "&sort=name"));
			waitFor(By.id("branches"));
			assertThat(((Number) chrome.executeScript("return window.innerWidth;")).intValue())
				.isLessThanOrEqualTo(400);
			assertThat(chrome.findElements(By.cssSelector("#branches input[type=checkbox]"))).isNotEmpty();
			Object widths = chrome
				.executeScript("var m = document.querySelector('main'); return [m.scrollWidth, m.clientWidth];");
			List<?> both = (List<?>) widths;
			assertThat(((Number) both.get(0)).intValue()).as("main.scrollWidth")
				.isLessThanOrEqualTo(((Number) both.get(1)).intValue());
			// nor does the table scroll inside its frame
			Object table = chrome.executeScript(
					"var w = document.querySelector('#branches').parentElement; return w.scrollWidth - w.clientWidth;");
			assertThat(((Number) table).intValue()).as("the table's overflow").isLessThanOrEqualTo(0);
			// a name wraps between its components: each fits on a line of its own here,
			// so none is broken inside
			Object lines = chrome.executeScript("""
					return Array.from(document.querySelectorAll('#branches .branch-name > span'))
						.map((s) => Math.round(s.getBoundingClientRect().height));""");
			assertThat((List<?>) lines).isNotEmpty()
				.allSatisfy((height) -> assertThat(((Number) height).intValue())
					.isEqualTo(((Number) ((List<?>) lines).get(0)).intValue()));
			Object rows = chrome.executeScript(
					"""
							var name = document.querySelector(
								"#branches tr[data-branch='refs/heads/feature/wrapping-at-slashes-never-at-hyphens/and/more/levels'] .branch-name");
							return Math.round(name.getBoundingClientRect().height / name.firstElementChild.getBoundingClientRect().height);""");
			assertThat(((Number) rows).intValue()).as("lines of the long name").isGreaterThan(1);
			screenshot("branches-400px");
		}
		finally {
			chrome.manage().window().setSize(new Dimension(1280, 900));
		}
	}

	private static void select(String branch) {
		chrome.findElement(By.cssSelector("#branches input[type=checkbox][value='" + branch + "']")).click();
	}

	private static List<String> shownBranches() {
		return chrome.findElements(By.cssSelector("#branches tbody tr"))
			.stream()
			.map((row) -> row.getAttribute("data-branch"))
			.toList();
	}

	/** The text of a ref's cell ({@code planned} or {@code now}) in the plan's list. */
	private static String planRef(String ref, String cell) {
		return chrome.findElement(By.cssSelector("#plan-refs tr[data-ref='" + ref + "'] td." + cell)).getText();
	}

	private static List<String> deletedBranches() {
		return chrome.findElements(By.cssSelector("#deleted-branches tbody tr"))
			.stream()
			.map((row) -> row.getAttribute("data-branch"))
			.toList();
	}

	private static void navigate(WebElement clickable) {
		WebElement oldPage = chrome.findElement(By.tagName("html"));
		clickable.click();
		waitUpTo(Duration.ofSeconds(30)).ignoring(StaleElementReferenceException.class)
			.until(ExpectedConditions.stalenessOf(oldPage));
	}

}
