package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * In a real headless Chromium: the schedules and campaigns pages wear the console's one
 * layout (the header names the user and role, Log out, the Audit link for the roles that
 * may read it) and offer only what the role may do; an operator creates a schedule
 * through the form and launches a campaign, whose page follows it live (polled, no
 * reload) until every repository has its result.
 */
class SchedulesCampaignsBrowserIT extends BrowserTestSupport {

	@ParameterizedTest
	@CsvSource({ "viewer, VIEWER, false", "operator, OPERATOR, true", "admin, ADMIN, true" })
	void schedulesAndCampaignsShareTheLayoutAndOfferWhatTheRoleMay(String user, String role, boolean operates) {
		logIn(user);
		for (String page : new String[] { "schedules", "campaigns" }) {
			chrome.get(url("/" + page));
			waitFor(By.id(page));
			screenshot(page + "-" + user);
			assertThat(chrome.findElement(By.cssSelector("header .who")).getText()).contains(user).contains(role);
			assertThat(chrome.findElements(By.cssSelector("header .who button"))).as("Log out").hasSize(1);
			assertThat(chrome.findElements(By.linkText("Audit"))).hasSize(operates ? 1 : 0);
			String create = page.equals("schedules") ? "new-schedule" : "new-campaign";
			assertThat(chrome.findElements(By.id(create))).hasSize(operates ? 1 : 0);
		}
	}

	@Test
	void anOperatorSchedulesAndLaunchesACampaignAndWatchesItFinish() {
		String commit = null;
		for (int i = 0; i < 2; i++) {
			TempRepo repo = TempRepo.init(GitCli.system(), ROOT.resolve("fleet-" + i + ".git"), "--bare");
			commit = repo.commit("one", null);
			repo.git("update-ref", "refs/heads/topic", commit);
		}
		// the viewer's own zone, whatever the machine's
		chrome.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", "Asia/Tokyo"));
		logIn("operator");
		chrome.get(url("/schedules"));
		chrome.findElement(By.id("new-schedule")).click();
		waitFor(By.id("schedule-form"));
		chrome.findElement(By.id("name")).sendKeys("nightly-fleet");
		new Select(chrome.findElement(By.id("jobType"))).selectByVisibleText("Maintenance");
		new Select(chrome.findElement(By.id("targetKind"))).selectByVisibleText("matching a glob");
		chrome.findElement(By.id("target")).sendKeys("fleet-*.git");
		// the form's labels are the console's: on their own line, in bold
		assertThat(chrome.findElement(By.cssSelector("label[for='cron']")).getCssValue("font-weight")).isEqualTo("600");
		screenshot("schedules-new");
		chrome.findElement(By.id("save")).click();
		waitFor(By.id("schedule-nightly-fleet"));
		assertThat(chrome.findElement(By.cssSelector(".flash")).getText()).isEqualTo("Schedule nightly-fleet created.");
		assertThat(chrome.findElement(By.id("schedule-nightly-fleet")).getText()).contains("Maintenance")
			.contains("matching fleet-*.git")
			.contains("Pause");
		screenshot("schedules-created");

		chrome.get(url("/campaigns"));
		chrome.findElement(By.id("new-campaign")).click();
		waitFor(By.id("campaign-form"));
		new Select(chrome.findElement(By.id("jobType"))).selectByVisibleText("Verification");
		new Select(chrome.findElement(By.id("targetKind"))).selectByVisibleText("matching a glob");
		chrome.findElement(By.id("target")).sendKeys("fleet-*.git");
		screenshot("campaigns-new");
		chrome.findElement(By.id("launch")).click();
		waitFor(By.id("targets"));
		String page = chrome.getCurrentUrl();
		// the browser tests share one application: the id is whatever this one got
		String campaign = "Campaign " + page.substring(page.lastIndexOf('/') + 1);
		waitUpTo(Duration.ofSeconds(90)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until((driver) -> driver.findElement(By.id("state")).getText().equals("Finished"));
		assertThat(chrome.getCurrentUrl()).isEqualTo(page);
		assertThat(chrome.findElement(By.id("progress-summary")).getText())
			.isEqualTo("2 of 2 repositories have a result");
		assertThat(chrome.findElement(By.id("target-0")).getText()).contains("fleet-0.git").contains("Done");
		assertThat(chrome.findElements(By.id("cancel"))).isEmpty();
		screenshot("campaigns-finished");
		// times in the viewer's zone, the zone named; the server wrote UTC
		WebElement launched = chrome.findElement(By.cssSelector("section > p time"));
		Instant at = Instant.parse(launched.getDomAttribute("datetime"));
		assertThat(launched.getText())
			.isEqualTo(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.of("Asia/Tokyo")).format(at)
					+ " GMT+9");
		chrome.findElement(By.cssSelector("#target-1 a[href^='/jobs/']")).click();
		waitFor(By.id("steps"));
		assertThat(chrome.findElement(By.cssSelector("header .who")).getText()).contains("operator");

		// the audit log has the schedule and the campaign, outcomes coloured, jobs linked
		chrome.get(url("/audit?actor=operator"));
		waitFor(By.id("audit"));
		screenshot("audit-operator");
		assertThat(chrome.findElement(By.id("audit")).getText()).contains("schedule.create")
			.contains("campaign.create")
			.contains("nightly-fleet")
			.contains(campaign);
		assertThat(chrome.findElement(By.cssSelector("#audit .badge.outcome-SUCCESS")).getCssValue("color"))
			.isEqualTo("rgba(18, 117, 58, 1)");
		chrome.findElement(By.linkText(campaign)).click();
		waitFor(By.id("targets"));
		chrome.get(url("/audit?action=job.launch"));
		chrome.findElement(By.cssSelector("#audit a[href^='/jobs/']")).click();
		waitFor(By.id("steps"));
	}

}
