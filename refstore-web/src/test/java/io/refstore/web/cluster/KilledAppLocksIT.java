package io.refstore.web.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.util.FileSystemUtils;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.PostgresDatabase;

/**
 * The application killed with {@code SIGKILL} while API batches hold their loose-ref
 * locks: the locks stay (links to the application's owner record) and git cannot write
 * those refs; the next start of the application removes exactly them, and a lock made by
 * hand stays. Then git writes every ref again and {@code git refs verify} finds nothing.
 */
class KilledAppLocksIT {

	private static final GitCli GIT = GitCli.reftable();

	/** Refs per batch: enough for the batch to hold its locks a while. */
	private static final int BATCH = 3_000;

	@Test
	void aRestartClearsTheLocksOfAKilledApplicationAndNoOneElses() throws Exception {
		Path dir = Files.createTempDirectory("refstore-locks").toRealPath();
		Path root = Files.createDirectories(dir.resolve("repos"));
		TempRepo repo = TempRepo.init(GIT, root.resolve("locked.git"), "--bare");
		String commit = repo.commit("one", null);
		Path heads = repo.gitDir().resolve("refs/heads");
		Path handMade = Files.createDirectories(heads).resolve("by-hand.lock");
		Files.writeString(handMade, "");
		List<Path> left;
		try (PostgresDatabase db = PostgresDatabase.create("refstore_locks")) {
			try (AppProcess app = start("locks-a", db, dir, root)) {
				app.awaitUp();
				left = killDuringBatches(app, heads, commit);
			}
			assertThat(left).as("locks the killed application left").isNotEmpty();
			String locked = refOf(repo.gitDir(), left.get(0));
			assertThat(GIT.run(repo.dir(), "update-ref", locked, commit).stderr()).contains("File exists");

			try (AppProcess app = start("locks-b", db, dir, root)) {
				app.awaitUp();
				await("the restart cleared the dead application's locks", () -> linkedLocks(heads).isEmpty());
				assertThat(handMade).as("a lock no refstore owner made").exists();
				String second = repo.commit("two", commit);
				GIT.ok(repo.dir(), "update-ref", locked, second);
				HttpResponse<String> write = app.postJson("/api/repos/locked.git/refs:batch", """
						{"updates":[{"ref":"%s","old":"%s","new":"%s"}]}""".formatted(locked, second, commit));
				assertThat(write.statusCode()).as(write.body()).isEqualTo(200);
			}
		}
		assertThat(handMade).exists();
		assertThat(GIT.run(repo.dir(), "update-ref", "refs/heads/by-hand", commit).stderr()).contains("File exists");
		Files.delete(handMade);
		GIT.ok(repo.dir(), "refs", "verify");
		GIT.ok(repo.dir(), "for-each-ref");
		// kept when a check failed above, for its logs
		FileSystemUtils.deleteRecursively(dir);
	}

	/**
	 * Posts batches of new refs one after another until a batch holds its locks, and
	 * kills the application then.
	 * @return the locks left
	 */
	private static List<Path> killDuringBatches(AppProcess app, Path heads, String commit) throws Exception {
		AtomicBoolean stop = new AtomicBoolean();
		CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
			for (int batch = 0; !stop.get(); batch++) {
				StringBuilder json = new StringBuilder("{\"updates\":[");
				for (int i = 0; i < BATCH; i++) {
					json.append((i > 0) ? "," : "")
						.append("{\"ref\":\"refs/heads/b")
						.append(batch)
						.append("/r")
						.append(i)
						.append("\",\"new\":\"")
						.append(commit)
						.append("\"}");
				}
				try {
					app.postJson("/api/repos/locked.git/refs:batch", json.append("]}").toString());
				}
				catch (IOException ex) {
					return;
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		});
		try {
			await("a batch holding its locks", () -> linkedLocks(heads).size() >= 100);
			app.kill();
		}
		finally {
			stop.set(true);
		}
		writer.handle((done, failure) -> null).get();
		return linkedLocks(heads);
	}

	/** The lock files below {@code heads} that are links to an owner record. */
	private static List<Path> linkedLocks(Path heads) throws IOException {
		try (Stream<Path> files = Files.walk(heads)) {
			return files.filter((file) -> file.getFileName().toString().endsWith(".lock")).filter((file) -> {
				try {
					return (Integer) Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS) > 1;
				}
				catch (IOException ex) {
					// gone meanwhile: its batch went on
					return false;
				}
			}).toList();
		}
		catch (java.io.UncheckedIOException ex) {
			// a directory went away during the walk (a batch removed an emptied one)
			return List.of();
		}
	}

	private static String refOf(Path gitDir, Path lock) {
		String path = gitDir.relativize(lock).toString();
		return path.substring(0, path.length() - ".lock".length());
	}

	private static AppProcess start(String id, PostgresDatabase db, Path dir, Path root) throws Exception {
		Path home = Files.createDirectories(dir.resolve(id));
		return AppProcess.start(id, db.url(), home, root, dir.resolve(id + ".log"));
	}

	private static void await(String what, java.util.concurrent.Callable<Boolean> condition) {
		Awaitility.await(what).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(20)).until(condition);
	}

}
