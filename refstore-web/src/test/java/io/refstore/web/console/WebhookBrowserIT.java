package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;

import io.refstore.web.webhooks.WebhookReceiver;

/**
 * Webhooks in a real headless Chromium: an admin creates one from the Webhooks page
 * (refstore makes its secret and shows it once), sends a test, and reads the delivery log
 * with the receiver's answer, then deletes it after a confirmation; a wrong URL is named
 * beside its field; a viewer has no Webhooks page.
 */
class WebhookBrowserIT extends BrowserTestSupport {

	@Test
	void anAdminCreatesAWebhookSendsATestAndReadsTheDeliveryLog() throws Exception {
		try (WebhookReceiver receiver = new WebhookReceiver(
				(request) -> new WebhookReceiver.Answer(200, "{\"ok\": true}"))) {
			logIn("admin");
			chrome.findElement(By.linkText("Webhooks")).click();
			waitFor(By.id("new-webhook")).click();
			waitFor(By.id("name")).sendKeys("chat");
			chrome.findElement(By.id("url")).sendKeys("ftp://hooks.example.com/refstore");
			chrome.findElement(By.cssSelector("input[value='job.failed']")).click();
			chrome.findElement(By.cssSelector("input[value='campaign.finished']")).click();
			chrome.findElement(By.id("save")).click();
			assertThat(waitFor(By.id("url-error")).getText()).contains("http or https");

			WebElement url = chrome.findElement(By.id("url"));
			url.clear();
			url.sendKeys(receiver.url("/refstore"));
			chrome.findElement(By.id("save")).click();
			String flash = waitFor(By.cssSelector(".flash")).getText();
			assertThat(flash).contains("Webhook chat created.", "Its secret, shown only now: ");
			String secret = flash.substring(flash.indexOf("shown only now: ") + "shown only now: ".length()).strip();

			chrome.findElement(By.id("send-test")).click();
			waitForText(By.cssSelector(".flash"), "Test delivery");
			// the log shows the answer once it came
			waitUpTo(Duration.ofSeconds(30)).until((driver) -> {
				driver.navigate().refresh();
				return driver.findElements(By.cssSelector("#deliveries td.status"))
					.stream()
					.anyMatch((cell) -> cell.getText().equals("200"));
			});
			assertThat(chrome.findElement(By.cssSelector("#deliveries td.state")).getText()).isEqualTo("DELIVERED");
			assertThat(chrome.findElement(By.id("deliveries")).getText()).contains("ping", "{\"ok\": true}");
			((JavascriptExecutor) chrome).executeScript("document.querySelector('h2').scrollIntoView()");
			screenshot("webhooks-delivery-log");
			WebhookReceiver.Received ping = receiver.received().get(0);
			assertThat(ping.header("X-Hub-Signature-256"))
				.isEqualTo(WebhookReceiver.expectedSignature(secret, ping.body()));

			// deleted after a confirmation
			chrome.findElement(By.id("delete")).click();
			assertThat(waitFor(By.id("webhook-name")).getText()).isEqualTo("chat");
			chrome.findElement(By.id("delete-webhook")).click();
			waitForText(By.cssSelector(".flash"), "Webhook chat deleted with its deliveries.");
			assertThat(chrome.findElement(By.id("webhooks")).getText()).contains("No webhook yet.");
		}
		forgetTheSession();
		logIn("viewer");
		assertThat(chrome.findElements(By.linkText("Webhooks"))).isEmpty();
		chrome.get(url("/webhooks"));
		assertThat(chrome.getPageSource()).doesNotContain("new-webhook");
	}

}
