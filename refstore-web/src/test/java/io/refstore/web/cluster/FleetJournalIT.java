package io.refstore.web.cluster;

import static io.refstore.web.cluster.FleetIT.await;
import static io.refstore.web.cluster.FleetIT.json;
import static io.refstore.web.cluster.FleetIT.rows;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import com.jayway.jsonpath.DocumentContext;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.PostgresDatabase;

/**
 * The ref journal across a fleet of two nodes in two JVMs sharing one PostgreSQL database
 * (started as {@link FleetIT} starts its nodes): alpha holds one repository, beta two,
 * each journaled (switched on through alpha's API for beta's) and written by git 2.39
 * (pushes, {@code update-ref}) and git 2.55 ({@code update-ref}, {@code branch -D}).
 * Through alpha, a repository of beta's journal reads as beta ingested it (API and
 * console, its pages' links leading back through alpha), an ADMIN restores its deleted
 * branches and puts its refs back as they were at a moment by a job that runs on beta
 * (git on beta's disk judges both), the fleet-wide queries include beta's entries, and a
 * VIEWER reads it all but is refused every restore. One fleet serves the four tests, run
 * in order: the second changes what the third reads.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FleetJournalIT {

	/** Beta's repository that is read, never restored. */
	private static final String READ = "team/journaled.git";

	/** Beta's repository whose refs are restored. */
	private static final String RESTORED = "team/restored.git";

	/** Alpha's own journaled repository. */
	private static final String LOCAL = "team/local.git";

	/**
	 * The names the console, the fleet list and the journal's answers give them: the
	 * fleet has two storages, so each is qualified by its storage.
	 */
	private static final String READ_QUALIFIED = "s-beta/" + READ;

	private static final String RESTORED_QUALIFIED = "s-beta/" + RESTORED;

	private static final String LOCAL_QUALIFIED = "s-alpha/" + LOCAL;

	private static final String ZEROS = "0".repeat(40);

	private Path dir;

	private PostgresDatabase db;

	private AppProcess alpha;

	private AppProcess beta;

	private TempRepo read;

	private TempRepo restored;

	private String c1;

	private String c2;

	/** A moment between the writes before it and those after, to the second. */
	private Instant moment;

	@BeforeAll
	void startTheFleetAndWriteToItsRepositoriesWithGit() throws Exception {
		this.dir = Files.createTempDirectory("refstore-fleet-journal").toRealPath();
		Path alphaDisk = Files.createDirectories(this.dir.resolve("alpha-disk"));
		Path betaDisk = Files.createDirectories(this.dir.resolve("beta-disk"));
		this.read = bare(betaDisk.resolve(READ));
		this.restored = bare(betaDisk.resolve(RESTORED));
		TempRepo local = bare(alphaDisk.resolve(LOCAL));
		// commits made with git's fixed clock: the same ids in every repository
		TempRepo work = TempRepo.init(GitCli.system(), this.dir.resolve("work"));
		this.c1 = work.commit("one", null);
		this.c2 = work.commit("two", this.c1);
		assertThat(local.commit("one", null)).isEqualTo(this.c1);

		this.db = PostgresDatabase.create("refstore_fleet_journal");
		List<String> settings = new ArrayList<>(List.of("--refstore.journal.ingest-interval=1s"));
		settings.addAll(AppProcess.user(1, "viewer", "VIEWER"));
		this.alpha = FleetIT.start("alpha", this.db, this.dir, alphaDisk, FleetIT.FLEET_SECRET,
				settings.toArray(String[]::new));
		this.beta = FleetIT.start("beta", this.db, this.dir, betaDisk, FleetIT.FLEET_SECRET,
				settings.toArray(String[]::new));
		this.alpha.awaitUp();
		this.beta.awaitUp();
		await("alpha lists the three repositories",
				() -> json(this.alpha.get("/api/fleet/repositories")).read("$.total", Integer.class) == 3);
		assertThat(json(this.alpha.get("/api/fleet/repositories")).read("$.repositories[*].name", List.class))
			.as("the fleet list's names, which the console is opened by")
			.containsExactlyInAnyOrder(READ_QUALIFIED, RESTORED_QUALIFIED, LOCAL_QUALIFIED);

		// switched on through alpha, for beta's repositories as for its own
		for (String name : List.of(READ, RESTORED, LOCAL)) {
			HttpResponse<String> on = this.alpha.send("PUT", api(name, "/settings"), "{\"enabled\": true}", Map.of(),
					true);
			assertThat(on.statusCode()).as(on.body()).isEqualTo(200);
			assertThat(json(on).read("$.enabled", Boolean.class)).isTrue();
		}
		for (TempRepo repo : List.of(this.read, this.restored, local)) {
			assertThat(repo.gitDir().resolve("hooks/reference-transaction")).as("the hook, on the node's disk")
				.isExecutable();
		}

		GitCli git239 = GitCli.system();
		GitCli git255 = GitCli.reftable();
		local.with(git255).git("update-ref", "refs/heads/main", this.c1);
		for (TempRepo repo : List.of(this.read, this.restored)) {
			git239.withEnv("GL_USERNAME", "alice")
				.ok(work.dir(), "push", "-q", repo.gitDir().toString(), this.c1 + ":refs/heads/main",
						this.c1 + ":refs/heads/release-1", this.c1 + ":refs/heads/release-2");
			repo.with(git255).git("update-ref", "refs/heads/feature", this.c1);
		}
		// the moment: a whole second (the console's form has seconds) clear of both
		// sides' writes
		this.moment = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
		Thread.sleep(Math.max(0, this.moment.toEpochMilli() + 300 - System.currentTimeMillis()));
		for (TempRepo repo : List.of(this.read, this.restored)) {
			git239.withEnv("GL_USERNAME", "alice")
				.ok(work.dir(), "push", "-q", repo.gitDir().toString(), this.c2 + ":refs/heads/main",
						":refs/heads/release-1");
			repo.with(git255.withEnv("GL_USERNAME", "bob")).git("branch", "-D", "release-2");
			repo.with(git255).git("update-ref", "refs/heads/topic", this.c2);
			repo.with(git239).git("update-ref", "refs/heads/feature", this.c2, this.c1);
		}
	}

	@AfterAll
	void stopTheFleet() throws Exception {
		try (PostgresDatabase database = this.db; AppProcess a = this.alpha; AppProcess b = this.beta) {
			// closed in reverse order
		}
	}

	@Test
	@Order(1)
	void nodeAShowsTheJournalOfNodeBsRepositoryAsNodeBIngestedIt() throws Exception {
		// the API: each answer as beta gives it, and every entry beta ingested
		for (String query : List.of("", "?ref=refs/heads/feature", "?prefix=refs/heads/release-", "?writer=git",
				"/deleted", "/deleted?prefix=refs/heads/release-")) {
			HttpResponse<String> throughAlpha = this.alpha.get(api(READ, query));
			assertThat(throughAlpha.statusCode()).as(query + ": " + throughAlpha.body()).isEqualTo(200);
			assertThat(throughAlpha.body()).as(query).isEqualTo(this.beta.get(api(READ, query)).body());
		}
		DocumentContext timeline = json(this.alpha.get(api(READ, "")));
		List<List<String>> ingested = rows(this.db,
				"SELECT e.id, e.ref_name, e.old_value, e.new_value, e.writer, e.identity FROM refstore_journal_entry e"
						+ " JOIN refstore_journal_source s ON s.id = e.source_id WHERE s.repository = '"
						+ READ_QUALIFIED + "' ORDER BY e.id DESC");
		assertThat(ingested).as("entries of both gits' writes").hasSizeGreaterThanOrEqualTo(9);
		List<List<String>> shown = new ArrayList<>();
		for (Map<String, Object> item : timeline.<List<Map<String, Object>>>read("$.items")) {
			shown.add(List.of(item.get("id").toString(), (String) item.get("ref"), (String) item.get("old"),
					(String) item.get("new"), (String) item.get("writer"), (String) item.get("identity")));
		}
		assertThat(shown).isEqualTo(ingested);
		assertThat(timeline.read("$.items[*].repository", List.class)).as("named as the console names it")
			.containsOnly(READ_QUALIFIED);

		// one ref's history: git 2.39's move (both values), git 2.55's creation
		DocumentContext feature = json(this.alpha.get(api(READ, "?ref=refs/heads/feature")));
		assertThat(feature.read("$.items[*].new", List.class)).containsExactly(this.c2, this.c1);
		assertThat(feature.read("$.items[*].old", List.class)).containsExactly(this.c1, ZEROS);
		// the deleted refs: a push's deletion (its old value known) and git 2.55's
		// branch -D
		DocumentContext deleted = json(this.alpha.get(api(READ, "/deleted")));
		assertThat(deleted.read("$.items[*].ref", List.class)).containsExactly("refs/heads/release-2",
				"refs/heads/release-1");
		assertThat(deleted.read("$.items[*].identity", List.class)).containsExactly("GL_USERNAME=bob",
				"GL_USERNAME=alice");
		assertThat(deleted.read("$.items[*].lastValue", List.class)).containsExactly(this.c1, this.c1);
		assertThat(deleted.read("$.items[*].objectExists", List.class)).containsExactly(true, true);
		DocumentContext status = json(this.alpha.get(api(READ, "/status")));
		assertThat(status.read("$.installed", Boolean.class)).isTrue();
		assertThat(status.read("$.entries", Long.class)).isEqualTo(ingested.size());

		// a page's next link leads through the node that was asked
		HttpResponse<String> first = this.alpha.get(api(READ, "?limit=2"));
		String link = first.headers().firstValue("Link").orElseThrow();
		String next = link.substring(link.indexOf('<') + 1, link.indexOf('>'));
		assertThat(URI.create(next).getHost()).as("the next page's link: " + link).isNull();
		HttpResponse<String> second = this.alpha.get(next);
		assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
		assertThat(json(second).read("$.items[*].id", List.class))
			.isEqualTo(timeline.read("$.items[2:4].id", List.class));

		// the console: the timeline, a ref's history as the ref's page loads it (htmx),
		// the deleted refs
		AppProcess.Console console = this.alpha.console();
		String name = "name=" + enc(READ_QUALIFIED);
		HttpResponse<String> page = console.get("/repo/journal?" + name);
		assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
		assertThat(page.headers().allValues("Set-Cookie")).as("alpha's session stays the browser's").isEmpty();
		assertThat(page.body()).contains("id=\"journal-status\"").contains("GL_USERNAME=alice");
		for (List<String> entry : ingested) {
			assertThat(page.body()).contains("id=\"entry-" + entry.get(0) + "\"");
		}
		assertThat(page.body().split("<tr id=\"entry-", -1)).hasSize(ingested.size() + 1);
		HttpResponse<String> history = console.fragment("/repo/ref/journal?" + name + "&ref=refs%2Fheads%2Ffeature");
		assertThat(history.statusCode()).as(history.body()).isEqualTo(200);
		assertThat(history.body()).contains("id=\"ref-journal\"")
			.doesNotContain("<html")
			.contains(this.c2.substring(0, 12))
			.contains(this.c1.substring(0, 12));
		HttpResponse<String> deletedPage = console.get("/repo/deleted?" + name);
		assertThat(deletedPage.statusCode()).as(deletedPage.body()).isEqualTo(200);
		for (Number entry : deleted.<List<Number>>read("$.items[*].entry")) {
			assertThat(deletedPage.body()).contains("id=\"deleted-" + entry + "\"");
		}
		assertThat(deletedPage.body()).contains("git (GL_USERNAME=bob)").contains("git (GL_USERNAME=alice)");

		// read by both names (the API's path, the console's qualified name) and ingested
		// by beta's sweep, the file is in the database once: one source row per
		// repository, under its storage and path
		// beta's sweep (every second) runs between the reads of the two names and after
		Thread.sleep(3_000);
		assertThat(rows(this.db, "SELECT repository, entries FROM refstore_journal_source ORDER BY repository"))
			.extracting((row) -> row.get(0))
			.containsExactly(LOCAL_QUALIFIED, READ_QUALIFIED, RESTORED_QUALIFIED);
		assertThat(rows(this.db,
				"SELECT COUNT(*) FROM refstore_journal_entry e JOIN refstore_journal_source s"
						+ " ON s.id = e.source_id WHERE s.repository LIKE '%" + READ + "'"))
			.containsExactly(List.of(Integer.toString(ingested.size())));
		assertThat(rows(this.db,
				"SELECT entries FROM refstore_journal_source WHERE repository = '" + READ_QUALIFIED + "'"))
			.containsExactly(List.of(Integer.toString(ingested.size())));
		HttpResponse<String> summary = console.fragment("/journal/summary");
		assertThat(summary.statusCode()).as(summary.body()).isEqualTo(200);
		assertThat(summary.body()).as("the dashboard's journal figures").contains(">3</span> repositories");
	}

	@Test
	@Order(2)
	void anAdminOnNodeARestoresDeletedBranchesAndAMomentOnNodeB() throws Exception {
		// a deleted branch through the API, another through the console's form
		HttpResponse<String> restore = this.alpha.postJson(api(RESTORED, "/deleted:restore"),
				"{\"refs\": [\"refs/heads/release-1\"]}");
		assertThat(restore.statusCode()).as(restore.body()).isEqualTo(200);
		assertThat(gitRef(this.restored, "refs/heads/release-1")).isEqualTo(this.c1);
		AppProcess.Console console = this.alpha.console();
		String name = "name=" + enc(RESTORED_QUALIFIED);
		String deletedPage = console.get("/repo/deleted?" + name).body();
		assertThat(deletedPage).contains("id=\"restore-form\"").contains("value=\"refs/heads/release-2\"");
		HttpResponse<String> restored = console.post("/repo/deleted/restore", deletedPage,
				name + "&ref=refs%2Fheads%2Frelease-2");
		assertThat(restored.statusCode()).as(restored.body()).isEqualTo(302);
		assertThat(restored.headers().allValues("Set-Cookie")).as("alpha's session stays the browser's").isEmpty();
		assertThat(gitRef(this.restored, "refs/heads/release-2")).isEqualTo(this.c1);
		HttpResponse<String> after = console.get(restored.headers().firstValue("Location").orElseThrow());
		assertThat(after.statusCode()).as("the console session on alpha after the form").isEqualTo(200);
		assertThat(after.body()).contains("id=\"no-deleted\"");
		// journaled on beta as the API's, by the user
		DocumentContext release2 = json(this.alpha.get(api(RESTORED, "?ref=refs/heads/release-2")));
		assertThat(release2.read("$.items[0].writer", String.class)).isEqualTo("api");
		assertThat(release2.read("$.items[0].identity", String.class)).isEqualTo("REMOTE_USER=admin");

		// the moment: previewed through the API and the console, restored by the
		// console's confirmed form
		String at = LocalDateTime.ofInstant(this.moment, ZoneOffset.UTC).toString();
		HttpResponse<String> preview = this.alpha
			.get(api(RESTORED, "/rewind?prefix=refs%2Fheads%2F&at=" + enc(this.moment.toString())));
		assertThat(preview.statusCode()).as(preview.body()).isEqualTo(200);
		DocumentContext changes = json(preview);
		assertThat(changes.read("$.creates", List.class)).isEmpty();
		assertThat(changes.read("$.deletes[*].ref", List.class)).containsExactly("refs/heads/topic");
		assertThat(changes.read("$.moves[*].ref", List.class)).containsExactly("refs/heads/feature", "refs/heads/main");
		assertThat(changes.read("$.moves[*].target", List.class)).containsExactly(this.c1, this.c1);
		String query = name + "&prefix=refs%2Fheads%2F&at=" + enc(at);
		String rewindPage = console.get("/repo/rewind?" + query).body();
		assertThat(rewindPage).contains("id=\"rewind-changes\"").contains("id=\"confirm-rewind\"");
		HttpResponse<String> launched = console.post("/repo/rewind", rewindPage,
				query + "&confirmRepository=" + enc(RESTORED_QUALIFIED));
		assertThat(launched.statusCode()).as(launched.body()).isEqualTo(302);
		assertThat(launched.headers().allValues("Set-Cookie")).isEmpty();
		String location = launched.headers().firstValue("Location").orElseThrow();
		assertThat(location).contains("/jobs/");
		String jobPath = URI.create(location).getPath();
		long job = Long.parseLong(jobPath.substring(jobPath.lastIndexOf('/') + 1));
		await("the point-in-time restore ended",
				() -> json(this.alpha.get("/api/jobs/" + job)).read("$.ended", String.class) != null);
		DocumentContext done = json(this.alpha.get("/api/jobs/" + job));
		assertThat(done.read("$.status", String.class)).as(done.jsonString()).isEqualTo("COMPLETED");
		assertThat(done.read("$.results['refstore.instance']", String.class)).as("where it ran").isEqualTo("beta");
		assertThat(done.read("$.results['rewind.applied']", String.class)).isEqualTo("3");
		Map<String, String> expected = new TreeMap<>(Map.of("refs/heads/main", this.c1, "refs/heads/feature", this.c1,
				"refs/heads/release-1", this.c1, "refs/heads/release-2", this.c1));
		assertThat(this.restored.with(GitCli.system()).refs()).as("git 2.39 on beta's disk").isEqualTo(expected);
		assertThat(this.restored.with(GitCli.reftable()).refs()).as("git 2.55 on beta's disk").isEqualTo(expected);
		HttpResponse<String> jobPage = console.get(location);
		assertThat(jobPage.statusCode()).as("the console session on alpha after the restore").isEqualTo(200);
		assertThat(jobPage.body()).contains("id=\"confirm-undo\"");
	}

	@Test
	@Order(3)
	void nodeAsFleetWideQueriesIncludeNodeBsEntries() throws Exception {
		// which refs ever pointed at c1: every repository's, as ingested by the node
		// holding it
		String object = "/api/journal?limit=1000&object=" + this.c1;
		await("the entries of every node's repositories ingested",
				() -> json(this.alpha.get(object)).read("$.items[*].repository", List.class)
					.containsAll(List.of(READ_QUALIFIED, RESTORED_QUALIFIED, LOCAL_QUALIFIED)));
		await("alpha and beta answer alike", () -> this.alpha.get(object).body().equals(this.beta.get(object).body()));
		List<List<String>> pointed = rows(this.db, "SELECT e.id FROM refstore_journal_entry e WHERE e.old_value = '"
				+ this.c1 + "' OR e.new_value = '" + this.c1 + "' ORDER BY e.id DESC");
		DocumentContext everPointed = json(this.alpha.get(object));
		assertThat(everPointed.read("$.items[*].id", List.class))
			.isEqualTo(pointed.stream().map((row) -> Integer.valueOf(row.get(0))).toList());
		assertThat(everPointed.read("$.items[*].repository", List.class)).as("each named with its storage")
			.containsOnly(READ_QUALIFIED, RESTORED_QUALIFIED, LOCAL_QUALIFIED);
		assertThat(refsOf(everPointed, READ_QUALIFIED)).contains("refs/heads/main", "refs/heads/feature",
				"refs/heads/release-1", "refs/heads/release-2");

		// who deleted refs/heads/release-*: alice's push and bob's branch -D in beta's
		// repositories
		String who = "/api/journal?deleted=true&prefix=refs%2Fheads%2Frelease-";
		DocumentContext deletions = json(this.alpha.get(who));
		assertThat(deletions.read("$.items[?(@.repository == '" + READ_QUALIFIED + "')].identity", List.class))
			.contains("GL_USERNAME=alice", "GL_USERNAME=bob")
			.containsOnly("GL_USERNAME=alice", "GL_USERNAME=bob");
		assertThat(refsOf(deletions, READ_QUALIFIED)).containsOnly("refs/heads/release-1", "refs/heads/release-2")
			.contains("refs/heads/release-1", "refs/heads/release-2");
		DocumentContext onBeta = json(this.beta.get(who));
		assertThat(deletions.read("$.items[?(@.repository == '" + READ_QUALIFIED + "')]", List.class))
			.isEqualTo(onBeta.read("$.items[?(@.repository == '" + READ_QUALIFIED + "')]", List.class));
	}

	@Test
	@Order(4)
	void aViewerOnNodeAReadsNodeBsJournalButMayNotRestore() throws Exception {
		Map<String, String> before = this.read.refs();
		for (String query : List.of("", "/deleted", "/status", "/rewind?at=" + enc(this.moment.toString()))) {
			HttpResponse<String> read = this.alpha.sendAs("viewer", "GET", api(READ, query), null, Map.of());
			assertThat(read.statusCode()).as(query + ": " + read.body()).isEqualTo(200);
		}
		assertThat(this.alpha.sendAs("viewer", "GET", "/api/journal?deleted=true", null, Map.of()).statusCode())
			.isEqualTo(200);
		HttpResponse<String> restore = this.alpha.sendAs("viewer", "POST", api(READ, "/deleted:restore"),
				"{\"refs\": [\"refs/heads/release-1\"]}", Map.of());
		assertThat(restore.statusCode()).as(restore.body()).isEqualTo(403);
		HttpResponse<String> rewind = this.alpha.sendAs("viewer", "POST", api(READ, "/rewind"),
				"{\"at\": \"" + this.moment + "\", \"prefix\": \"refs/heads/\"}", Map.of());
		assertThat(rewind.statusCode()).as(rewind.body()).isEqualTo(403);

		// the console shows a VIEWER the pages without their forms, and refuses them
		// posted
		AppProcess.Console console = this.alpha.console("viewer");
		String name = "name=" + enc(READ_QUALIFIED);
		HttpResponse<String> deletedPage = console.get("/repo/deleted?" + name);
		assertThat(deletedPage.statusCode()).as(deletedPage.body()).isEqualTo(200);
		assertThat(deletedPage.body()).contains("id=\"deleted\"").doesNotContain("id=\"restore-selected\"");
		HttpResponse<String> posted = console.post("/repo/deleted/restore", deletedPage.body(),
				name + "&ref=refs%2Fheads%2Frelease-1");
		assertThat(posted.statusCode()).as(posted.body()).isEqualTo(403);
		String query = name + "&prefix=refs%2Fheads%2F&at="
				+ enc(LocalDateTime.ofInstant(this.moment, ZoneOffset.UTC).toString());
		HttpResponse<String> rewindPage = console.get("/repo/rewind?" + query);
		assertThat(rewindPage.statusCode()).as(rewindPage.body()).isEqualTo(200);
		assertThat(rewindPage.body()).contains("id=\"rewind-changes\"").doesNotContain("id=\"confirm-rewind\"");
		HttpResponse<String> confirmed = console.post("/repo/rewind", rewindPage.body(),
				query + "&confirmRepository=" + enc(READ_QUALIFIED));
		assertThat(confirmed.statusCode()).as(confirmed.body()).isEqualTo(403);
		assertThat(this.read.refs()).as("git on beta's disk").isEqualTo(before);
		assertThat(before).doesNotContainKeys("refs/heads/release-1", "refs/heads/release-2");
	}

	private static TempRepo bare(Path dir) {
		return TempRepo.init(GitCli.system(), dir, "--bare");
	}

	private static String gitRef(TempRepo repo, String ref) {
		return repo.with(GitCli.system()).git("rev-parse", "--verify", ref).trim();
	}

	private static List<String> refsOf(DocumentContext page, String repository) {
		return page.read("$.items[?(@.repository == '" + repository + "')].ref", List.class);
	}

	/** A journal API path of a repository, by its name without its storage. */
	private static String api(String repository, String rest) {
		return "/api/repos/" + enc(repository) + "/journal" + rest;
	}

	private static String enc(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

}
