package io.refstore.web.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.refstore.core.journal.JournalBase;
import io.refstore.core.journal.JournalHook;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * Point-in-time restore through the API, judged by git 2.55 in both formats: git writes
 * after the moment (a push's update, a {@code branch -D} and a creation that report no
 * old value, a forced update, {@code pack-refs}' reports of refs it did not change) are
 * worked out from the journal and its base, previewed, applied by a job that git then
 * sees, journaled as the job's, and undone by a second job; bad moments and a restore
 * that changes nothing are refused, and only an ADMIN restores.
 */
class RewindApiIT extends ApiTestSupport {

	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void refsArePutBackAsTheyWereAtAMomentAndTheRestoreIsUndone(String format) throws Exception {
		String name = uniqueName("rewind-" + format);
		TempRepo repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(name), "--bare", "--ref-format=" + format);
		String c1 = repo.commit("one", null);
		String c2 = repo.commit("two", c1);
		// before the journal: in its base only
		repo.git("update-ref", "refs/heads/main", c1);
		repo.git("update-ref", "refs/heads/old", c1);
		repo.git("update-ref", "refs/heads/steady", c1);
		journal(repo);
		repo.git("update-ref", "refs/heads/feature", c2);
		Instant at = pause();

		repo.git("update-ref", "refs/heads/main", c2, c1);
		repo.git("branch", "-D", "old");
		repo.git("update-ref", "refs/heads/new-branch", c2);
		repo.git("update-ref", "refs/heads/feature", c1);
		repo.git("update-ref", "refs/tags/v1", c2);
		if (format.equals("files")) {
			// reports every ref as created, and the loose ones as deleted
			repo.git("pack-refs", "--all");
		}
		Map<String, String> after = repo.refs();

		this.mvc
			.perform(get(repoUri(name, "/journal/rewind")).param("at", at.toString())
				.param("prefix", "refs/heads/")
				.with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.creates[*].ref").value(contains("refs/heads/old")))
			.andExpect(jsonPath("$.creates[0].target").value(c1))
			.andExpect(jsonPath("$.deletes[*].ref").value(contains("refs/heads/new-branch")))
			.andExpect(jsonPath("$.moves[*].ref").value(contains("refs/heads/feature", "refs/heads/main")))
			.andExpect(jsonPath("$.moves[0].current").value(c1))
			.andExpect(jsonPath("$.moves[0].target").value(c2))
			.andExpect(jsonPath("$.moves[1].target").value(c1))
			.andExpect(jsonPath("$.missing.length()").value(0))
			.andExpect(jsonPath("$.unknown.length()").value(0))
			.andExpect(jsonPath("$.counts.unchanged").value(format.equals("files") ? 1 : 0));

		this.mvc.perform(rewind(name, at.toString(), "refs/heads/").with(as("operator")))
			.andExpect(status().isForbidden());
		assertThat(repo.refs()).isEqualTo(after);
		String body = this.mvc.perform(rewind(name, at.toString(), "refs/heads/").with(as("admin")))
			.andExpect(status().isCreated())
			.andExpect(jsonPath("$.job").value("rewindRefsJob"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		DocumentContext job = awaitEnd(JsonPath.parse(body).read("$.id", Long.class));
		assertThat(job.read("$.status", String.class)).isEqualTo("COMPLETED");
		assertThat(job.read("$.results['rewind.applied']", String.class)).isEqualTo("4");
		Map<String, String> rewound = new TreeMap<>(after);
		rewound.put("refs/heads/main", c1);
		rewound.put("refs/heads/feature", c2);
		rewound.put("refs/heads/old", c1);
		rewound.remove("refs/heads/new-branch");
		assertThat(repo.refs()).isEqualTo(rewound);
		// journaled as the job's, by its launcher
		this.mvc.perform(get(repoUri(name, "/journal")).param("ref", "refs/heads/main").with(as("viewer")))
			.andExpect(jsonPath("$.items[0].new").value(c1))
			.andExpect(jsonPath("$.items[0].writer").value("job"))
			.andExpect(jsonPath("$.items[0].identity").value("REMOTE_USER=admin"));
		// nothing left to do at that moment
		this.mvc.perform(rewind(name, at.toString(), "refs/heads/").with(as("admin")))
			.andExpect(status().isConflict())
			.andExpect(jsonPath("$.detail").value(containsString("hold their values")));

		String plan = job.read("$.parameters.plan", String.class);
		String undo = this.mvc
			.perform(post(repoUri(name, "/journal/rewind:undo")).contentType(MediaType.APPLICATION_JSON)
				.content("{\"plan\": \"" + plan + "\"}")
				.with(as("admin")))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(awaitEnd(JsonPath.parse(undo).read("$.id", Long.class)).read("$.status", String.class))
			.isEqualTo("COMPLETED");
		assertThat(repo.refs()).isEqualTo(after);
	}

	@Test
	void badMomentsAreRefusedNamingThemAndChangeNothing() throws Exception {
		String name = uniqueName("rewind-bad");
		TempRepo repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(name), "--bare");
		repo.git("update-ref", "refs/heads/main", repo.commit("one", null));
		journal(repo);
		Map<String, String> before = repo.refs();
		for (String at : List.of("yesterday", "2026-12-05T14:03:00", Instant.now().plusSeconds(3600).toString())) {
			this.mvc.perform(get(repoUri(name, "/journal/rewind")).param("at", at).with(as("viewer")))
				.andExpect(status().isBadRequest())
				.andExpect(jsonPath("$.parameter").value("at"));
			this.mvc.perform(rewind(name, at, "").with(as("admin")))
				.andExpect(status().isBadRequest())
				.andExpect(jsonPath("$.parameter").value("at"));
		}
		this.mvc.perform(get(repoUri(name, "/journal/rewind")).with(as("viewer")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("at"));
		this.mvc
			.perform(post(repoUri(name, "/journal/rewind:undo")).contentType(MediaType.APPLICATION_JSON)
				.content("{\"plan\": \"../../config\"}")
				.with(as("admin")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("plan"));
		assertThat(repo.refs()).isEqualTo(before);
		assertThat(repo.gitDir().resolve("refstore-plans")).doesNotExist();
	}

	/**
	 * Installs the journal's hook and takes its base, as
	 * {@code refstore journal install}.
	 */
	private static void journal(TempRepo repo) throws IOException {
		try (Repository repository = Repository.open(repo.gitDir(), GitCli.system().environment());
				RefStore store = RefStores.open(repository)) {
			JournalHook.install(repository, JournalHook.DEFAULT_WRITER_ENV);
			JournalBase.writeIfAbsent(repository.commonDir(), store);
		}
	}

	/** A moment between the writes before and those after, clear of both by the clock. */
	private static Instant pause() throws InterruptedException {
		Thread.sleep(20);
		Instant at = Instant.now();
		Thread.sleep(20);
		return at;
	}

	private static MockHttpServletRequestBuilder rewind(String repo, String at, String prefix) {
		return post(repoUri(repo, "/journal/rewind")).contentType(MediaType.APPLICATION_JSON)
			.content("{\"at\": \"" + at + "\", \"prefix\": \"" + prefix + "\"}");
	}

	private DocumentContext awaitEnd(long id) {
		AtomicReference<DocumentContext> last = new AtomicReference<>();
		Awaitility.await("execution " + id)
			.atMost(Duration.ofSeconds(90))
			.pollInterval(Duration.ofMillis(50))
			.untilAsserted(() -> {
				DocumentContext job = JsonPath.parse(this.mvc.perform(get("/api/jobs/" + id).with(as("operator")))
					.andReturn()
					.getResponse()
					.getContentAsString());
				last.set(job);
				assertThat(job.read("$.running", Boolean.class)).as("execution %d running", id).isFalse();
				assertThat(job.read("$.results", Map.class)).containsKey("rewind.applied");
			});
		return last.get();
	}

}
