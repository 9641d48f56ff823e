package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.support.ui.Select;

import com.deque.html.axecore.results.Results;
import com.deque.html.axecore.results.Rule;
import com.deque.html.axecore.selenium.AxeBuilder;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Every page of the console, as an administrator (who sees the most controls), checked in
 * a real headless Chromium with axe-core (Deque's rules for WCAG 2.x A and AA and best
 * practices): no serious or critical violation on any page; and no page is wider than a
 * 400 px screen (a wide table scrolls in its own box). Each page is kept as a screenshot
 * ({@code a11y-*}).
 */
class ConsoleAccessibilityIT extends BrowserTestSupport {

	private static final Set<String> BLOCKING = Set.of("serious", "critical");

	@Test
	void everyPageHasNoSeriousAccessibilityViolation() {
		TempRepo repo = TempRepo.init(GitCli.system(), ROOT.resolve("a11y.git"), "--bare");
		String commit = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/topic", commit);
		repo.git("update-ref", "refs/tags/v1", commit);
		repo.git("update-ref", "refs/pull/1/head", commit);

		List<String> violations = new ArrayList<>();
		check("login", "/login", violations);
		logIn("admin");
		String job = launch("/jobs/new/maintenance?repo=a11y.git", null);
		String plan = launch("/jobs/new/deletion?repo=a11y.git", "refs/pull/");
		chrome.get(url("/schedules/new"));
		chrome.findElement(By.id("name")).sendKeys("a11y-nightly");
		chrome.findElement(By.id("target")).sendKeys("a11y.git");
		chrome.findElement(By.id("save")).click();
		waitFor(By.id("schedules"));
		chrome.get(url("/campaigns/new"));
		new Select(chrome.findElement(By.id("jobType"))).selectByVisibleText("Verification");
		chrome.findElement(By.id("target")).sendKeys("a11y.git");
		chrome.findElement(By.id("launch")).click();
		waitFor(By.id("targets"));
		String campaign = chrome.getCurrentUrl().substring(url("").length());

		String[][] pages = { { "dashboard", "/" }, { "repository", "/repo?name=a11y.git" },
				{ "ref", "/repo/ref?name=a11y.git&ref=refs/heads/topic" }, { "jobs", "/jobs" }, { "job", job },
				{ "plan", plan }, { "launch-migration", "/jobs/new/migration?repo=a11y.git" },
				{ "launch-deletion", "/jobs/new/deletion?repo=a11y.git" },
				{ "launch-rollback", "/jobs/new/rollback?repo=a11y.git" }, { "schedules", "/schedules" },
				{ "schedule", "/schedules/a11y-nightly/edit" }, { "schedule-new", "/schedules/new" },
				{ "schedule-delete", "/schedules/a11y-nightly/delete" }, { "campaigns", "/campaigns" },
				{ "campaign", campaign }, { "campaign-new", "/campaigns/new" }, { "audit", "/audit" },
				{ "retention", "/retention" }, { "webhooks", "/webhooks" }, { "webhook-new", "/webhooks/new" },
				{ "journal", "/repo/journal?name=a11y.git" }, { "branches", "/repo/branches?name=a11y.git" },
				{ "branch-delete", "/repo/branches/delete?name=a11y.git&branch=refs/heads/topic" },
				{ "branches-merged", "/repo/branches/merged?name=a11y.git" },
				{ "journal-deleted", "/repo/deleted?name=a11y.git" },
				{ "journal-rewind", "/repo/rewind?name=a11y.git&prefix=refs/heads/&at=2026-01-01T00:00:00" },
				{ "not-found", "/no/such/page" }, { "bad-address", "/repo%zz" },
				{ "jobs-running", "/jobs?status=STARTED" }, { "jobs-none-match", "/jobs?status=FAILED&repo=none" },
				{ "jobs-from-after-to", "/jobs?from=2026-02-01T00:00&to=2026-01-01T00:00" },
				{ "jobs-confirm", "/jobs/bulk?action=restart&id=" + job.substring(job.lastIndexOf('/') + 1) },
				{ "dashboard-none-match", "/?q=no-such-repository" }, { "maintain-due", "/maintain-due" },
				{ "plan-refs", "/repo/refs?name=a11y.git&plan=" + plan.substring(plan.lastIndexOf('/') + 1) } };
		for (String[] page : pages) {
			check(page[0], page[1], violations);
		}
		assertThat(violations).as("serious or critical axe-core violations").isEmpty();
	}

	/**
	 * The check itself: the login page with its user name's label taken away (in the
	 * browser, not in the application) fails it.
	 */
	@Test
	void theCheckCatchesAnUnlabelledField() {
		chrome.get(url("/login"));
		waitFor(By.id("username"));
		chrome.executeScript("document.querySelectorAll('label').forEach((label) => label.remove());"
				+ "document.getElementById('username').removeAttribute('aria-label');");
		List<String> violations = new ArrayList<>();
		record("/login", new AxeBuilder().analyze(chrome), violations);
		assertThat(violations).anySatisfy((violation) -> assertThat(violation).contains("label (critical)"));
	}

	/**
	 * Launches the form at {@code path} as it comes (with {@code prefixes} for a
	 * deletion) and waits for the job to end.
	 */
	private String launch(String path, String prefixes) {
		chrome.get(url(path));
		if (prefixes != null) {
			chrome.findElement(By.id("prefixes")).sendKeys(prefixes);
		}
		chrome.findElement(By.id("launch")).click();
		waitFor(By.id("steps"));
		awaitJobStatus("Completed", Duration.ofSeconds(60));
		return chrome.getCurrentUrl().substring(url("").length());
	}

	private void check(String name, String path, List<String> violations) {
		chrome.get(url(path));
		waitFor(By.tagName("main"));
		// the parts htmx loads after the page (a repository's health and backups) are in
		waitUpTo(Duration.ofSeconds(30)).until((driver) -> driver.findElements(By.cssSelector(".loading")).isEmpty());
		screenshot("a11y-" + name);
		record(path, new AxeBuilder().analyze(chrome), violations);
		// and usable on a phone: nothing wider than the screen but inside its own
		// scrolling box
		try {
			chrome.manage().window().setSize(new Dimension(400, 900));
			Number overflow = (Number) ((JavascriptExecutor) chrome)
				.executeScript("var m = document.querySelector('main'); return m.scrollWidth - m.clientWidth;");
			if (overflow.longValue() > 0) {
				violations.add(path + ": the page is " + overflow + " px wider than a 400 px screen");
				screenshot("a11y-" + name + "-400px");
			}
		}
		finally {
			chrome.manage().window().setSize(new Dimension(1280, 900));
		}
	}

	private static void record(String path, Results results, List<String> violations) {
		assertThat(results.isErrored()).as("axe-core ran on " + path).isFalse();
		assertThat(results.getPasses()).as("axe-core's passed rules on " + path).isNotEmpty();
		for (Rule rule : results.getViolations()) {
			if (BLOCKING.contains(rule.getImpact())) {
				violations.add(path + ": " + rule.getId() + " (" + rule.getImpact() + ") " + rule.getHelp() + " at "
						+ rule.getNodes().stream().map((node) -> String.valueOf(node.getTarget())).toList());
			}
		}
	}

}
