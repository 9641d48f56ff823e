package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import io.refstore.core.journal.JournalBase;
import io.refstore.core.journal.JournalHook;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Point-in-time restore in a real headless Chromium, judged by git 2.55: a viewer sees
 * the preview but no restore; an admin previews the branches as they were at a moment (to
 * the second, UTC), confirms with the repository's name, follows the job to its end, and
 * undoes it from the job's page; git reads the branches as they were then, and again as
 * they were before.
 */
class RewindBrowserIT extends BrowserTestSupport {

	static final String REPO = "rewind.git";

	static TempRepo repo;

	static String c1;

	static String c2;

	static String moment;

	@BeforeAll
	static void branchesChangedAfterAMoment() throws IOException, InterruptedException {
		repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(REPO), "--bare", "--ref-format=files");
		c1 = repo.commit("one", null);
		c2 = repo.commit("two", c1);
		repo.git("update-ref", "refs/heads/main", c1);
		repo.git("update-ref", "refs/heads/release", c1);
		try (Repository repository = Repository.open(repo.gitDir(), GitCli.system().environment());
				RefStore store = RefStores.open(repository)) {
			JournalHook.install(repository, JournalHook.DEFAULT_WRITER_ENV);
			JournalBase.writeIfAbsent(repository.commonDir(), store);
		}
		// the moment is a whole second (the form's precision): the writes after it come
		// after that second
		Instant second = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
		Thread.sleep(Math.max(0, Duration.between(Instant.now(), second).toMillis() + 1050));
		moment = LocalDateTime.ofInstant(second, ZoneOffset.UTC).toString();
		GitCli alice = repo.git().withEnv("GL_USERNAME", "alice");
		alice.ok(repo.dir(), "update-ref", "refs/heads/main", c2, c1);
		alice.ok(repo.dir(), "branch", "-D", "release");
		alice.ok(repo.dir(), "update-ref", "refs/heads/topic", c2);
	}

	@Test
	void anAdminPreviewsRestoresAndUndoesAndAViewerOnlyPreviews() {
		logIn("viewer");
		chrome.get(url("/repo/rewind?name=" + REPO + "&prefix=refs/heads/&at=" + moment));
		assertThat(waitFor(By.id("rewind-summary")).getText()).startsWith("1 to create, 1 to delete, 1 to move back");
		assertThat(chrome.findElements(By.id("confirm-rewind"))).isEmpty();
		forgetTheSession();

		logIn("admin");
		chrome.get(url("/repo?name=" + REPO));
		navigate(waitFor(By.id("rewind-link")));
		((JavascriptExecutor) chrome).executeScript("arguments[0].value = arguments[1]", waitFor(By.id("at")), moment);
		navigate(chrome.findElement(By.id("preview")));
		WebElement changes = waitFor(By.id("rewind-changes"));
		assertThat(changes.getText()).contains("refs/heads/topic", "delete", "refs/heads/release", "create",
				"refs/heads/main", "move back");
		screenshot("journal-point-in-time-preview");
		chrome.findElement(By.id("confirmRepository")).sendKeys(REPO);
		navigate(chrome.findElement(By.id("rewind")));
		awaitJobStatus("Completed", Duration.ofSeconds(60));
		assertThat(waitFor(By.id("job-summary")).getText()).startsWith("Set 3 refs back");
		assertThat(repo.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/"))
			.isEqualTo("refs/heads/main " + c1 + "\nrefs/heads/release " + c1 + "\n");

		chrome.navigate().refresh();
		screenshot("journal-point-in-time-job");
		waitFor(By.id("undoRepository")).sendKeys(REPO);
		navigate(chrome.findElement(By.id("undo-rewind")));
		awaitJobStatus("Completed", Duration.ofSeconds(60));
		assertThat(repo.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/"))
			.isEqualTo("refs/heads/main " + c2 + "\nrefs/heads/topic " + c2 + "\n");
		// an undo is not undone from its page
		chrome.navigate().refresh();
		waitFor(By.id("job-summary"));
		assertThat(chrome.findElements(By.id("undo-rewind"))).isEmpty();
	}

	private static void navigate(WebElement clickable) {
		WebElement oldPage = chrome.findElement(By.tagName("html"));
		clickable.click();
		waitUpTo(Duration.ofSeconds(30)).ignoring(StaleElementReferenceException.class)
			.until(ExpectedConditions.stalenessOf(oldPage));
	}

}
