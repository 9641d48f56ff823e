package io.refstore.web.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.support.ui.Select;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * In a real headless Chromium: an admin launches a migration and watches its live page
 * (polled by htmx, no reload) reach COMPLETED with its steps' progress shown, and git
 * then reads the repository as reftable, then rolls it back from the migration's page
 * (backup filled in, the name typed) and git reads the old store again; an admin plans a
 * deletion, reviews count and sample, is refused with a wrong typed confirmation,
 * confirms, sees the refs gone (git agrees), and restores them; a viewer sees no mutating
 * control and a POST made anyway is refused; an admin stops a throttled migration from
 * its live page (git still reads the old store, unchanged) and restarts it to COMPLETED;
 * an admin stops two running migrations from the list's running view and restarts them
 * there, with the counters, the pager and a migration's steps from the start, at 400 and
 * 1,400 px.
 */
class JobsBrowserIT extends BrowserTestSupport {

	@Test
	void anOperatorLaunchesAMigrationAndWatchesItComplete() {
		TempRepo repo = TempRepo.init(GitCli.system(), ROOT.resolve("to-migrate.git"), "--bare");
		String commit = repo.commit("one", null);
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < 3000; i++) {
			updates.append("create refs/heads/b/")
				.append(String.format("%05d", i))
				.append(' ')
				.append(commit)
				.append('\n');
		}
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		String before = repo.git("for-each-ref");
		logIn("admin");
		chrome.get(url("/repo?name=to-migrate.git"));
		chrome.findElement(By.linkText("Migrate…")).click();
		waitFor(By.id("launch-form"));
		chrome.findElement(By.id("chunkSize")).clear();
		chrome.findElement(By.id("chunkSize")).sendKeys("500");
		screenshot("jobs-migration-form");
		// to reftable without the readers confirmed: the form says what is missing
		chrome.findElement(By.id("launch")).click();
		assertThat(waitFor(By.id("readersChecked-error")).getText()).contains("2.45 or later");
		chrome.findElement(By.cssSelector("input[type=checkbox][name=readersChecked]")).click();
		chrome.findElement(By.id("launch")).click();
		waitFor(By.id("steps"));
		String page = chrome.getCurrentUrl();
		awaitJobStatus("Completed", Duration.ofSeconds(90));
		// polled in place by htmx; the page reloads itself once, at the end, at the same
		// address
		assertThat(chrome.getCurrentUrl()).isEqualTo(page);
		screenshot("jobs-migration-completed");
		waitForText(By.cssSelector("tr[data-step='copyRefsStep']"), "3,001 / 3,001");
		// 3,000 branches and HEAD
		assertThat(chrome.findElements(By.cssSelector("#steps progress"))).hasSizeGreaterThanOrEqualTo(4);
		// the job in words, the internals folded away
		waitForText(By.id("job-summary"),
				"Copied 3,001 refs and 0 reflog entries from files to reftable; digests match.");
		assertThat(chrome.findElement(By.tagName("h1")).getText()).endsWith(": Migration");
		assertThat(chrome.findElement(By.cssSelector("tr[data-step='copyRefsStep'] td")).getText())
			.isEqualTo("Copy refs");
		assertThat(chrome.findElement(By.id("internal-parameters")).isDisplayed()).isFalse();
		assertThat(chrome.findElement(By.id("parameters")).getText()).contains("Chunk size")
			.doesNotContain("chunkSize")
			.doesNotContain("launchId");
		assertThat(GitCli.reftable().ok(repo.dir(), "rev-parse", "--show-ref-format").trim()).isEqualTo("reftable");
		assertThat(GitCli.reftable().ok(repo.dir(), "for-each-ref")).isEqualTo(before);

		// roll back from the migration's page: the backup is filled in, the name typed
		String backup = chrome.findElement(By.id("backup-name")).getText();
		chrome.findElement(By.id("roll-back")).click();
		waitFor(By.id("launch-form"));
		// picked among the repository's backups, not typed
		assertThat(chrome.findElement(By.cssSelector("#backup-choices input[value='" + backup + "']")).isSelected())
			.isTrue();
		chrome.findElement(By.id("confirmRepository")).sendKeys("to-migrate");
		chrome.findElement(By.id("launch")).click();
		assertThat(waitFor(By.id("confirmRepository-error")).getText()).contains("to-migrate.git");
		chrome.findElement(By.id("confirmRepository")).clear();
		chrome.findElement(By.id("confirmRepository")).sendKeys("to-migrate.git");
		screenshot("jobs-rollback-form");
		chrome.findElement(By.id("launch")).click();
		waitUpTo(Duration.ofSeconds(90)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until((driver) -> driver.findElement(By.tagName("h1")).getText().endsWith(": Rollback")
					&& driver.findElement(By.id("job-status")).getText().equals("Completed"));
		screenshot("jobs-rollback-completed");
		assertThat(chrome.findElement(By.id("relations")).getText()).contains("Rolls back the migration of job");
		assertThat(GitCli.reftable().ok(repo.dir(), "rev-parse", "--show-ref-format").trim()).isEqualTo("files");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		chrome.get(page);
		assertThat(waitFor(By.id("rolled-back")).getText()).startsWith("Rolled back by job");
		assertThat(chrome.findElements(By.id("roll-back"))).isEmpty();
		// the backup is used up: listed only as asked, and a second rollback of it names
		// the job that used it
		chrome.get(url("/jobs/new/rollback?repo=to-migrate.git&backup=" + backup));
		assertThat(chrome.findElement(By.id("backup-asked")).getText()).contains("no longer among");
		chrome.findElement(By.id("confirmRepository")).sendKeys("to-migrate.git");
		chrome.findElement(By.id("launch")).click();
		assertThat(waitFor(By.id("backup-error")).getText()).contains("it was used by rollback job");
	}

	@Test
	void anOperatorStopsARunningMigrationFromItsLivePageAndRestartsItToCompletion() {
		TempRepo repo = TempRepo.init(GitCli.system(), ROOT.resolve("to-stop.git"), "--bare");
		String commit = repo.commit("one", null);
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < 2000; i++) {
			updates.append("create refs/heads/b/")
				.append(String.format("%05d", i))
				.append(' ')
				.append(commit)
				.append('\n');
		}
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		String before = repo.git("for-each-ref");
		logIn("admin");
		chrome.get(url("/jobs/new/migration?repo=to-stop.git"));
		chrome.findElement(By.id("chunkSize")).clear();
		chrome.findElement(By.id("chunkSize")).sendKeys("50");
		// 40 chunks of 50 refs with 250 ms between them: about ten seconds, time enough
		// to press Stop
		chrome.findElement(By.id("throttleMillis")).clear();
		chrome.findElement(By.id("throttleMillis")).sendKeys("250");
		chrome.findElement(By.cssSelector("input[type=checkbox][name=readersChecked]")).click();
		chrome.executeScript("document.getElementById('preflight').scrollIntoView();");
		screenshot("migration-preflight");
		chrome.findElement(By.id("launch")).click();
		String first = waitUpTo(Duration.ofSeconds(30))
			.ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until((driver) -> {
				var rows = driver.findElements(By.cssSelector("tr[data-step='copyRefsStep']"));
				return !rows.isEmpty() && !rows.get(0).getText().contains(" 0 /") ? driver.getCurrentUrl() : null;
			});
		screenshot("jobs-stop-running");
		// the time it has been running counts on while the page stays
		String elapsed = chrome.findElement(By.id("job-elapsed")).getText();
		waitUpTo(Duration.ofSeconds(10)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until((driver) -> !driver.findElement(By.id("job-elapsed")).getText().equals(elapsed));
		assertThat(chrome.getCurrentUrl()).isEqualTo(first);
		// Stop asks first, on a page of its own that a keyboard reaches like any other
		// (clicked again if the page's poll replaced the button under the click)
		waitUpTo(Duration.ofSeconds(10)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until((driver) -> {
				driver.findElement(By.id("stop")).click();
				return true;
			});
		assertThat(waitFor(By.tagName("h1")).getText()).startsWith("Stop job ");
		chrome.findElement(By.id("confirm")).click();
		awaitJobStatus("Stopped", Duration.ofSeconds(30));
		assertThat(chrome.getCurrentUrl()).isEqualTo(first);
		screenshot("jobs-stop-stopped");
		assertThat(chrome.findElement(By.id("job-summary")).getText())
			.isEqualTo("Stopped on request. Restarting continues where it stopped.");
		assertThat(chrome.findElement(By.tagName("main")).getText()).doesNotContain("Exception");
		assertThat(chrome.findElements(By.id("stop"))).isEmpty();
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		assertThat(GitCli.reftable().ok(repo.dir(), "rev-parse", "--show-ref-format").trim()).isEqualTo("files");

		chrome.findElement(By.id("restart")).click();
		waitUpTo(Duration.ofSeconds(90)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until((driver) -> !driver.getCurrentUrl().equals(first)
					&& driver.findElement(By.id("job-status")).getText().equals("Completed"));
		screenshot("jobs-stop-restarted");
		waitForText(By.cssSelector("tr[data-step='copyRefsStep']"), "2,001 / 2,001");
		assertThat(GitCli.reftable().ok(repo.dir(), "rev-parse", "--show-ref-format").trim()).isEqualTo("reftable");
		assertThat(GitCli.reftable().ok(repo.dir(), "for-each-ref")).isEqualTo(before);
	}

	@Test
	void anAdminPlansConfirmsExecutesAndRestoresADeletion() {
		TempRepo repo = TempRepo.init(GitCli.system(), ROOT.resolve("to-clean.git"), "--bare");
		String commit = repo.commit("one", null);
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < 1040; i++) {
			updates.append("create refs/pull/").append(i).append("/head ").append(commit).append('\n');
		}
		updates.append("create refs/heads/main ").append(commit).append('\n');
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		String before = repo.git("for-each-ref");
		logIn("admin");
		chrome.get(url("/jobs/new/deletion?repo=to-clean.git"));
		chrome.findElement(By.id("prefixes")).sendKeys("refs/pull/");
		chrome.findElement(By.id("launch")).click();
		String plan = waitUpTo(Duration.ofSeconds(60))
			.ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until((driver) -> driver.findElement(By.id("plan-count")))
			.getText();
		assertThat(plan).isEqualTo("1,040");
		assertThat(chrome.findElement(By.id("plan-sample")).getText()).startsWith("refs/pull/0/head");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		screenshot("jobs-deletion-plan");

		chrome.findElement(By.id("confirmRepository")).sendKeys("to-clean.git");
		chrome.findElement(By.id("confirmCount")).sendKeys("1,041");
		chrome.findElement(By.id("execute")).click();
		// refused on the plan's page, not on the POST's address, with what was typed
		assertThat(waitFor(By.id("confirm-error")).getText()).contains("1,040");
		assertThat(chrome.getCurrentUrl()).doesNotContain("/execute");
		assertThat(chrome.findElement(By.id("confirmCount")).getAttribute("value")).isEqualTo("1,041");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		// the count is accepted as the page shows it, separators and all
		chrome.findElement(By.id("confirmCount")).clear();
		chrome.findElement(By.id("confirmCount")).sendKeys(chrome.findElement(By.id("plan-count")).getText());
		chrome.findElement(By.id("execute")).click();
		waitFor(By.id("restore"));
		screenshot("jobs-deletion-executed");
		assertThat(repo.git("for-each-ref", "--format=%(refname)").trim()).isEqualTo("refs/heads/main");

		String deletionPage = chrome.getCurrentUrl();
		chrome.findElement(By.id("restoreRepository")).sendKeys("to-clean");
		chrome.findElement(By.id("restore")).click();
		assertThat(waitFor(By.id("restore-error")).getText()).contains("to-clean.git");
		assertThat(chrome.getCurrentUrl()).doesNotContain("/restore");
		assertThat(repo.git("for-each-ref", "--format=%(refname)").trim()).isEqualTo("refs/heads/main");
		chrome.findElement(By.id("restoreRepository")).clear();
		chrome.findElement(By.id("restoreRepository")).sendKeys("to-clean.git");
		chrome.findElement(By.id("restore")).click();
		waitUpTo(Duration.ofSeconds(60)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until((driver) -> driver.findElement(By.id("job-status")).getText().equals("Completed")
					&& driver.findElement(By.tagName("h1")).getText().contains("Restore"));
		screenshot("jobs-restored");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		chrome.get(deletionPage);
		assertThat(waitFor(By.id("restored")).getText()).startsWith("Restored by job");
		assertThat(chrome.findElements(By.id("restore"))).isEmpty();
	}

	/**
	 * Ref hygiene end to end: in the ref browser an admin filters the branches merged
	 * into main and older than 90 days (the list is git's answer), follows "Clean up" to
	 * the deletion form filled with that filter, reviews the plan (its criteria and why
	 * each ref was selected), executes it (exactly those branches go, git agrees) and
	 * restores them.
	 */
	@Test
	void anAdminCleansUpStaleMergedBranchesFromTheRefBrowserAndRestoresThem() {
		TempRepo repo = TempRepo.init(GitCli.system(), ROOT.resolve("to-tidy.git"), "--bare");
		GitCli old = GitCli.system().withEnv("GIT_COMMITTER_DATE", "@1600000000 +0000");
		String base = repo.with(old).commit("base", null);
		String merged = repo.with(old).commit("merged work", base);
		String unmerged = repo.with(old).commit("unmerged work", base);
		long now = java.time.Instant.now().getEpochSecond();
		String recent = repo.with(GitCli.system().withEnv("GIT_COMMITTER_DATE", "@" + (now - 86_400) + " +0000"))
			.commit("recent", merged);
		StringBuilder updates = new StringBuilder("create refs/heads/main " + recent + "\n");
		for (int i = 0; i < 6; i++) {
			updates.append("create refs/heads/stale/merged-").append(i).append(' ').append(merged).append('\n');
			updates.append("create refs/heads/stale/unmerged-").append(i).append(' ').append(unmerged).append('\n');
		}
		updates.append("create refs/heads/fresh ").append(recent).append('\n');
		updates.append("create refs/tags/v1 ").append(merged).append('\n');
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		String before = repo.git("for-each-ref");
		List<String> expected = new java.util.ArrayList<>(
				repo.git("for-each-ref", "--merged", "main", "--format=%(creatordate:unix) %(refname)", "refs/heads/")
					.lines()
					.filter((line) -> Long.parseLong(line.substring(0, line.indexOf(' '))) < now - 90 * 86_400)
					.map((line) -> line.substring(line.indexOf(' ') + 1))
					.toList());
		assertThat(expected).hasSize(6).allMatch((name) -> name.startsWith("refs/heads/stale/merged-"));

		logIn("admin");
		chrome.get(url("/repo?name=to-tidy.git&prefix=refs/heads/"));
		new Select(waitFor(By.id("merged"))).selectByValue("yes");
		new Select(chrome.findElement(By.id("older"))).selectByValue("90");
		chrome.findElement(By.id("search")).click();
		waitUpTo(Duration.ofSeconds(30)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until((driver) -> driver.getCurrentUrl().contains("older=90"));
		List<String> listed = chrome.findElements(By.cssSelector("#refs tbody tr[data-ref]:not(.root-ref)"))
			.stream()
			.map((row) -> row.getAttribute("data-ref"))
			.toList();
		assertThat(listed).containsExactlyElementsOf(expected);
		screenshot("hygiene-filtered");

		waitFor(By.id("cleanup-link")).click();
		assertThat(waitFor(By.id("mergedInto")).getAttribute("value")).isNotBlank();
		assertThat(chrome.findElement(By.id("olderThan")).getAttribute("value")).isEqualTo("90d");
		chrome.findElement(By.id("launch")).click();
		String count = waitUpTo(Duration.ofSeconds(60))
			.ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until((driver) -> driver.findElement(By.id("plan-count")))
			.getText();
		assertThat(count).isEqualTo("6");
		assertThat(chrome.findElement(By.id("plan-criteria")).getText()).contains("merged into refs/heads/main");
		assertThat(chrome.findElement(By.id("plan-sample")).getText()).contains("refs/heads/stale/merged-0")
			.contains("merged into refs/heads/main; committed 2020-09-13 12:26:40 UTC");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		screenshot("hygiene-plan");

		chrome.findElement(By.id("confirmRepository")).sendKeys("to-tidy.git");
		chrome.findElement(By.id("confirmCount")).sendKeys("6");
		chrome.findElement(By.id("execute")).click();
		waitFor(By.id("restore"));
		List<String> after = repo.git("for-each-ref", "--format=%(refname)").lines().toList();
		List<String> gone = before.lines().map((line) -> line.substring(line.indexOf('\t') + 1)).toList();
		assertThat(gone.stream().filter((name) -> !after.contains(name)).toList()).containsExactlyElementsOf(expected);

		chrome.findElement(By.id("restoreRepository")).sendKeys("to-tidy.git");
		chrome.findElement(By.id("restore")).click();
		waitUpTo(Duration.ofSeconds(60)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until((driver) -> driver.findElement(By.id("job-status")).getText().equals("Completed")
					&& driver.findElement(By.tagName("h1")).getText().contains("Restore"));
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		screenshot("hygiene-restored");
	}

	@Test
	void aViewerSeesNoMutatingControlsAndIsRefusedWhenPostingAnyway() {
		TempRepo.init(GitCli.system(), ROOT.resolve("viewed.git"), "--bare");
		logIn("viewer");
		chrome.get(url("/repo?name=viewed.git"));
		waitFor(By.id("refs"));
		assertThat(chrome.findElements(By.id("repo-actions"))).isEmpty();
		assertThat(chrome.findElements(By.linkText("Migrate…"))).isEmpty();
		screenshot("viewer-repository");
		chrome.get(url("/jobs/new/migration?repo=viewed.git"));
		assertThat(chrome.findElement(By.tagName("h1")).getText()).isEqualTo("Forbidden");
		// a POST with a valid session and CSRF token, as a crafted form would send it
		chrome.get(url("/repo?name=viewed.git"));
		Object status = ((JavascriptExecutor) chrome).executeAsyncScript(
				"""
						const done = arguments[arguments.length - 1];
						const token = document.querySelector('header form input[name=_csrf]').value;
						fetch('/jobs/new/migration', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
							body: 'repo=viewed.git&targetFormat=reftable&chunkSize=100&_csrf=' + encodeURIComponent(token) })
							.then((r) => done(r.status), (e) => done(String(e)));
						""");
		assertThat(status).isEqualTo(403L);
		chrome.get(url("/jobs?repo=viewed.git"));
		assertThat(chrome.findElement(By.id("jobs")).getText()).contains("No job matches these filters.");
		assertThat(chrome.findElements(By.cssSelector("#jobs input[type=checkbox]"))).isEmpty();
		assertThat(chrome.findElements(By.id("restart-selected"))).isEmpty();
		screenshot("viewer-refused");
	}

	/**
	 * Jobs like JobRunr: counters per status, the running view updating itself, two
	 * migrations selected and stopped, then selected and restarted, each step confirmed
	 * and each job's outcome said; the pager says where the page is; a migration's page
	 * lists its steps from the start with the overall progress. At 400 px nothing
	 * overflows sideways, at 1,400 px no name wraps inside a word.
	 */
	@Test
	void anAdminStopsAndRestartsSeveralJobsFromTheList() {
		for (String name : List.of("bulk-a.git", "bulk-b.git", "bulk-c.git")) {
			TempRepo repo = TempRepo.init(GitCli.system(), ROOT.resolve(name), "--bare");
			String commit = repo.commit("one", null);
			StringBuilder updates = new StringBuilder();
			for (int i = 0; i < 2000; i++) {
				updates.append("create refs/heads/b/")
					.append(String.format("%05d", i))
					.append(' ')
					.append(commit)
					.append('\n');
			}
			repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		}
		logIn("admin");
		chrome.get(url("/jobs/new/migration?repo=bulk-c.git"));
		chrome.findElement(By.id("dryRun1")).click();
		chrome.findElement(By.id("launch")).click();
		awaitJobStatus("Completed", Duration.ofSeconds(60));
		try {
			stopAndRestartSeveral();
		}
		finally {
			// the running view polls: leave it, so that no poll after the test opens a
			// session that would take the next login to it
			chrome.get("about:blank");
		}
	}

	private void stopAndRestartSeveral() {
		// a's page, where its launch leads, lists every step from the start, the ones to
		// come waiting
		String a = slowMigration("bulk-a.git");
		waitUpTo(Duration.ofSeconds(30)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until((driver) -> driver.findElement(By.id("job-progress-text")).getText().startsWith("Step 2 of 5"));
		assertThat(chrome.findElements(By.cssSelector("#steps tbody tr"))).hasSize(5);
		assertThat(chrome.findElement(By.cssSelector("tr[data-step='swapStorageStep']")).getText()).contains("Waiting");
		assertThat(chrome.findElement(By.id("job-status")).getText()).isEqualTo("Running");
		screenshot("job-steps-overview");
		String b = slowMigration("bulk-b.git");

		// the counters; the running view updates itself (the page is not reloaded)
		chrome.get(url("/jobs?repo=bulk-*"));
		assertThat(waitFor(By.cssSelector("#job-states a[data-status='STARTED'] .state-count")).getText())
			.isEqualTo("2");
		assertThat(chrome.findElement(By.cssSelector("#job-states a[data-status='COMPLETED'] .state-count")).getText())
			.isEqualTo("1");
		chrome.findElement(By.cssSelector("#job-states a[data-status='STARTED']")).click();
		waitFor(By.cssSelector("#jobs progress"));
		chrome.executeScript("window.notReloaded = true;");
		select(a, b);
		clickFresh(By.id("stop-selected"));
		assertThat(waitFor(By.id("confirm-jobs")).getText()).contains("Asked to stop");
		chrome.findElement(By.id("confirm")).click();
		assertThat(waitFor(By.id("bulk-outcomes")).getText()).contains("Stop requested");
		chrome.executeScript("window.notReloaded = true;");
		waitForText(By.id("jobs"), "No job is under way now.");
		assertThat(chrome.executeScript("return window.notReloaded === true;")).isEqualTo(true);
		waitForText(By.cssSelector("#job-states a[data-status='STOPPED'] .state-count"), "2");

		// both stopped: selected in their status and restarted
		chrome.findElement(By.cssSelector("#job-states a[data-status='STOPPED']")).click();
		waitFor(By.id("restart-selected"));
		select(a, b);
		chrome.findElement(By.id("restart-selected")).click();
		assertThat(waitFor(By.id("confirm-jobs")).getText()).contains("Restarted as a new job");
		assertThat(chrome.findElement(By.id("confirm")).getText()).isEqualTo("Restart 2 jobs");
		chrome.findElement(By.id("confirm")).click();
		List<String> outcomes = waitFor(By.id("bulk-outcomes")).findElements(By.tagName("li"))
			.stream()
			.map(org.openqa.selenium.WebElement::getText)
			.toList();
		assertThat(outcomes).hasSize(2)
			.allMatch(
					(line) -> line.matches(
							"Job \\d+ \\(Migration of bulk-[ab]\\.git\\): " + "Restarted as job \\d+\\. Open job \\d+"),
					"each says which job restarted it");
		assertThat(chrome.findElement(By.cssSelector("main .flash")).getText())
			.isEqualTo("Restarted 2 of 2 selected jobs.");
		screenshot("jobs-counters-bulk");
		String restarted = chrome.findElement(By.cssSelector("#bulk-outcomes li a:last-child")).getAttribute("href");

		// the pager says where the page is
		chrome.findElement(By.cssSelector("#job-states a[data-status='ALL']")).click();
		assertThat(waitFor(By.id("page-position")).getText()).isEqualTo("1–5 of 5");

		chrome.get(restarted);
		awaitJobStatus("Completed", Duration.ofSeconds(90));
		assertThat(chrome.findElement(By.id("job-progress-text")).getText())
			.isEqualTo("5 of 5 steps done, 100% in all");
		assertThat(chrome.findElement(By.cssSelector("tr[data-step='snapshotRefsStep']")).getText())
			.contains("Done earlier");

		try {
			chrome.manage().window().setSize(new org.openqa.selenium.Dimension(400, 900));
			chrome.get(url("/jobs?repo=bulk-*"));
			waitFor(By.id("jobs"));
			assertFitsSideways("/jobs");
			chrome.executeScript("document.getElementById('job-list').scrollIntoView();");
			screenshot("jobs-400px");
			chrome.get(restarted);
			waitFor(By.id("steps"));
			assertFitsSideways(restarted);
			chrome.get(url("/jobs/" + a + "/stop"));
			waitFor(By.tagName("main"));
			assertFitsSideways("the stop's confirmation");
			chrome.manage().window().setSize(new org.openqa.selenium.Dimension(1400, 900));
			chrome.get(url("/jobs?repo=bulk-*"));
			waitFor(By.id("jobs"));
			assertThat(wordsBrokenAcrossLines()).isEmpty();
			chrome.get(restarted);
			waitFor(By.id("steps"));
			assertThat(wordsBrokenAcrossLines()).isEmpty();
		}
		finally {
			chrome.manage().window().setSize(new org.openqa.selenium.Dimension(1280, 900));
		}
	}

	/** Launches a slow migration of {@code repo}; returns its execution id. */
	private String slowMigration(String repo) {
		chrome.get(url("/jobs/new/migration?repo=" + repo));
		chrome.findElement(By.id("chunkSize")).clear();
		chrome.findElement(By.id("chunkSize")).sendKeys("50");
		chrome.findElement(By.id("throttleMillis")).clear();
		// 40 chunks with half a second between them: time enough to stop both from the
		// list
		chrome.findElement(By.id("throttleMillis")).sendKeys("500");
		chrome.findElement(By.cssSelector("input[type=checkbox][name=readersChecked]")).click();
		chrome.findElement(By.id("launch")).click();
		waitFor(By.id("steps"));
		String page = chrome.getCurrentUrl();
		return page.substring(page.lastIndexOf('/') + 1);
	}

	/** Ticks the boxes of these jobs, which keep their state while the list updates. */
	private static void select(String... ids) {
		for (String id : ids) {
			waitUpTo(Duration.ofSeconds(10)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
				.until((driver) -> {
					var box = driver.findElement(By.id("select-" + id));
					if (!box.isSelected()) {
						box.click();
					}
					return box.isSelected();
				});
		}
	}

	/** Clicks an element a polling list may replace between finding and clicking. */
	private static void clickFresh(By locator) {
		waitUpTo(Duration.ofSeconds(10)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
			.until((driver) -> {
				driver.findElement(locator).click();
				return true;
			});
	}

	/** The page's main part is no wider than the window: nothing scrolls sideways. */
	private static void assertFitsSideways(String page) {
		Object widths = chrome
			.executeScript("var m = document.querySelector('main'); return [m.scrollWidth, m.clientWidth];");
		@SuppressWarnings("unchecked")
		List<Long> sizes = (List<Long>) widths;
		assertThat(sizes.get(0)).as("main's scroll width on " + page + " at 400 px").isLessThanOrEqualTo(sizes.get(1));
	}

	/**
	 * The words of the page's names (title, counters, the list's cells, steps and
	 * parameters) whose letters the browser put on two lines.
	 */
	@SuppressWarnings("unchecked")
	private static List<String> wordsBrokenAcrossLines() {
		return (List<String>) chrome.executeScript("""
				const broken = [];
				const cells = document.querySelectorAll(
					'main h1, #job-states a, #jobs td, #steps td, #parameters th, #parameters td, .pager');
				for (const cell of cells) {
					const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
					for (let node = walker.nextNode(); node; node = walker.nextNode()) {
						const words = /\\S+/g;
						for (let m = words.exec(node.textContent); m; m = words.exec(node.textContent)) {
							const range = document.createRange();
							range.setStart(node, m.index);
							range.setEnd(node, m.index + m[0].length);
							const tops = new Set(Array.from(range.getClientRects())
								.filter((r) => r.width > 0).map((r) => Math.round(r.top)));
							if (tops.size > 1) {
								broken.push(m[0]);
							}
						}
					}
				}
				return broken;
				""");
	}

}
