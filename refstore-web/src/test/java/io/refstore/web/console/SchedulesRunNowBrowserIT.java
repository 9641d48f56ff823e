package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * In a real headless Chromium, the schedules page as Gitea's cron page serves an
 * operator: the form says the cron expression in words and previews its next five fires
 * as it is typed (or what is wrong with it), the list says it again beside the
 * expression, Run now fires it at once and links the job it launched, and the list then
 * shows the last run's outcome and duration. At 400 px the page does not scroll sideways
 * and every action of a schedule is on screen; at 1,400 px a name stays on one line.
 */
class SchedulesRunNowBrowserIT extends BrowserTestSupport {

	private static final String NAME = "run-now-nightly-maintenance";

	@Test
	void anOperatorSeesWhenAScheduleFiresRunsItNowAndFollowsItsJob() {
		TempRepo repo = TempRepo.init(GitCli.system(), ROOT.resolve("run-now.git"), "--bare");
		String commit = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/topic", commit);
		// times in 24-hour UTC, whatever the machine's zone
		chrome.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", "UTC"));
		logIn("operator");
		chrome.get(url("/schedules"));
		chrome.findElement(By.id("new-schedule")).click();
		waitFor(By.id("schedule-form"));
		chrome.findElement(By.id("name")).sendKeys(NAME);
		chrome.findElement(By.id("target")).sendKeys("run-now.git");
		// the default's words and fires are there before anything is typed
		assertThat(chrome.findElement(By.id("cron-words")).getText()).isEqualTo("every day at 02:00 UTC");

		typeCron("0 */15 * * * ?");
		waitForText(By.id("cron-words"), "every 15 minutes");
		List<String> fires = nextFires();
		assertThat(fires).hasSize(5)
			.allMatch((fire) -> fire.matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:(00|15|30|45):00 UTC"), "a quarter hour");
		assertThat(fires).isSorted().doesNotHaveDuplicates();

		typeCron("0 61 * * * ?");
		waitFor(By.id("cron-preview-error"));
		assertThat(chrome.findElement(By.id("cron-preview-error")).getText())
			.startsWith("cron: not a Quartz cron expression (Minute and Second values must be between 0 and 59)");
		assertThat(chrome.findElements(By.cssSelector("#next-fires li"))).isEmpty();

		typeCron("0 30 2 * * ?");
		waitForText(By.id("cron-words"), "every day at 02:30 UTC");
		assertThat(nextFires()).hasSize(5).allMatch((fire) -> fire.endsWith(" 02:30:00 UTC"));
		chrome.findElement(By.id("save")).click();

		WebElement row = waitFor(By.id("schedule-" + NAME));
		assertThat(row.findElement(By.cssSelector(".cron-words")).getText()).isEqualTo("every day at 02:30 UTC");
		assertThat(row.findElement(By.cssSelector("code.cron")).getText()).isEqualTo("0 30 2 * * ? (UTC)");
		assertThat(row.findElement(By.cssSelector(".last-run")).getText()).isEqualTo("never");

		chrome.findElement(By.id("run-" + NAME)).click();
		WebElement result = waitFor(By.id("run-now-result"));
		assertThat(result.getText()).contains("Schedule " + NAME + " ran now: 1 launched.")
			.contains("run-now.git: Job ");
		screenshot("schedules-run-now");
		String job = result.findElement(By.cssSelector("a.ran-job")).getText();
		result.findElement(By.cssSelector("a.ran-job")).click();
		waitFor(By.id("steps"));
		assertThat(chrome.getCurrentUrl()).endsWith("/jobs/" + job.substring("Job ".length()));
		awaitJobStatus("Completed", Duration.ofSeconds(60));

		chrome.get(url("/schedules"));
		WebElement lastRun = waitFor(By.cssSelector("#schedule-" + NAME + " .last-run"));
		assertThat(lastRun.findElement(By.cssSelector(".badge")).getText()).isEqualTo("Completed");
		assertThat(lastRun.findElement(By.cssSelector(".duration")).getText()).matches("in \\d.*s");
		assertThat(lastRun.findElement(By.cssSelector("a.last-run-job")).getText()).isEqualTo(job);

		chrome.manage().window().setSize(new Dimension(1400, 900));
		try {
			chrome.get(url("/schedules"));
			WebElement name = waitFor(By.linkText(NAME));
			assertThat(script("return arguments[0].getClientRects().length;", name)).as("lines of the name")
				.isEqualTo(1L);

			chrome.manage().window().setSize(new Dimension(400, 900));
			chrome.get(url("/schedules"));
			waitFor(By.id("schedule-" + NAME));
			screenshot("schedules-400px");
			assertThat(
					(Boolean) script("var m = document.querySelector('main'); return m.scrollWidth <= m.clientWidth;"))
				.as("the main content fits 400 px")
				.isTrue();
			long width = (Long) script("return document.documentElement.clientWidth;");
			for (String action : List.of("run-" + NAME, "delete-" + NAME)) {
				assertVisibleWithin(chrome.findElement(By.id(action)), width);
			}
			assertVisibleWithin(chrome.findElement(By.id("schedule-" + NAME))
				.findElement(By.xpath(".//button[normalize-space()='Pause']")), width);

			chrome.get(url("/schedules/" + NAME + "/edit"));
			waitFor(By.id("cron-preview"));
			assertThat(
					(Boolean) script("var m = document.querySelector('main'); return m.scrollWidth <= m.clientWidth;"))
				.as("the form fits 400 px")
				.isTrue();
		}
		finally {
			chrome.manage().window().setSize(new Dimension(1280, 900));
		}
	}

	/** Replaces the cron expression as a person types one. */
	private static void typeCron(String cron) {
		WebElement field = chrome.findElement(By.id("cron"));
		field.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
		field.sendKeys(cron);
	}

	/** The preview's next fires as the page shows them. */
	private static List<String> nextFires() {
		waitUpTo(Duration.ofSeconds(10)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until((driver) -> driver.findElements(By.cssSelector("#next-fires li time")).size() == 5);
		return chrome.findElements(By.cssSelector("#next-fires li time")).stream().map(WebElement::getText).toList();
	}

	private static void assertVisibleWithin(WebElement element, long width) {
		assertThat(element.isDisplayed()).as(element.getText() + " shown").isTrue();
		assertThat(element.getRect().getX()).as(element.getText() + " left edge").isNotNegative();
		assertThat(element.getRect().getX() + element.getRect().getWidth()).as(element.getText() + " right edge")
			.isLessThanOrEqualTo((int) width);
	}

	private static Object script(String script, Object... arguments) {
		return ((JavascriptExecutor) chrome).executeScript(script, arguments);
	}

}
