package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * In a real headless Chromium: an address that does not exist shows the console's friendly not-found page,
 * styled by the console's own stylesheet, with no trace of the server's internals.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class ErrorPagesBrowserIT {

	static ChromeDriver chrome;

	@LocalServerPort
	int port;

	@BeforeAll
	static void startBrowser() {
		chrome = Chromium.start(1024, 768);
	}

	@AfterAll
	static void quitBrowser() {
		if (chrome != null) {
			chrome.quit();
		}
	}

	@Test
	void unknownAddressShowsTheFriendlyNotFoundPage() {
		chrome.get("http://localhost:" + this.port + "/no/such/page");
		Chromium.screenshot(chrome, "error-not-found");
		assertThat(chrome.findElement(By.tagName("h1")).getText()).isEqualTo("Not found");
		assertThat(chrome.findElement(By.id("status")).getText()).isEqualTo("404");
		assertThat(chrome.getPageSource()).doesNotContain("Exception").doesNotContain("Whitelabel");
		// the stylesheet came from the application itself: the header is dark
		assertThat(chrome.findElement(By.cssSelector("header.top")).getCssValue("background-color"))
			.isEqualTo("rgba(29, 35, 48, 1)");
	}

}
