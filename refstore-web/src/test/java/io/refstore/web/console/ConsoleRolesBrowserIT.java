package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Every console page as each role sees it, in a real headless Chromium: an administrator
 * makes one of everything through the forms (a migration, a plan and its deletion, a
 * maintenance and a deletion schedule, a campaign); then a viewer and an operator open
 * every page. A viewer is offered no control that changes anything; an operator is
 * offered what an operator may do (launch a plan or a dry run, pause or delete a
 * maintenance schedule, stop, cancel) and none of what needs an administrator (execute a
 * deletion, restore, roll back, drop a backup, pause a deletion schedule, restart a
 * migration). What is hidden is also refused when asked for directly. Each page is kept
 * as a screenshot ({@code role-<role>-<page>}).
 */
class ConsoleRolesBrowserIT extends BrowserTestSupport {

	/** What an administrator made, by page name: the page's address. */
	private static Map<String, String> pages;

	@BeforeEach
	void oneOfEverything() {
		if (pages != null) {
			return;
		}
		TempRepo repo = TempRepo.init(GitCli.system(), ROOT.resolve("roles.git"), "--bare");
		String commit = repo.commit("one", null);
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < 20; i++) {
			updates.append("create refs/pull/").append(i).append("/head ").append(commit).append('\n');
		}
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		logIn("admin");
		String migration = launch("/jobs/new/migration?repo=roles.git", Map.of());
		String plan = launch("/jobs/new/deletion?repo=roles.git", Map.of("prefixes", "refs/pull/1"));
		chrome.findElement(By.id("confirmRepository")).sendKeys("roles.git");
		chrome.findElement(By.id("confirmCount")).sendKeys(chrome.findElement(By.id("plan-count")).getText());
		chrome.findElement(By.id("execute")).click();
		String deletion = awaitCompleted();
		schedule("roles-maintain", "Maintenance", null);
		// a deletion that deletes (an administrator's schedule), not the form's plan only
		schedule("roles-delete", "Deletion", "refs/pull/");
		chrome.get(url("/campaigns/new"));
		new Select(chrome.findElement(By.id("jobType"))).selectByVisibleText("Verification");
		chrome.findElement(By.id("target")).sendKeys("roles.git");
		chrome.findElement(By.id("launch")).click();
		waitFor(By.id("targets"));
		String campaign = path();
		forgetTheSession();
		pages = Map.ofEntries(Map.entry("dashboard", "/"), Map.entry("repository", "/repo?name=roles.git"),
				Map.entry("ref", "/repo/ref?name=roles.git&ref=refs/pull/2/head"), Map.entry("jobs", "/jobs"),
				Map.entry("migration", migration), Map.entry("plan", plan), Map.entry("deletion", deletion),
				Map.entry("schedules", "/schedules"), Map.entry("schedule-maintain", "/schedules/roles-maintain/edit"),
				Map.entry("schedule-delete", "/schedules/roles-delete/edit"), Map.entry("campaigns", "/campaigns"),
				Map.entry("campaign", campaign));
	}

	@Test
	void aViewerIsOfferedNothingThatChangesAnything() throws Exception {
		logIn("viewer");
		for (Map.Entry<String, String> page : pages.entrySet()) {
			open("viewer", page.getKey(), page.getValue());
			assertThat(changes()).as("controls offered to a viewer on " + page.getValue()).isEmpty();
		}
		for (String refused : new String[] { "/jobs/new/deletion?repo=roles.git", "/schedules/new", "/campaigns/new",
				"/audit" }) {
			assertThat(statusAs(refused)).as(refused).isEqualTo(403);
		}
	}

	@Test
	void anOperatorIsOfferedWhatAnOperatorMayDoAndNothingElse() throws Exception {
		logIn("operator");
		List<String> offered = new ArrayList<>();
		for (Map.Entry<String, String> page : pages.entrySet()) {
			open("operator", page.getKey(), page.getValue());
			offered.addAll(changes());
		}
		assertThat(offered).contains("GET /jobs/new/migration?repo=roles.git", "GET /jobs/new/deletion?repo=roles.git",
				"POST /schedules/roles-maintain/pause", "GET /schedules/roles-maintain/delete", "GET /schedules/new",
				"GET /campaigns/new");
		assertThat(offered).noneMatch((control) -> control.contains("/execute") || control.endsWith("/restore")
				|| control.contains("/jobs/new/restore") || control.contains("/jobs/new/rollback")
				|| control.contains("/repo/backups/drop") || control.contains("/schedules/roles-delete/")
				|| control.contains("/restart"));
		open("operator", "audit", "/audit");
		assertThat(statusAs("/jobs/new/rollback?repo=roles.git")).isEqualTo(403);
		assertThat(statusAs("/jobs/new/restore?repo=roles.git")).isEqualTo(403);
	}

	/**
	 * Opens a page as the logged-in role, waits for its late parts and keeps its picture.
	 */
	private void open(String role, String name, String path) {
		chrome.get(url(path));
		waitFor(By.tagName("main"));
		waitUpTo(Duration.ofSeconds(30)).until((driver) -> driver.findElements(By.cssSelector(".loading")).isEmpty());
		assertThat(chrome.findElement(By.cssSelector("header .who")).getText()).contains(role);
		screenshot("role-" + role + "-" + name);
	}

	/**
	 * The controls the page offers that change something: its POST forms (but Log out),
	 * and its links to a form that launches or creates, as {@code METHOD path}.
	 */
	private List<String> changes() {
		// read in one script: a WebDriver round trip per link and form took seconds a
		// page
		@SuppressWarnings("unchecked")
		List<List<String>> found = (List<List<String>>) chrome
			.executeScript("return [Array.from(document.querySelectorAll('form[method=post]'), (form) => form.action),"
					+ " Array.from(document.querySelectorAll('a[href]'), (link) => link.href)];");
		List<String> controls = new ArrayList<>();
		for (String form : found.get(0)) {
			String action = URI.create(form).getRawPath();
			if (!action.equals("/logout")) {
				controls.add("POST " + action);
			}
		}
		for (String link : found.get(1)) {
			URI href = URI.create(link);
			String path = href.getRawPath();
			if (path.startsWith("/jobs/new/") || path.endsWith("/new") || path.startsWith("/repo/backups/drop")
					|| path.endsWith("/delete")) {
				controls.add("GET " + path + ((href.getRawQuery() != null) ? "?" + href.getRawQuery() : ""));
			}
		}
		return controls;
	}

	/** The status of a GET of {@code path} with the browser's session. */
	private int statusAs(String path) throws Exception {
		Cookie session = chrome.manage().getCookieNamed("JSESSIONID");
		HttpResponse<Void> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create(url(path)))
				.header("Cookie", "JSESSIONID=" + session.getValue())
				.header("Accept", "text/html")
				.build(), HttpResponse.BodyHandlers.discarding());
		return response.statusCode();
	}

	private String launch(String form, Map<String, String> fields) {
		chrome.get(url(form));
		fields.forEach((field, value) -> chrome.findElement(By.id(field)).sendKeys(value));
		// a migration to reftable: its readers confirmed as git 2.45 or later
		chrome.findElements(By.cssSelector("input[type=checkbox][name=readersChecked]")).forEach(WebElement::click);
		chrome.findElement(By.id("launch")).click();
		return awaitCompleted();
	}

	private String awaitCompleted() {
		waitFor(By.id("steps"));
		awaitJobStatus("Completed", Duration.ofSeconds(90));
		return path();
	}

	/** A schedule of {@code job}; a deletion's of {@code prefixes}, deleting them. */
	private void schedule(String name, String job, String prefixes) {
		chrome.get(url("/schedules/new"));
		chrome.findElement(By.id("name")).sendKeys(name);
		new Select(chrome.findElement(By.id("jobType"))).selectByVisibleText(job);
		chrome.findElement(By.id("target")).sendKeys("roles.git");
		if (prefixes != null) {
			// the job's typed fields, swapped in as it was chosen
			waitFor(By.id("param-prefixes")).sendKeys(prefixes);
			chrome.findElement(By.id("param-planOnly")).click();
		}
		chrome.findElement(By.id("save")).click();
		waitFor(By.id("schedule-" + name));
	}

	private String path() {
		return chrome.getCurrentUrl().substring(url("").length());
	}

}
