package io.refstore.web.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MvcResult;

import com.jayway.jsonpath.JsonPath;

import io.refstore.core.journal.JournalEntry;
import io.refstore.core.journal.JournalHook;
import io.refstore.core.journal.JournalReader;
import io.refstore.core.repo.Repository;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * The journal through the API, judged by git 2.55 in both formats: git's own writes
 * (through the installed hook, with the pushing user's variable) are ingested once each,
 * in order, whatever the number of queries; the deleted refs view lists what git deleted
 * with its last value and whether the object is still there, and leaves out refs that
 * exist; a restore and an undo are compare-and-swap writes that git then sees, refused
 * when the ref changed since, for VIEWERs, or for a pruned object.
 */
class JournalApiIT extends ApiTestSupport {

	@Autowired
	JournalIngester ingester;

	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void gitsChangesAreListedDeletedRefsRestoredAndAForcePushUndone(String format) throws Exception {
		String name = uniqueName("journal-" + format);
		TempRepo repo = journaled(name, format);
		GitCli alice = repo.git().withEnv("GL_USERNAME", "alice");
		String c1 = repo.commit("one", null);
		String c2 = repo.commit("two", c1);
		alice.ok(repo.dir(), "update-ref", "refs/heads/main", c1);
		alice.ok(repo.dir(), "update-ref", "refs/heads/feature", c2);
		alice.ok(repo.dir(), "update-ref", "refs/heads/gone-too", c1);
		alice.ok(repo.dir(), "update-ref", "refs/heads/main", c2, c1);
		// a force-push back: both values known, as receive-pack reports them
		alice.ok(repo.dir(), "update-ref", "refs/heads/main", c1, c2);
		// git branch -D reports no old value: the last value comes from the creation
		alice.ok(repo.dir(), "branch", "-D", "feature");
		alice.ok(repo.dir(), "update-ref", "-d", "refs/heads/gone-too", c1);

		this.mvc.perform(get(repoUri(name, "/journal/status")).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.installed").value(true))
			.andExpect(jsonPath("$.skipped").value(0))
			.andExpect(jsonPath("$.ingestedAt").isNotEmpty());
		this.mvc.perform(get(repoUri(name, "/journal")).param("ref", "refs/heads/main").with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.items.length()").value(3))
			.andExpect(jsonPath("$.items[0].old").value(c2))
			.andExpect(jsonPath("$.items[0].new").value(c1))
			.andExpect(jsonPath("$.items[0].writer").value("git"))
			.andExpect(jsonPath("$.items[0].identity").value("GL_USERNAME=alice"))
			.andExpect(jsonPath("$.items[2].old").value(zero()))
			.andExpect(jsonPath("$.next").doesNotExist());

		MvcResult deleted = this.mvc.perform(get(repoUri(name, "/journal/deleted")).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.items.length()").value(2))
			.andExpect(jsonPath("$.items[1].ref").value("refs/heads/feature"))
			.andExpect(jsonPath("$.items[1].lastValue").value(c2))
			.andExpect(jsonPath("$.items[1].objectExists").value(true))
			.andExpect(jsonPath("$.items[1].identity").value("GL_USERNAME=alice"))
			.andReturn();
		assertThat(JsonPath.<List<String>>read(deleted.getResponse().getContentAsString(), "$.items[*].ref"))
			.containsExactly("refs/heads/gone-too", "refs/heads/feature");

		this.mvc.perform(restore(name, "refs/heads/feature").with(as("viewer"))).andExpect(status().isForbidden());
		this.mvc.perform(restore(name, "refs/heads/feature").with(as("admin")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.results[0].status").value("ok"));
		assertThat(repo.git("rev-parse", "refs/heads/feature")).isEqualTo(c2 + "\n");
		// the restore is journaled as the API's, by its user
		this.mvc.perform(get(repoUri(name, "/journal")).param("ref", "refs/heads/feature").with(as("viewer")))
			.andExpect(jsonPath("$.items[0].new").value(c2))
			.andExpect(jsonPath("$.items[0].writer").value("api"))
			.andExpect(jsonPath("$.items[0].identity").value("REMOTE_USER=admin"));
		// restored: no longer deleted, and a second restore is refused, changing nothing
		this.mvc.perform(get(repoUri(name, "/journal/deleted")).with(as("viewer")))
			.andExpect(jsonPath("$.items[*].ref").value(contains("refs/heads/gone-too")));
		this.mvc.perform(restore(name, "refs/heads/feature").with(as("admin"))).andExpect(status().isConflict());
		this.mvc.perform(restore(name, "refs/heads/main").with(as("admin")))
			.andExpect(status().isConflict())
			.andExpect(jsonPath("$.detail").value(containsString("refs/heads/main")));

		long forcePush = newestId(name, "refs/heads/main");
		this.mvc.perform(post(repoUri(name, "/journal/" + forcePush + "/undo")).with(as("admin")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.status").value("ok"));
		assertThat(repo.git("rev-parse", "refs/heads/main")).isEqualTo(c2 + "\n");
		// the ref no longer holds what that change set
		this.mvc.perform(post(repoUri(name, "/journal/" + forcePush + "/undo")).with(as("admin")))
			.andExpect(status().isPreconditionFailed());
		assertThat(repo.git("rev-parse", "refs/heads/main")).isEqualTo(c2 + "\n");

		this.mvc
			.perform(
					get("/api/audit").param("action", "journal.restore").param("repository", name).with(as("operator")))
			.andExpect(jsonPath("$.entries[*].outcome").value(contains("REJECTED", "REJECTED", "SUCCESS")));
	}

	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void aRefWhoseObjectWasPrunedIsListedAsNotRestorable(String format) throws Exception {
		String name = uniqueName("journal-pruned-" + format);
		TempRepo repo = journaled(name, format);
		String kept = repo.commit("kept", null);
		repo.git("update-ref", "refs/heads/main", kept);
		String lost = repo.commit("lost", kept);
		repo.git("update-ref", "refs/heads/lost", lost);
		repo.git("update-ref", "-d", "refs/heads/lost");
		repo.git("prune", "--expire=now");
		assertThat(repo.git().run(repo.dir(), "cat-file", "-e", lost).exitCode()).isNotZero();

		this.mvc.perform(get(repoUri(name, "/journal/deleted")).with(as("viewer")))
			.andExpect(jsonPath("$.items[0].ref").value("refs/heads/lost"))
			.andExpect(jsonPath("$.items[0].lastValue").value(lost))
			.andExpect(jsonPath("$.items[0].objectExists").value(false));
		this.mvc.perform(restore(name, "refs/heads/lost").with(as("admin")))
			.andExpect(status().isUnprocessableContent())
			.andExpect(jsonPath("$.detail").value(containsString(lost)));
		assertThat(repo.git("for-each-ref", "--format=%(refname)")).isEqualTo("refs/heads/main\n");
	}

	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void entriesAreIngestedOnceInOrderAndPagedNewestFirst(String format) throws Exception {
		String name = uniqueName("journal-pages-" + format);
		TempRepo repo = journaled(name, format);
		String c1 = repo.commit("one", null);
		StringBuilder stdin = new StringBuilder();
		for (int i = 0; i < 25; i++) {
			stdin.append("create refs/heads/b").append(i < 10 ? "0" : "").append(i).append(' ').append(c1).append('\n');
		}
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		for (int i = 0; i < 5; i++) {
			repo.git("update-ref", "-d", "refs/heads/b0" + i);
		}
		// what git wrote, oldest first
		List<JournalEntry> written = new ArrayList<>();
		try (JournalReader reader = JournalReader.open(journalFile(repo))) {
			for (JournalEntry entry = reader.next(); entry != null; entry = reader.next()) {
				written.add(entry);
			}
		}
		assertThat(written).hasSizeGreaterThanOrEqualTo(30);
		// queries and sweeps ingest again: nothing twice
		assertThat(this.ingester.ingest(name)).isEqualTo(written.size());
		assertThat(this.ingester.ingest(name)).isZero();
		this.ingester.sweep();

		List<String> listed = new ArrayList<>();
		long before = 0;
		do {
			MvcResult page = this.mvc
				.perform(get(repoUri(name, "/journal")).param("limit", "7")
					.param("before", Long.toString(before))
					.with(as("viewer")))
				.andExpect(status().isOk())
				.andReturn();
			String json = page.getResponse().getContentAsString();
			listed.addAll(JsonPath.<List<String>>read(json, "$.items[*].ref"));
			Number next = JsonPath.read(json, "$.next");
			assertThat(page.getResponse().getHeader("Link") != null).isEqualTo(next != null);
			before = (next == null) ? -1 : next.longValue();
		}
		while (before > 0);
		List<String> newestFirst = new ArrayList<>(written.stream().map(JournalEntry::refName).toList());
		Collections.reverse(newestFirst);
		assertThat(listed).isEqualTo(newestFirst);
		assertThat(listed.get(0)).isEqualTo("refs/heads/b04");
		// the 25 creations were one transaction
		MvcResult creations = this.mvc
			.perform(get(repoUri(name, "/journal")).param("prefix", "refs/heads/b2").with(as("viewer")))
			.andExpect(jsonPath("$.items.length()").value(5))
			.andReturn();
		assertThat(JsonPath.<List<String>>read(creations.getResponse().getContentAsString(), "$.items[*].transaction")
			.stream()
			.distinct()).hasSize(1);
		this.mvc.perform(get(repoUri(name, "/journal")).param("writer", "api").with(as("viewer")))
			.andExpect(jsonPath("$.items.length()").value(0));
	}

	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void aLineStillBeingWrittenWaitsAndADamagedOneIsSkipped(String format) throws Exception {
		String name = uniqueName("journal-torn-" + format);
		TempRepo repo = journaled(name, format);
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		Path journal = journalFile(repo);
		String line = "1-1\t1700000000.000000000\t" + zero() + "\t" + c1 + "\trefs/heads/appended\tgit\t\n";
		append(journal, "not an entry\n" + line.substring(0, 20));
		assertThat(this.ingester.ingest(name)).isEqualTo(1);
		append(journal, line.substring(20));
		assertThat(this.ingester.ingest(name)).isEqualTo(1);
		this.mvc.perform(get(repoUri(name, "/journal")).with(as("viewer")))
			.andExpect(jsonPath("$.items[*].ref").value(contains("refs/heads/appended", "refs/heads/main")));
	}

	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void aJournalCopiedWithItsBytesGoesOnAndAReplacedOneIsReadFromItsStart(String format) throws Exception {
		String name = uniqueName("journal-moved-" + format);
		TempRepo repo = journaled(name, format);
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/one", c1);
		repo.git("update-ref", "refs/heads/two", c1);
		assertThat(this.ingester.ingest(name)).isEqualTo(2);
		Path journal = journalFile(repo);
		// another file (another inode) with the same bytes, as a copy of the repository
		// has
		Path copy = journal.resolveSibling("journal.copy");
		Files.copy(journal, copy);
		Files.move(copy, journal, StandardCopyOption.REPLACE_EXISTING);
		repo.git("update-ref", "refs/heads/three", c1);
		assertThat(this.ingester.ingest(name)).isEqualTo(1);
		// replaced by a file with other bytes: read from its start
		String line = "9-9\t1700000000.000000000\t" + zero() + "\t" + c1 + "\trefs/heads/other-file\tgit\t\n";
		Files.writeString(journal, line.repeat(5));
		assertThat(this.ingester.ingest(name)).isEqualTo(5);
		this.mvc.perform(get(repoUri(name, "/journal")).with(as("viewer")))
			.andExpect(jsonPath("$.items.length()").value(8));
		// the status counts every entry the database took, from both files
		this.mvc.perform(get(repoUri(name, "/journal/status")).with(as("viewer")))
			.andExpect(jsonPath("$.entries").value(8));
	}

	@ParameterizedTest
	@ValueSource(strings = { "files" })
	void aPackOfRefsThatGitReportsAsDeletionsListsNoDeletedRef(String format) throws Exception {
		String name = uniqueName("journal-pack-" + format);
		TempRepo repo = journaled(name, format);
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		repo.git("update-ref", "refs/heads/other", c1);
		repo.git("pack-refs", "--all");
		this.mvc.perform(get(repoUri(name, "/journal/deleted")).with(as("viewer")))
			.andExpect(jsonPath("$.items.length()").value(0));
	}

	@Test
	void theFleetsJournalFindsEveryRefThatPointedAtAnObjectAndWhoDeletedRefs() throws Exception {
		String unique = uniqueName("fleet");
		String prefix = "refs/heads/" + unique + "/";
		TempRepo files = journaled(uniqueName("journal-fleet-files"), "files");
		TempRepo reftable = journaled(uniqueName("journal-fleet-reftable"), "reftable");
		String c1 = files.commit(unique, null);
		assertThat(reftable.commit(unique, null)).isEqualTo(c1);
		for (TempRepo repo : List.of(files, reftable)) {
			GitCli alice = repo.git().withEnv("GL_USERNAME", "alice");
			alice.ok(repo.dir(), "update-ref", prefix + "release-" + repo.dir().getFileName(), c1);
			alice.ok(repo.dir(), "update-ref", "-d", prefix + "release-" + repo.dir().getFileName(), c1);
			repo.git("update-ref", prefix + "kept", c1);
		}
		// git reports the loose ref it prunes as deleted: it exists, so it is no deletion
		files.git("pack-refs", "--all");
		this.ingester.sweep();

		MvcResult pointed = this.mvc
			.perform(get("/api/journal").param("object", c1.toUpperCase(Locale.ROOT))
				.param("prefix", prefix)
				.with(as("viewer")))
			.andExpect(status().isOk())
			.andReturn();
		String json = pointed.getResponse().getContentAsString();
		assertThat(JsonPath.<List<String>>read(json, "$.items[*].repository"))
			.contains(files.dir().getFileName().toString(), reftable.dir().getFileName().toString());
		assertThat(JsonPath.<List<String>>read(json, "$.items[*].ref")).contains(
				prefix + "release-" + files.dir().getFileName(), prefix + "release-" + reftable.dir().getFileName(),
				prefix + "kept");

		MvcResult deleted = this.mvc
			.perform(get("/api/journal").param("deleted", "true").param("prefix", prefix).with(as("viewer")))
			.andExpect(status().isOk())
			.andReturn();
		String deletions = deleted.getResponse().getContentAsString();
		assertThat(JsonPath.<List<String>>read(deletions, "$.items[*].ref")).containsExactly(
				prefix + "release-" + reftable.dir().getFileName(), prefix + "release-" + files.dir().getFileName());
		assertThat(JsonPath.<List<String>>read(deletions, "$.items[*].identity")).containsOnly("GL_USERNAME=alice");

		this.mvc.perform(get("/api/journal").param("object", "xyz").with(as("viewer")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("object"));
		this.mvc.perform(get("/api/journal").with(as("nobody"))).andExpect(status().isForbidden());
	}

	@ParameterizedTest
	@ValueSource(strings = { "files" })
	void badQueriesAreProblemsNamingTheParameter(String format) throws Exception {
		String name = uniqueName("journal-bad-" + format);
		journaled(name, format);
		this.mvc.perform(get(repoUri(name, "/journal")).param("limit", "0").with(as("viewer")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("limit"));
		this.mvc.perform(get(repoUri(name, "/journal")).param("writer", "nobody").with(as("viewer")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("writer"));
		this.mvc.perform(post(repoUri(name, "/journal/12345678/undo")).with(as("admin")))
			.andExpect(status().isNotFound());
		this.mvc
			.perform(post(repoUri(name, "/journal/deleted:restore")).contentType(MediaType.APPLICATION_JSON)
				.content("{\"refs\": []}")
				.with(as("admin")))
			.andExpect(status().isBadRequest());
		this.mvc.perform(get(repoUri("no-such-repo", "/journal")).with(as("viewer"))).andExpect(status().isNotFound());
		// a repository without the hook says so
		String plain = uniqueName("journal-none");
		bareRepo(plain);
		this.mvc.perform(get(repoUri(plain, "/journal/status")).with(as("viewer")))
			.andExpect(jsonPath("$.installed").value(false))
			.andExpect(jsonPath("$.entries").value(0))
			.andExpect(jsonPath("$.ingestedAt").doesNotExist());
	}

	private org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder restore(String name,
			String ref) {
		return post(repoUri(name, "/journal/deleted:restore")).contentType(MediaType.APPLICATION_JSON)
			.content("{\"refs\": [\"" + ref + "\"]}");
	}

	private long newestId(String name, String ref) throws Exception {
		MvcResult result = this.mvc.perform(get(repoUri(name, "/journal")).param("ref", ref).with(as("viewer")))
			.andReturn();
		return ((Number) JsonPath.read(result.getResponse().getContentAsString(), "$.items[0].id")).longValue();
	}

	/** A bare repository of the format made by git 2.55, with the journal hook. */
	private static TempRepo journaled(String name, String format) throws IOException {
		TempRepo repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(name), "--bare", "--ref-format=" + format);
		try (Repository repository = Repository.open(repo.gitDir(), GitCli.system().environment())) {
			JournalHook.install(repository, JournalHook.DEFAULT_WRITER_ENV);
		}
		return repo;
	}

	private static Path journalFile(TempRepo repo) {
		return JournalHook.journalFile(repo.gitDir());
	}

	private static void append(Path file, String text) throws IOException {
		Files.writeString(file, text, StandardOpenOption.APPEND);
	}

	private static String zero() {
		return "0".repeat(40);
	}

}
