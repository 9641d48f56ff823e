package io.refstore.web.console;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Starts Debian's headless Chromium through Debian's chromedriver, never a downloaded
 * browser or driver: both paths are given to Selenium, so its driver manager has nothing
 * to look up. The paths can be changed with {@code -Drefstore.chromium} and
 * {@code -Drefstore.chromedriver}. When either is missing the test fails with the command
 * that installs them, because a skipped browser test would hide a missing console.
 */
final class Chromium {

	static final String INSTALL_HINT = "install Debian's chromium and chromedriver: "
			+ "'apt-get update && apt-get install -y chromium chromium-driver' (.ci/run does this on CI)";

	private static final Path SCREENSHOTS = Path.of("target", "screenshots");

	private Chromium() {
	}

	/**
	 * A new headless browser with a window of {@code width} by {@code height} CSS pixels;
	 * the caller quits it.
	 * @throws AssertionError if chromium or chromedriver is missing, saying how to
	 * install them
	 */
	static ChromeDriver start(int width, int height) {
		Path browser = Path.of(System.getProperty("refstore.chromium", "/usr/bin/chromium"));
		Path driver = Path.of(System.getProperty("refstore.chromedriver", "/usr/bin/chromedriver"));
		for (Path needed : new Path[] { browser, driver }) {
			if (!Files.isExecutable(needed)) {
				throw new AssertionError(needed + " is missing or not executable; " + INSTALL_HINT);
			}
		}
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driver.toFile())
			.usingAnyFreePort()
			.build();
		ChromeOptions options = new ChromeOptions();
		options.setBinary(browser.toFile());
		// --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start
		options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
				"--window-size=" + width + "," + height, "--lang=en-US", "--disable-extensions", "--no-first-run",
				"--disable-background-networking");
		ChromeDriver chrome = new ChromeDriver(service, options);
		chrome.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
		return chrome;
	}

	/**
	 * Saves what the browser shows as {@code target/screenshots/<name>.png} (relative to
	 * the module, where Maven runs the tests).
	 * @return the file written
	 */
	static Path screenshot(ChromeDriver chrome, String name) {
		try {
			Files.createDirectories(SCREENSHOTS);
			Path file = SCREENSHOTS.resolve(name + ".png");
			Files.write(file, ((TakesScreenshot) chrome).getScreenshotAs(OutputType.BYTES));
			return file;
		}
		catch (IOException ex) {
			throw new AssertionError("could not save the screenshot " + name + ": " + ex, ex);
		}
	}

}
