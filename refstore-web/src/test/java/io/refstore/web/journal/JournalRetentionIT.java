package io.refstore.web.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import com.jayway.jsonpath.JsonPath;

import io.refstore.core.journal.JournalHook;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * The journal's settings and retention, judged by git 2.55: an ADMIN switches journaling
 * on (the hook and the base) and off (the entries stay, git's changes are no longer
 * recorded); a retention in entries keeps the newest and each ref's newest older change,
 * so a point-in-time restore from the horizon on is still right, and one before it is
 * refused; a journal file ingested whole is set aside and an append in flight at the
 * rename is not lost.
 */
class JournalRetentionIT extends ApiTestSupport {

	@Autowired
	JournalRetention retention;

	@Autowired
	JournalIngester ingester;

	@Test
	void anAdminSwitchesJournalingOnAndOffAndTheEntriesStay() throws Exception {
		String name = uniqueName("journal-switch");
		TempRepo repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(name), "--bare", "--ref-format=reftable");
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		this.mvc.perform(get(repoUri(name, "/journal/settings")).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.enabled").value(false));
		this.mvc.perform(settings(name, "{\"enabled\": true}").with(as("operator"))).andExpect(status().isForbidden());
		this.mvc.perform(settings(name, "{\"enabled\": true}").with(as("admin")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.enabled").value(true));
		assertThat(repo.gitDir().resolve("hooks/reference-transaction")).isExecutable();
		assertThat(Files.readString(repo.gitDir().resolve("refstore/journal-base")))
			.endsWith(c1 + " refs/heads/main\n");
		repo.git("update-ref", "refs/heads/on", c1);

		this.mvc.perform(settings(name, "{\"enabled\": false}").with(as("admin")))
			.andExpect(jsonPath("$.enabled").value(false));
		assertThat(repo.gitDir().resolve("hooks/reference-transaction")).doesNotExist();
		repo.git("update-ref", "refs/heads/off", c1);
		this.mvc.perform(get(repoUri(name, "/journal")).with(as("viewer")))
			.andExpect(jsonPath("$.items[*].ref").value(contains("refs/heads/on")));
		this.mvc.perform(
				get("/api/audit").param("action", "journal.settings").param("repository", name).with(as("operator")))
			.andExpect(jsonPath("$.entries.length()").value(2));
		this.mvc.perform(settings(name, "{\"maxAgeDays\": -1}").with(as("admin")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("maxAgeDays"));
	}

	@Test
	void retentionKeepsEachRefsNewestOlderChangeAndRefusesARestoreBeforeIt() throws Exception {
		String name = uniqueName("journal-retention");
		TempRepo repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(name), "--bare", "--ref-format=files");
		List<String> commits = repo.commits(6, "c");
		this.mvc.perform(settings(name, "{\"enabled\": true}").with(as("admin"))).andExpect(status().isOk());
		// old: main moves five times, keep is made once; then a moment; then three newer
		// changes
		repo.git("update-ref", "refs/heads/keep", commits.get(0));
		for (int i = 0; i < 5; i++) {
			repo.git("update-ref", "refs/heads/main", commits.get(i));
		}
		Thread.sleep(20);
		Instant between = Instant.now();
		Thread.sleep(20);
		repo.git("update-ref", "refs/heads/main", commits.get(5));
		repo.git("update-ref", "refs/heads/new", commits.get(5));
		repo.git("update-ref", "refs/heads/newer", commits.get(5));
		this.mvc.perform(settings(name, "{\"maxEntries\": 3}").with(as("admin")))
			.andExpect(jsonPath("$.maxEntries").value(3));

		assertThat(this.retention.apply(name).deleted()).isEqualTo(4);

		String kept = this.mvc.perform(get(repoUri(name, "/journal")).with(as("viewer")))
			.andReturn()
			.getResponse()
			.getContentAsString();
		// the three newest, then main's and keep's newest older changes
		assertThat(JsonPath.<List<String>>read(kept, "$.items[*].ref")).containsExactly("refs/heads/newer",
				"refs/heads/new", "refs/heads/main", "refs/heads/main", "refs/heads/keep");
		assertThat(JsonPath.<String>read(kept, "$.items[3].new")).isEqualTo(commits.get(4));
		this.mvc.perform(get(repoUri(name, "/journal/rewind")).param("at", between.toString()).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.moves[0].ref").value("refs/heads/main"))
			.andExpect(jsonPath("$.moves[0].target").value(commits.get(4)))
			.andExpect(jsonPath("$.deletes[*].ref").value(contains("refs/heads/new", "refs/heads/newer")))
			.andExpect(jsonPath("$.counts.unknown").value(0));
		String settings = this.mvc.perform(get(repoUri(name, "/journal/settings")).with(as("viewer")))
			.andReturn()
			.getResponse()
			.getContentAsString();
		Instant pruned = Instant.parse(JsonPath.read(settings, "$.prunedBefore"));
		this.mvc
			.perform(get(repoUri(name, "/journal/rewind")).param("at", pruned.minusMillis(1).toString())
				.with(as("viewer")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.detail").value(containsString("retention pruned")));
		// a second sweep has nothing more to delete
		assertThat(this.retention.apply(name).deleted()).isZero();
	}

	@Test
	void aBranchDeletedWithoutItsOldValueBeforeTheHorizonKeepsTheChangeThatSetItsValue() throws Exception {
		String name = uniqueName("journal-retention-branch-d");
		TempRepo repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(name), "--bare", "--ref-format=files");
		List<String> commits = repo.commits(3, "c");
		this.mvc.perform(settings(name, "{\"enabled\": true}").with(as("admin"))).andExpect(status().isOk());
		repo.git("update-ref", "refs/heads/gone", commits.get(0));
		repo.git("update-ref", "refs/heads/gone", commits.get(1));
		// a deletion journaled without its old value, as a hook of refstore before it
		// read
		// old values journaled branch -D (and as the hook still journals a transaction of
		// more than 1,000 unchecked updates): the branch deleted with no hook run, the
		// line that hook wrote appended
		repo.git("-c", "core.hooksPath=/dev/null", "branch", "-D", "gone");
		long now = Instant.now().getEpochSecond();
		Files.writeString(JournalHook.journalFile(repo.gitDir()),
				"%d.000000000-1\t%d.000000000\t%s\t%s\trefs/heads/gone\tgit\t\n".formatted(now, now, "0".repeat(40),
						"0".repeat(40)),
				StandardOpenOption.APPEND);
		repo.git("update-ref", "refs/heads/new", commits.get(2));
		repo.git("update-ref", "refs/heads/newer", commits.get(2));
		this.mvc.perform(settings(name, "{\"maxEntries\": 2}").with(as("admin"))).andExpect(status().isOk());

		// the creation goes; the deletion and the change that set the value it deleted
		// stay
		assertThat(this.retention.apply(name).deleted()).isEqualTo(1);
		this.mvc.perform(get(repoUri(name, "/journal")).param("ref", "refs/heads/gone").with(as("viewer")))
			.andExpect(jsonPath("$.items[*].new").value(contains("0".repeat(40), commits.get(1))));
		this.mvc.perform(get(repoUri(name, "/journal/deleted")).with(as("viewer")))
			.andExpect(jsonPath("$.items[0].ref").value("refs/heads/gone"))
			.andExpect(jsonPath("$.items[0].lastValue").value(commits.get(1)));
		this.mvc
			.perform(post(repoUri(name, "/journal/deleted:restore")).contentType(MediaType.APPLICATION_JSON)
				.content("{\"refs\": [\"refs/heads/gone\"]}")
				.with(as("admin")))
			.andExpect(status().isOk());
		assertThat(repo.git("rev-parse", "refs/heads/gone")).isEqualTo(commits.get(1) + "\n");
		assertThat(this.retention.apply(name).deleted()).isZero();
	}

	@Test
	void anIngestedFileIsSetAsideAndAnAppendInFlightIsNotLost() throws Exception {
		String name = uniqueName("journal-compact");
		TempRepo repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(name), "--bare", "--ref-format=reftable");
		this.mvc.perform(settings(name, "{\"enabled\": true}").with(as("admin"))).andExpect(status().isOk());
		String c1 = repo.commit("one", null);
		for (int i = 0; i < 5; i++) {
			repo.git("update-ref", "refs/heads/before-" + i, c1);
		}
		Path journal = JournalHook.journalFile(repo.gitDir());
		assertThat(this.ingester.ingest(name)).isEqualTo(5);
		String late = System.currentTimeMillis() / 1000 + ".000000000-1\t" + System.currentTimeMillis() / 1000
				+ ".000000000\t" + "0".repeat(40) + "\t" + c1 + "\trefs/heads/in-flight\tgit\t\n";
		try (FileChannel inFlight = FileChannel.open(journal, StandardOpenOption.APPEND)) {
			CompletableFuture<Boolean> compacted = CompletableFuture.supplyAsync(() -> {
				try {
					return this.ingester.compact(name, 1, Duration.ofMillis(1500));
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
			Thread.sleep(500);
			// a writer that opened the file before the rename writes after it
			inFlight.write(ByteBuffer.wrap(late.getBytes(StandardCharsets.UTF_8)));
			assertThat(compacted.get()).isTrue();
		}
		assertThat(journal).doesNotExist();
		assertThat(journal.resolveSibling("journal.ingested")).exists();
		repo.git("update-ref", "refs/heads/after", c1);
		assertThat(this.ingester.ingest(name)).isEqualTo(1);
		String listed = this.mvc.perform(get(repoUri(name, "/journal")).with(as("viewer")))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(JsonPath.<List<String>>read(listed, "$.items[*].ref")).containsExactly("refs/heads/after",
				"refs/heads/in-flight", "refs/heads/before-4", "refs/heads/before-3", "refs/heads/before-2",
				"refs/heads/before-1", "refs/heads/before-0");
		// a file not ingested whole is left for the next round
		repo.git("update-ref", "refs/heads/unread", c1);
		assertThat(this.ingester.compact(name, 1, Duration.ZERO)).isFalse();
	}

	private static MockHttpServletRequestBuilder settings(String repo, String json) {
		return put(repoUri(repo, "/journal/settings")).contentType(MediaType.APPLICATION_JSON).content(json);
	}

}
