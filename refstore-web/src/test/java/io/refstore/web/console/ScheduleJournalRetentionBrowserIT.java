package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * In a real headless Chromium, an ADMIN schedules the ref journal's retention like any
 * periodic job: the schedule form offers "Journal retention", choosing it swaps in its
 * parameters (none: what each repository keeps is its own retention, which the form
 * says), Run now launches it on the repository, whose job says in words what it deleted,
 * and git's own changes are left as the retention keeps them (each ref's newest older
 * change). The list then shows the run's outcome and duration; at 400 px the form does
 * not scroll sideways. An OPERATOR, who may not run it, is not offered it.
 */
class ScheduleJournalRetentionBrowserIT extends BrowserTestSupport {

	private static final String NAME = "journal-retention-nightly";

	private static final String REPO = "journal-retention-browser.git";

	@Test
	void anAdminSchedulesTheJournalRetentionRunsItNowAndReadsWhatItDeleted() {
		TempRepo repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(REPO), "--bare", "--ref-format=files");
		List<String> commits = repo.commits(4, "c");
		chrome.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", "UTC"));
		logIn("admin");

		// journaling on, two entries kept, on the repository's Journal page
		chrome.get(url("/repo/journal?name=" + REPO));
		chrome.findElement(By.cssSelector("#journal-settings summary")).click();
		chrome.findElement(By.cssSelector("#journal-settings-form input[name='enabled']")).click();
		WebElement entries = chrome.findElement(By.id("maxEntries"));
		entries.clear();
		entries.sendKeys("2");
		chrome.findElement(By.id("save-settings")).click();
		waitFor(By.cssSelector(".flash"));
		repo.git("update-ref", "refs/heads/keep", commits.get(0));
		for (int i = 0; i < 4; i++) {
			repo.git("update-ref", "refs/heads/main", commits.get(i));
		}
		repo.git("update-ref", "refs/heads/new", commits.get(3));

		chrome.get(url("/schedules/new"));
		waitFor(By.id("schedule-form"));
		assertThat(waitFor(By.id("param-force")).isDisplayed()).as("maintenance's flag, the first job's").isTrue();
		new Select(chrome.findElement(By.id("jobType"))).selectByVisibleText("Journal retention");
		WebElement hint = waitFor(By.id("journal-retention-hint"));
		assertThat(hint.getText()).contains("its own retention").contains("newest change before that");
		assertThat(chrome.findElement(By.id("no-parameters")).getText()).isEqualTo("This job takes no parameters.");
		assertThat(chrome.findElements(By.id("param-force"))).as("maintenance's fields are gone").isEmpty();
		chrome.findElement(By.id("name")).sendKeys(NAME);
		chrome.findElement(By.id("target")).sendKeys(REPO);
		WebElement cron = chrome.findElement(By.id("cron"));
		cron.clear();
		cron.sendKeys("0 15 3 * * ?");
		waitForText(By.id("cron-words"), "every day at 03:15 UTC");
		chrome.manage().window().setSize(new Dimension(1280, 1400));
		screenshot("schedule-form-journal-retention");
		chrome.manage().window().setSize(new Dimension(400, 900));
		try {
			assertThat(
					(Boolean) script("var m = document.querySelector('main'); return m.scrollWidth <= m.clientWidth;"))
				.as("the form fits 400 px")
				.isTrue();
		}
		finally {
			chrome.manage().window().setSize(new Dimension(1280, 900));
		}
		chrome.findElement(By.id("save")).click();

		WebElement row = waitFor(By.id("schedule-" + NAME));
		assertThat(row.getText()).contains("Journal retention");
		chrome.findElement(By.id("run-" + NAME)).click();
		WebElement result = waitFor(By.id("run-now-result"));
		assertThat(result.getText()).contains("Schedule " + NAME + " ran now: 1 launched.");
		result.findElement(By.cssSelector("a.ran-job")).click();
		waitFor(By.id("steps"));
		awaitJobStatus("Completed", Duration.ofSeconds(60));
		assertThat(chrome.findElement(By.id("job-summary")).getText())
			.isEqualTo("Deleted 2 entries past the retention (2 entries), each ref's newest older change kept.");
		assertThat(chrome.findElement(By.id("steps")).getText()).as("it counts journal entries, not refs")
			.contains("Apply journal retention")
			.doesNotContain("refs/s");
		screenshot("schedule-journal-retention-job");

		chrome.get(url("/schedules"));
		WebElement lastRun = waitFor(By.cssSelector("#schedule-" + NAME + " .last-run"));
		assertThat(lastRun.findElement(By.cssSelector(".badge")).getText()).isEqualTo("Completed");
		assertThat(lastRun.findElement(By.cssSelector(".duration")).getText()).matches("in \\d.*s");

		// what git did, as the retention keeps it: the two newest, then each ref's newest
		// older change
		chrome.get(url("/repo/journal?name=" + REPO));
		List<String> refs = chrome.findElements(By.cssSelector("#journal tbody tr"))
			.stream()
			.map((tr) -> tr.findElements(By.tagName("td")).get(1).getText())
			.toList();
		assertThat(refs).containsExactly("refs/heads/new", "refs/heads/main", "refs/heads/main", "refs/heads/keep");
	}

	@Test
	void anOperatorIsNotOfferedTheJournalRetention() {
		logIn("operator");
		chrome.get(url("/schedules/new"));
		waitFor(By.id("schedule-form"));
		assertThat(chrome.findElements(By.cssSelector("#jobType option[value='MAINTAIN']"))).hasSize(1);
		assertThat(chrome.findElements(By.cssSelector("#jobType option[value='JOURNAL_RETENTION']")))
			.as("an operator may not run a journal retention")
			.isEmpty();
	}

	private static Object script(String script, Object... arguments) {
		return ((JavascriptExecutor) chrome).executeScript(script, arguments);
	}

}
