package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import io.refstore.core.journal.JournalHook;
import io.refstore.core.repo.Repository;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * The journal in a real headless Chromium, judged by git 2.55: a viewer sees who deleted
 * a branch and its last value but no restore; an admin restores it from the deleted refs
 * page and undoes a force-push from the ref's history, and git then reads both refs as
 * they were; the ref's page shows its journal.
 */
class JournalBrowserIT extends BrowserTestSupport {

	static final String REPO = "journal.git";

	static TempRepo repo;

	static String c1;

	static String c2;

	@BeforeAll
	static void repositoryWithAJournal() throws IOException {
		repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(REPO), "--bare", "--ref-format=reftable");
		try (Repository repository = Repository.open(repo.gitDir(), GitCli.system().environment())) {
			JournalHook.install(repository, JournalHook.DEFAULT_WRITER_ENV);
		}
		GitCli alice = repo.git().withEnv("GL_USERNAME", "alice");
		c1 = repo.commit("one", null);
		c2 = repo.commit("two", c1);
		alice.ok(repo.dir(), "update-ref", "refs/heads/main", c2);
		alice.ok(repo.dir(), "update-ref", "refs/heads/release", c1);
		alice.ok(repo.dir(), "update-ref", "-d", "refs/heads/release", c1);
		// a force-push back to the first commit
		alice.ok(repo.dir(), "update-ref", "refs/heads/main", c1, c2);
	}

	@Test
	void aViewerSeesTheDeletionAnAdminRestoresItAndUndoesAForcePush() {
		logIn("viewer");
		chrome.get(url("/repo?name=" + REPO));
		navigate(waitFor(By.id("deleted-link")));
		WebElement row = waitFor(By.cssSelector("#deleted tbody tr"));
		assertThat(row.getText()).contains("refs/heads/release", "git (GL_USERNAME=alice)", c1.substring(0, 12), "yes");
		assertThat(chrome.findElements(By.cssSelector("#deleted input[type=checkbox]"))).isEmpty();
		assertThat(chrome.findElements(By.id("restore-selected"))).isEmpty();
		forgetTheSession();

		logIn("admin");
		chrome.get(url("/repo/deleted?name=" + REPO));
		waitFor(By.cssSelector("#deleted input[type=checkbox][value='refs/heads/release']")).click();
		screenshot("journal-deleted-refs");
		navigate(chrome.findElement(By.id("restore-selected")));
		waitForText(By.cssSelector(".flash"), "Restored refs/heads/release.");
		waitFor(By.id("no-deleted"));
		assertThat(repo.git("rev-parse", "refs/heads/release")).isEqualTo(c1 + "\n");

		chrome.get(url("/repo/journal?name=" + REPO + "&ref=refs/heads/main"));
		assertThat(waitFor(By.id("journal-status")).getText()).startsWith("The journal's hook is installed:")
			.contains("entries recorded");
		List<WebElement> undo = waitFor(By.id("journal")).findElements(By.cssSelector("button.undo"));
		// newest first: the force-push, then main's creation (which has nothing to
		// restore)
		assertThat(undo).hasSize(1);
		assertThat(undo.get(0).getText()).isEqualTo("Restore to before");
		screenshot("journal-ref-history");
		navigate(undo.get(0));
		waitForText(By.cssSelector(".flash"), "Undone: refs/heads/main");
		assertThat(repo.git("rev-parse", "refs/heads/main")).isEqualTo(c2 + "\n");
		// the undo itself is journaled (refstore runs the hook as git does)
		assertThat(chrome.findElements(By.cssSelector("#journal tbody tr"))).hasSize(3);

		chrome.get(url("/repo/ref?name=" + REPO + "&ref=refs/heads/main"));
		WebElement history = waitFor(By.id("ref-journal"));
		assertThat(history.findElements(By.cssSelector("tbody tr"))).hasSize(3);
		assertThat(history.getText()).contains("moved", "GL_USERNAME=alice");
	}

	private static void navigate(WebElement clickable) {
		WebElement oldPage = chrome.findElement(By.tagName("html"));
		clickable.click();
		waitUpTo(java.time.Duration.ofSeconds(30)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until(org.openqa.selenium.support.ui.ExpectedConditions.stalenessOf(oldPage));
	}

}
