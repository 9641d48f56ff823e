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
 * scroll sideways. The campaign form, which shares the fields, launches a deletion
 * campaign through them alike.
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
		screenshotAndFit400("schedule-form-typed");

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

	/**
	 * An operator launches a deletion campaign (plan only) through the same typed fields:
	 * a migration is not offered to it, choosing the deletion swaps its fields in (htmx),
	 * three bad fields (the campaign's target among them) are all marked at once, beside
	 * each and in the summary; put right, the campaign is launched with the typed values
	 * as its parameters.
	 */
	@Test
	void anOperatorLaunchesADeletionCampaignThroughTheTypedFields() {
		for (int i = 0; i < 2; i++) {
			TempRepo.init(GitCli.system(), ROOT.resolve("typed-campaign-" + i + ".git"), "--bare");
		}
		logIn("operator");
		chrome.get(url("/campaigns/new"));
		waitFor(By.id("campaign-form"));
		assertThat(waitFor(By.id("param-force")).isSelected()).as("maintenance's one flag, off").isFalse();
		assertThat(chrome.findElements(By.cssSelector("#jobType option[value='MIGRATE']")))
			.as("an operator may not launch a migration")
			.isEmpty();
		new Select(chrome.findElement(By.id("jobType"))).selectByValue("DELETE");
		waitFor(By.id("param-prefixes"));
		assertThat(chrome.findElements(By.id("param-force"))).isEmpty();
		assertThat(chrome.findElement(By.id("param-planOnly")).isSelected()).as("plans only unless unchecked").isTrue();
		new Select(chrome.findElement(By.id("targetKind"))).selectByVisibleText("matching a glob");
		// a glob that selects nothing: the campaign's own field, judged with the others
		chrome.findElement(By.id("target")).sendKeys("typed-kampaign-*.git");
		chrome.findElement(By.id("param-prefixes")).sendKeys("refs/pull/");
		chrome.findElement(By.id("param-chunkSize")).sendKeys("0");
		chrome.findElement(By.id("param-olderThan")).sendKeys("someday");
		chrome.findElement(By.id("launch")).click();

		WebElement summary = waitFor(By.id("error-summary"));
		assertThat(summary.getText()).contains("3 things stop this campaign from being launched:")
			.contains("Repository, glob or number of loose refs: selects no repository")
			.contains("Refs per chunk must be a whole number from 1 to 100,000")
			.contains("Tip older than: give an age such as 90d");
		assertThat(chrome.findElements(By.cssSelector("#error-summary li"))).hasSize(3);
		assertThat(chrome.findElement(By.id("target-error")).isDisplayed()).isTrue();
		for (String field : List.of("chunkSize", "olderThan")) {
			assertThat(chrome.findElement(By.id("param-" + field + "-error")).isDisplayed()).as(field).isTrue();
			assertThat(chrome.findElement(By.id("param-" + field)).getAttribute("aria-invalid")).as(field)
				.isEqualTo("true");
		}
		assertThat(chrome.findElement(By.id("param-prefixes")).getAttribute("value")).as("kept as typed")
			.isEqualTo("refs/pull/");
		screenshotAndFit400("campaign-form-typed");

		retype("target", "typed-campaign-*.git");
		retype("param-chunkSize", "500");
		retype("param-olderThan", "90d");
		chrome.findElement(By.id("launch")).click();
		waitFor(By.id("targets"));
		assertThat(chrome.findElement(By.cssSelector(".flash")).getText()).contains("launched over 2 repositories");
		assertThat(chrome.findElement(By.cssSelector("details pre")).getAttribute("textContent").lines())
			.containsExactlyInAnyOrder("planOnly=true", "prefixes=refs/pull/", "olderThan=90d", "chunkSize=500");
	}

	/**
	 * Screenshots the form with its errors, tall enough for the summary and the fields
	 * marked beside it, then checks that at 400 px it does not scroll sideways.
	 */
	private static void screenshotAndFit400(String name) {
		chrome.manage().window().setSize(new Dimension(1280, 2000));
		screenshot(name);
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
