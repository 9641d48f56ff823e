package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * In a real headless Chromium, an operator creates a maintenance schedule and a deletion
 * schedule through the schedule form's typed fields: choosing the job swaps its fields in
 * (htmx), a deletion's three bad fields are all marked at once, beside each field and in
 * the summary above the form, and once put right the schedule is saved with the typed
 * values, which its edit form shows again. At 400 px the form with its errors does not
 * scroll sideways.
 */
class ScheduleFormTypedBrowserIT extends BrowserTestSupport {

	@Test
	void anOperatorCreatesAMaintenanceAndADeletionScheduleThroughTheTypedForm() {
		TempRepo.init(GitCli.system(), ROOT.resolve("typed-form.git"), "--bare");
		logIn("operator");

		// maintenance: its one flag
		chrome.get(url("/schedules/new"));
		waitFor(By.id("schedule-form"));
		chrome.findElement(By.id("name")).sendKeys("typed-maintenance");
		chrome.findElement(By.id("target")).sendKeys("typed-form.git");
		WebElement force = waitFor(By.id("param-force"));
		assertThat(force.isSelected()).isFalse();
		force.click();
		chrome.findElement(By.id("save")).click();
		waitFor(By.id("schedule-typed-maintenance"));
		chrome.get(url("/schedules/typed-maintenance/edit"));
		assertThat(waitFor(By.id("param-force")).isSelected()).as("force, as saved").isTrue();

		// deletion: the job's fields come in as it is chosen
		chrome.get(url("/schedules/new"));
		waitFor(By.id("schedule-form"));
		chrome.findElement(By.id("name")).sendKeys("typed-deletion");
		chrome.findElement(By.id("target")).sendKeys("typed-form.git");
		new Select(chrome.findElement(By.id("jobType"))).selectByValue("DELETE");
		waitFor(By.id("param-prefixes"));
		assertThat(chrome.findElements(By.id("param-force"))).isEmpty();
		assertThat(chrome.findElement(By.id("param-planOnly")).isSelected()).as("plans only unless unchecked").isTrue();
		chrome.findElement(By.id("param-prefixes")).sendKeys("refs/pull/");
		chrome.findElement(By.id("param-chunkSize")).sendKeys("0");
		chrome.findElement(By.id("param-throttleMillis")).sendKeys("lots");
		chrome.findElement(By.id("param-olderThan")).sendKeys("someday");
		chrome.findElement(By.id("save")).click();

		WebElement summary = waitFor(By.id("error-summary"));
		assertThat(summary.getText()).contains("3 things stop this schedule from being saved:")
			.contains("Refs per chunk must be a whole number from 1 to 100,000")
			.contains("Pause between chunks must be a whole number from 0 to 60,000 milliseconds")
			.contains("Tip older than: give an age such as 90d");
		assertThat(chrome.findElements(By.cssSelector("#error-summary li"))).hasSize(3);
		for (String field : List.of("chunkSize", "throttleMillis", "olderThan")) {
			assertThat(chrome.findElement(By.id("param-" + field + "-error")).isDisplayed()).as(field).isTrue();
			assertThat(chrome.findElement(By.id("param-" + field)).getAttribute("aria-invalid")).as(field)
				.isEqualTo("true");
		}
		assertThat(chrome.findElement(By.id("param-prefixes")).getAttribute("value")).as("kept as typed")
			.isEqualTo("refs/pull/");
		// tall enough for the summary and the fields marked beside it
		chrome.manage().window().setSize(new Dimension(1280, 2000));
		screenshot("schedule-form-typed");

		chrome.manage().window().setSize(new Dimension(400, 900));
		try {
			assertThat(
					(Boolean) script("var m = document.querySelector('main'); return m.scrollWidth <= m.clientWidth;"))
				.as("the form with its errors fits 400 px")
				.isTrue();
		}
		finally {
			chrome.manage().window().setSize(new Dimension(1280, 900));
		}

		retype("param-chunkSize", "500");
		retype("param-throttleMillis", "");
		retype("param-olderThan", "90d");
		chrome.findElement(By.id("save")).click();
		waitFor(By.id("schedule-typed-deletion"));
		chrome.get(url("/schedules/typed-deletion/edit"));
		assertThat(waitFor(By.id("param-chunkSize")).getAttribute("value")).isEqualTo("500");
		assertThat(chrome.findElement(By.id("param-olderThan")).getAttribute("value")).isEqualTo("90d");
		assertThat(chrome.findElement(By.id("param-prefixes")).getAttribute("value")).isEqualTo("refs/pull/");
		assertThat(chrome.findElement(By.id("param-planOnly")).isSelected()).isTrue();
	}

	private static void retype(String id, String text) {
		WebElement field = chrome.findElement(By.id(id));
		field.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
		if (!text.isEmpty()) {
			field.sendKeys(text);
		}
	}

	private static Object script(String script, Object... arguments) {
		return ((JavascriptExecutor) chrome).executeScript(script, arguments);
	}

}
