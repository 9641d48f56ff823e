package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The browser tests' shared setup: the whole application on a free port over a temporary
 * home (its own repository root and H2 file, demo off), the users {@code viewer},
 * {@code operator} and {@code admin} with password {@link #PASSWORD}, and one headless
 * Chromium per test class, logged out between tests. All browser test classes share this
 * one application context.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
public abstract class BrowserTestSupport {

	/** The password of every browser test user. */
	protected static final String PASSWORD = "browser-password";

	/** The home directory of the application under test. */
	protected static final Path HOME = createHome();

	/** Its repository root. */
	protected static final Path ROOT = HOME.resolve("repos");

	protected static ChromeDriver chrome;

	@LocalServerPort
	protected int port;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		String hash = "{bcrypt}" + new BCryptPasswordEncoder(4).encode(PASSWORD);
		registry.add("refstore.home", HOME::toString);
		registry.add("refstore.repositories.roots[0]", ROOT::toString);
		registry.add("refstore.demo.enabled", () -> "false");
		// webhooks reach the tests' receivers on this machine
		registry.add("refstore.webhooks.allow-local", () -> "true");
		String[][] users = { { "viewer", "VIEWER" }, { "operator", "OPERATOR" }, { "admin", "ADMIN" } };
		for (int i = 0; i < users.length; i++) {
			String[] user = users[i];
			registry.add("refstore.security.users[" + i + "].name", () -> user[0]);
			registry.add("refstore.security.users[" + i + "].password", () -> hash);
			registry.add("refstore.security.users[" + i + "].roles", () -> user[1]);
		}
	}

	@BeforeAll
	static void startBrowser() {
		chrome = Chromium.start(1280, 900);
	}

	@AfterAll
	static void quitBrowser() {
		if (chrome != null) {
			chrome.quit();
			chrome = null;
		}
	}

	@AfterEach
	void forgetTheSession() {
		chrome.manage().deleteAllCookies();
	}

	/** The absolute URL of a path of the application. */
	protected String url(String path) {
		return "http://localhost:" + this.port + path;
	}

	/** Logs in through the login form and waits for the dashboard. */
	protected void logIn(String user) {
		chrome.get(url("/login"));
		chrome.findElement(By.id("username")).sendKeys(user);
		chrome.findElement(By.id("password")).sendKeys(PASSWORD);
		chrome.findElement(By.id("login")).click();
		waitFor(By.id("repos"));
		assertThat(chrome.findElement(By.cssSelector("header .who")).getText()).contains(user);
	}

	/**
	 * A wait of up to {@code timeout} that asks the browser every 100 ms (Selenium's
	 * default, 500 ms, added a quarter of a second on average to every wait not over at
	 * once: a page's late parts, a job's end), and asks again when the page replaced an
	 * element between a lookup and the read of what it found ({@link PageWait}).
	 */
	protected static WebDriverWait waitUpTo(Duration timeout) {
		return new PageWait(chrome, timeout);
	}

	/**
	 * A wait whose condition is tried again when the element it read was taken out of the
	 * page in the middle of a WebDriver command: pages that poll (htmx) replace their
	 * elements, and Chromium reports an element replaced mid-command not as a stale
	 * element but as "Node with given id does not belong to the document" (CI: a job's
	 * page, JobsBrowserIT). Stale elements are for each wait's {@code ignoring}.
	 */
	private static final class PageWait extends WebDriverWait {

		PageWait(WebDriver driver, Duration timeout) {
			super(driver, timeout, Duration.ofMillis(100));
		}

		@Override
		public <V> V until(Function<? super WebDriver, ? extends V> condition) {
			return super.until((driver) -> {
				try {
					return condition.apply(driver);
				}
				catch (WebDriverException ex) {
					if (String.valueOf(ex.getMessage()).contains("does not belong to the document")) {
						// not yet: the next try looks the element up again
						return null;
					}
					throw ex;
				}
			});
		}

	}

	/** Waits (up to 30 s) until an element is on the page, and returns it. */
	protected static org.openqa.selenium.WebElement waitFor(By locator) {
		return waitUpTo(Duration.ofSeconds(30)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until(ExpectedConditions.presenceOfElementLocated(locator));
	}

	/**
	 * Waits (up to 30 s) until an element's text contains {@code text}, finding the
	 * element again on every try: pages that poll (htmx) or reload replace their elements
	 * under a test.
	 */
	protected static void waitForText(By locator, String text) {
		waitUpTo(Duration.ofSeconds(30)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until(ExpectedConditions.textToBePresentInElementLocated(locator, text));
	}

	/**
	 * Waits (up to {@code timeout}) until a job's page shows {@code status}, read in one
	 * script: the page polls and replaces its elements, also between a WebDriver lookup
	 * and the read of what it found ("Node with given id does not belong to the
	 * document").
	 */
	protected static void awaitJobStatus(String status, Duration timeout) {
		waitUpTo(timeout).until((driver) -> status.equals(((org.openqa.selenium.JavascriptExecutor) driver)
			.executeScript("var e = document.getElementById('job-status'); return e && e.textContent.trim();")));
	}

	/** Saves a screenshot under {@code target/screenshots}. */
	protected static void screenshot(String name) {
		Chromium.screenshot(chrome, name);
	}

	private static Path createHome() {
		try {
			Path home = Files.createTempDirectory("refstore-console-it");
			Files.createDirectories(home.resolve("repos"));
			Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(home)));
			return home.toRealPath();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void deleteTree(Path dir) {
		try (Stream<Path> walk = Files.walk(dir)) {
			walk.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// best effort at exit
		}
	}

}
