package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openqa.selenium.By;

/**
 * In a real headless Chromium: each role logs in through the form and lands on the
 * dashboard showing its name and role (the audit link only for roles that may read it); a
 * wrong password is told apart; logging out ends the session; an unknown address shows
 * the friendly not-found page with no server internals.
 */
class LoginBrowserIT extends BrowserTestSupport {

	@ParameterizedTest
	@CsvSource({ "viewer, VIEWER, false", "operator, OPERATOR, true", "admin, ADMIN, true" })
	void eachRoleLogsInAndSeesTheDashboard(String user, String role, boolean seesAudit) {
		logIn(user);
		screenshot("login-" + user);
		assertThat(chrome.findElement(By.cssSelector("header .who")).getText()).contains(user).contains(role);
		assertThat(chrome.findElements(By.linkText("Audit"))).hasSize(seesAudit ? 1 : 0);
		assertThat(chrome.findElement(By.tagName("h1")).getText()).isEqualTo("Repositories");
	}

	@Test
	void theSessionCookieIsSameSiteLax() throws Exception {
		// the server's own header: a browser reports Lax for a cookie that names no
		// SameSite
		HttpResponse<Void> page = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create(url("/login"))).build(), HttpResponse.BodyHandlers.discarding());
		assertThat(page.headers().allValues("Set-Cookie")).filteredOn((cookie) -> cookie.startsWith("JSESSIONID="))
			.singleElement()
			.satisfies((cookie) -> assertThat(cookie).contains("SameSite=Lax").contains("HttpOnly"));
	}

	@Test
	void aWrongPasswordIsRefusedAndLogoutEndsTheSession() {
		chrome.get(url("/"));
		assertThat(chrome.getCurrentUrl()).endsWith("/login");
		chrome.findElement(By.id("username")).sendKeys("viewer");
		chrome.findElement(By.id("password")).sendKeys("not-the-password");
		chrome.findElement(By.id("login")).click();
		waitFor(By.id("login-error"));
		screenshot("login-refused");
		logIn("viewer");
		chrome.findElement(By.cssSelector("header .who button")).click();
		waitFor(By.id("logged-out"));
		chrome.get(url("/"));
		assertThat(chrome.getCurrentUrl()).endsWith("/login");
	}

	@Test
	void unknownAddressShowsTheFriendlyNotFoundPage() {
		logIn("viewer");
		chrome.get(url("/no/such/page"));
		screenshot("error-not-found");
		assertThat(chrome.findElement(By.tagName("h1")).getText()).isEqualTo("Not found");
		assertThat(chrome.findElement(By.id("status")).getText()).isEqualTo("404");
		assertThat(chrome.getPageSource()).doesNotContain("Exception").doesNotContain("Whitelabel");
		// the console's own stylesheet is served to the page: the header is dark
		assertThat(chrome.findElement(By.cssSelector("header.top")).getCssValue("background-color"))
			.isEqualTo("rgba(29, 35, 48, 1)");
	}

	@Test
	void addressesWithBracketsGetTheConsolesPagesNotTheServersOwn() throws Exception {
		logIn("viewer");
		// as a person types them: Chromium sends [ ] { } | as they are
		chrome.get(url("/no/such[page]"));
		assertThat(chrome.findElement(By.id("status")).getText()).isEqualTo("404");
		assertThat(chrome.findElements(By.cssSelector("header .who"))).hasSize(1);
		chrome.get(url("/jobs?repo=a[1]{x|y}"));
		assertThat(chrome.findElement(By.tagName("h1")).getText()).isEqualTo("Jobs");
		assertThat(chrome.findElement(By.id("repo")).getDomProperty("value")).isEqualTo("a[1]{x|y}");
		screenshot("error-brackets");
		// the tab's icon is the console's own, served without a login
		assertThat(chrome.findElement(By.cssSelector("link[rel=icon]")).getDomAttribute("href"))
			.isEqualTo("/console/favicon.svg");
		HttpResponse<String> icon = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create(url("/console/favicon.svg"))).build(),
					HttpResponse.BodyHandlers.ofString());
		assertThat(icon.statusCode()).isEqualTo(200);
		assertThat(icon.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("image/svg+xml"));
	}

}
