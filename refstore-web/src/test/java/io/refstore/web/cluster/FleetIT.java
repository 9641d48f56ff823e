package io.refstore.web.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.PostgresDatabase;
import io.refstore.web.fleet.NodeSignature;

/**
 * Three nodes in three JVMs, each started as the fleet recipe of docs/operators.md says
 * (its home and one named storage, the repository roots left alone), sharing one
 * PostgreSQL database (the control plane), as a fleet of storage hosts runs: every node
 * lists every node's repositories; a ref read and a compare-and-swap write sent to one
 * node for a repository of another are served by that node (status, ETag and problem
 * bodies as it gave them; the write done on its disk, as git there sees it) and audited
 * with the user's name and the node it came through; a forged or missing node credential
 * is refused, and so is a correctly signed one from a node not in the fleet, on a route
 * nodes do not forward, for a repository the receiver does not hold, or used twice; a
 * fourth node with another secret stops while starting, naming the setting; a node killed
 * with {@code SIGKILL} is shown down within {@code refstore.fleet.down-after} and its
 * repositories answer 503 with {@code Retry-After} until it is back.
 */
class FleetIT {

	/**
	 * Branches besides main in each repository: a migration of one chunk per ref takes
	 * seconds.
	 */
	private static final int BRANCHES = 20;

	private static final String SECRET = "fleet-secret-for-the-three-node-test-0123456789";

	/** The setting that makes a node one of this fleet. */
	static final String FLEET_SECRET = "--refstore.fleet.secret=" + SECRET;

	@Test
	void threeNodesServeEachOthersRepositoriesAndADeadNodesRepositoriesAreUnavailable() throws Exception {
		Path dir = Files.createTempDirectory("refstore-fleet").toRealPath();
		Map<String, Path> roots = Map.of("alpha", Files.createDirectories(dir.resolve("alpha-disk")), "beta",
				Files.createDirectories(dir.resolve("beta-disk")), "gamma",
				Files.createDirectories(dir.resolve("gamma-disk")));
		TempRepo onAlpha = repo(roots.get("alpha"), "team/a.git");
		TempRepo onGamma = repo(roots.get("gamma"), "team/c.git");
		repo(roots.get("gamma"), "team/d.git");
		repo(roots.get("gamma"), "team/e.git");
		String main = onGamma.git("rev-parse", "refs/heads/main").trim();
		String next = onGamma.commit("next", main);
		try (PostgresDatabase db = PostgresDatabase.create("refstore_fleet");
				AppProcess alpha = start("alpha", db, dir, roots.get("alpha"));
				AppProcess beta = start("beta", db, dir, roots.get("beta"));
				AppProcess gamma = start("gamma", db, dir, roots.get("gamma"))) {
			alpha.awaitUp();
			beta.awaitUp();
			gamma.awaitUp();

			for (AppProcess node : List.of(alpha, beta, gamma)) {
				await("node " + node.instanceId + " lists the four repositories", () -> {
					DocumentContext page = json(node.get("/api/fleet/repositories"));
					return page.read("$.total", Integer.class) == 4;
				});
				DocumentContext page = json(node.get("/api/fleet/repositories"));
				assertThat(page.read("$.repositories[*].name", List.class)).containsExactly("s-alpha/team/a.git",
						"s-gamma/team/c.git", "s-gamma/team/d.git", "s-gamma/team/e.git");
				assertThat(page.read("$.repositories[*].node", List.class)).containsExactly("alpha", "gamma", "gamma",
						"gamma");
				assertThat(json(node.get("/api/fleet/nodes")).read("$[*].up", List.class)).containsExactly(true, true,
						true);
			}
			assertThat(json(beta.get("/api/repos/team%2Fa.git")).read("$.node", String.class)).isEqualTo("alpha");

			// a read and a compare-and-swap write on alpha, for gamma's repository
			HttpResponse<String> read = alpha.get("/api/repos/team%2Fc.git/refs/refs%2Fheads%2Fmain");
			assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
			assertThat(read.headers().firstValue("ETag")).contains("\"" + main + "\"");
			HttpResponse<String> stale = alpha.send("PUT", "/api/repos/s-gamma%2Fteam%2Fc.git/refs/refs%2Fheads%2Fmain",
					"{\"sha\": \"" + next + "\"}", Map.of("If-Match", "\"" + next + "\""), true);
			assertThat(stale.statusCode()).as(stale.body()).isEqualTo(412);
			assertThat(stale.headers().firstValue("Content-Type")).contains("application/problem+json");
			assertThat(json(stale).read("$.type", String.class)).endsWith("/precondition-failed");
			HttpResponse<String> moved = alpha.send("PUT", "/api/repos/team%2Fc.git/refs/refs%2Fheads%2Fmain",
					"{\"sha\": \"" + next + "\"}", Map.of("If-Match", "\"" + main + "\""), true);
			assertThat(moved.statusCode()).as(moved.body()).isEqualTo(200);
			assertThat(moved.headers().firstValue("ETag")).contains("\"" + next + "\"");
			assertThat(onGamma.git("rev-parse", "refs/heads/main").trim()).as("git on gamma's disk").isEqualTo(next);
			assertThat(onGamma.git("reflog", "-1", "--format=%gn", "refs/heads/main").trim()).isEqualTo("admin");
			// audited by gamma as the user's, through alpha; and by alpha as forwarded
			List<List<String>> audit = rows(db, "SELECT action, actor, outcome, parameters FROM refstore_audit_event"
					+ " WHERE repository LIKE '%c.git' ORDER BY id");
			assertThat(audit).extracting((row) -> row.get(0) + " " + row.get(1) + " " + row.get(2))
				.contains("ref.update admin SUCCESS", "request.forwarded admin SUCCESS",
						"request.forwarded admin REJECTED");
			assertThat(audit).filteredOn((row) -> row.get(0).equals("ref.update"))
				.allSatisfy((row) -> assertThat(row.get(3)).contains("\"via\":\"alpha\""));
			for (AppProcess node : List.of(alpha, gamma)) {
				// the refused write and the write
				assertThat(json(node.get("/api/audit?action=ref.update")).read("$.entries[*].outcome", List.class))
					.containsExactly("SUCCESS", "REJECTED");
				assertThat(json(node.get("/api/audit?action=ref.update")).read("$.entries[*].actor", List.class))
					.containsExactly("admin", "admin");
				assertThat(json(node.get("/api/audit?action=request.forwarded")).read("$.entries[*].actor", List.class))
					.containsExactly("admin", "admin");
			}

			// the console on alpha shows gamma's repository (gamma renders it), and a
			// form
			// of that page posted to alpha launches the job, which runs on gamma
			AppProcess.Console console = alpha.console();
			HttpResponse<String> page = console.get("/repo?name=s-gamma%2Fteam%2Fc.git");
			assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
			assertThat(page.body()).contains("refs/heads/main").contains(next.substring(0, 7));
			assertThat(page.headers().allValues("Set-Cookie")).as("alpha's session stays the browser's").isEmpty();
			HttpResponse<String> fragment = console.get("/repo/inventory?name=s-gamma%2Fteam%2Fc.git");
			assertThat(fragment.body()).contains("id=\"run-inventory\"");
			HttpResponse<String> inventory = console.post("/jobs/new/inventory", fragment.body(),
					"repo=s-gamma%2Fteam%2Fc.git");
			assertThat(inventory.statusCode()).as(inventory.body()).isEqualTo(302);
			String location = inventory.headers().firstValue("Location").orElseThrow();
			long inventoryJob = Long.parseLong(location.substring(location.lastIndexOf('/') + 1));
			await("the inventory ran on gamma", () -> "COMPLETED"
				.equals(json(alpha.get("/api/jobs/" + inventoryJob)).read("$.status", String.class)));
			assertThat(
					json(alpha.get("/api/jobs/" + inventoryJob)).read("$.results['refstore.instance']", String.class))
				.isEqualTo("gamma");

			// node credentials: forged, incomplete, or without the user's roles
			Map<String, String> forged = Map.of("X-Refstore-Node", "alpha", "X-Refstore-User", "mallory",
					"X-Refstore-Roles", "ROLE_ADMIN", "X-Refstore-At", Long.toString(Instant.now().getEpochSecond()),
					"X-Refstore-Nonce", "0f".repeat(16), "X-Refstore-Signature", "00".repeat(32));
			HttpResponse<String> refused = gamma.send("DELETE", "/api/repos/team%2Fc.git/refs/refs%2Fheads%2Fmain",
					null, forged, false);
			assertThat(refused.statusCode()).isEqualTo(401);
			assertThat(json(refused).read("$.detail", String.class)).contains("signature does not match");
			HttpResponse<String> incomplete = gamma.send("GET", "/api/repos/team%2Fc.git/refs", null,
					Map.of("X-Refstore-Node", "alpha", "X-Refstore-User", "admin"), false);
			assertThat(incomplete.statusCode()).isEqualTo(401);
			assertThat(onGamma.git("rev-parse", "refs/heads/main").trim()).isEqualTo(next);
			assertThat(count(db, "SELECT COUNT(*) FROM refstore_audit_event WHERE actor = 'mallory'")).isZero();

			// a node started with another secret does not join: it stops while starting,
			// naming the setting, and is never registered (it starts while the checks
			// below run)
			try (AppProcess delta = start("delta", db, dir, Files.createDirectories(dir.resolve("delta-disk")),
					"--refstore.fleet.secret=" + "another-secret-".repeat(3))) {
				nodeCredentialsCarryOnlyWhatANodeMayAsk(db, alpha, beta, gamma, next);
				assertThat(delta.awaitExit()).isNotZero();
				assertThat(delta.log()).contains("refstore.fleet.secret of node 'delta' is not the fleet's")
					.doesNotContain("Tomcat started");
				assertThat(count(db, "SELECT COUNT(*) FROM refstore_node WHERE name = 'delta'")).isZero();
			}

			// a campaign created on beta (which holds nothing) runs each repository's job
			// on the node holding it, at most one at a time per node
			// (refstore.fleet.jobs-per-node=1) though three may run at once
			HttpResponse<String> campaign = beta.postJson("/api/campaigns", """
					{"jobType": "verify", "targetKind": "GLOB", "target": "team/*.git", "concurrency": 3}""");
			assertThat(campaign.statusCode()).as(campaign.body()).isEqualTo(201);
			long campaignId = json(campaign).read("$.id", Long.class);
			await("the campaign finished", () -> "FINISHED"
				.equals(json(alpha.get("/api/campaigns/" + campaignId)).read("$.campaign.state", String.class)));
			DocumentContext finished = json(alpha.get("/api/campaigns/" + campaignId));
			assertThat(finished.read("$.repositories[*].repository", List.class)).containsExactly("s-alpha/team/a.git",
					"s-gamma/team/c.git", "s-gamma/team/d.git", "s-gamma/team/e.git");
			assertThat(finished.read("$.repositories[*].state", List.class)).containsOnly("DONE");
			List<Number> executions = finished.read("$.repositories[*].executionId", List.class);
			assertOnePerNodeAtATime(alpha, executions);

			// a schedule made on gamma fires once, launching once per repository, each on
			// its node, one at a time per node as the campaign (RUN_ONCE: a fire a loaded
			// machine delays past Quartz's misfire threshold still runs)
			HttpResponse<String> schedule = gamma.postJson("/api/schedules", """
					{"name": "fleet-once", "jobType": "verify", "targetKind": "GLOB", "target": "team/*.git",
					 "onceAt": "%s", "misfire": "RUN_ONCE"}""".formatted(Instant.now().plusSeconds(2)));
			assertThat(schedule.statusCode()).as(schedule.body()).isEqualTo(201);
			try {
				await("the schedule's four launches", () -> count(db, "SELECT COUNT(*) FROM refstore_schedule_run"
						+ " WHERE schedule_name = 'fleet-once' AND outcome = 'LAUNCHED'") == 4);
			}
			catch (AssertionError ex) {
				throw new AssertionError(ex.getMessage() + ": " + schedule.body() + " "
						+ gamma.get("/api/schedules/fleet-once").body() + " "
						+ rows(db, "SELECT * FROM refstore_schedule_run WHERE schedule_name = 'fleet-once'"));
			}
			// a second fire (on another node) could only come while Quartz has the
			// trigger waiting or a fire of it going: once neither, the runs are all
			await("the schedule's one fire is over", () -> count(db,
					"SELECT COUNT(*) FROM qrtz_triggers WHERE trigger_name = 'fleet-once' AND trigger_state <> 'COMPLETE'") == 0
					&& count(db, "SELECT COUNT(*) FROM qrtz_fired_triggers WHERE trigger_name = 'fleet-once'") == 0);
			// whichever node fired it names its own repositories by path, the others' by
			// <storage>/<path>
			List<List<String>> runs = rows(db,
					"SELECT repository, outcome FROM refstore_schedule_run WHERE schedule_name = 'fleet-once'");
			assertThat(runs).extracting((row) -> row.get(1)).containsOnly("LAUNCHED");
			assertThat(runs).extracting((row) -> row.get(0).replaceFirst("^s-(alpha|gamma)/", ""))
				.containsExactlyInAnyOrder("team/a.git", "team/c.git", "team/d.git", "team/e.git");
			List<Number> fired = new ArrayList<>();
			for (List<String> row : rows(db,
					"SELECT execution_id FROM refstore_schedule_run WHERE schedule_name = 'fleet-once'")) {
				fired.add(Long.parseLong(row.get(0)));
			}
			for (Number execution : fired) {
				await("the schedule's jobs ended",
						() -> json(alpha.get("/api/jobs/" + execution)).read("$.ended", String.class) != null);
			}
			assertOnePerNodeAtATime(alpha, fired);

			// a migration launched on alpha for gamma's repository runs on gamma
			HttpResponse<String> launched = alpha.postJson("/api/jobs/migrations", """
					{"repository": "team/c.git", "targetFormat": "reftable", "chunkSize": 1, "throttleMillis": 300}""");
			assertThat(launched.statusCode()).as(launched.body()).isEqualTo(201);
			long migration = json(launched).read("$.id", Long.class);
			await("three refs copied on gamma", () -> {
				DocumentContext progress = json(alpha.get("/api/jobs/" + migration));
				return "copyRefsStep".equals(progress.read("$.progress.step", String.class))
						&& progress.read("$.progress.done", Long.class) >= 3;
			});
			assertThat(json(beta.get("/api/jobs/" + migration)).read("$.results['refstore.instance']", String.class))
				.isEqualTo("gamma");

			// gamma dies mid-migration: shown down, its repository unavailable, alpha's
			// still served
			gamma.kill();
			Instant killed = Instant.now();
			await("gamma shown down on alpha and beta", () -> !up(alpha, "gamma") && !up(beta, "gamma"));
			// down-after (4 s) from its last heartbeat (at most 1 s before the kill),
			// with
			// room for a loaded machine's polling
			assertThat(Duration.between(killed, Instant.now())).isLessThan(Duration.ofSeconds(4 + 1 + 5));
			HttpResponse<String> unavailable = alpha.get("/api/repos/team%2Fc.git/refs");
			assertThat(unavailable.statusCode()).as(unavailable.body()).isEqualTo(503);
			assertThat(unavailable.headers().firstValue("Retry-After")).contains("4");
			assertThat(json(unavailable).read("$.node", String.class)).isEqualTo("gamma");
			assertThat(json(beta.get("/api/fleet/repositories?node=gamma")).read("$.repositories[0].available",
					Boolean.class))
				.isFalse();
			assertThat(beta.get("/api/repos/team%2Fa.git/refs").statusCode()).isEqualTo(200);
			// once its lease expires (refstore.jobs.lease-ttl=10s), a survivor fails the
			// migration
			await("the dead migration failed by a survivor",
					() -> "FAILED".equals(json(alpha.get("/api/jobs/" + migration)).read("$.status", String.class)));
			assertThat(json(alpha.get("/api/jobs/" + migration)).read("$.exitMessage", String.class))
				.contains("by a survivor")
				.contains("its lease expired");

			// gamma comes back: served again, with what was written before the kill; its
			// dead migration is failed, and gamma restarts it by itself, from its last
			// chunk to the end
			try (AppProcess back = start("gamma", db, dir, roots.get("gamma"))) {
				back.awaitUp();
				await("gamma up again", () -> up(alpha, "gamma"));
				HttpResponse<String> again = alpha.get("/api/repos/team%2Fc.git/refs/refs%2Fheads%2Fmain");
				assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
				assertThat(again.headers().firstValue("ETag")).contains("\"" + next + "\"");
				String instance = "(SELECT job_instance_id FROM batch_job_execution WHERE job_execution_id = "
						+ migration + ")";
				await("gamma restarted its interrupted migration", () -> count(db,
						"SELECT COUNT(*) FROM batch_job_execution WHERE job_instance_id = " + instance) == 2);
				long restarted = count(db,
						"SELECT MAX(job_execution_id) FROM batch_job_execution WHERE job_instance_id = " + instance);
				assertThat(count(db,
						"SELECT COUNT(*) FROM refstore_audit_event WHERE actor = 'node:gamma'"
								+ " AND action = 'job.restart' AND outcome = 'SUCCESS'"))
					.as(rows(db, "SELECT actor, action, outcome FROM refstore_audit_event WHERE actor = 'node:gamma'")
						.toString())
					.isEqualTo(1);
				await("the restart completed", () -> "COMPLETED"
					.equals(json(alpha.get("/api/jobs/" + restarted)).read("$.status", String.class)));
				assertThat(
						json(alpha.get("/api/jobs/" + restarted)).read("$.results['refstore.instance']", String.class))
					.isEqualTo("gamma");
				assertThat((Long) TwoInstancesIT.stepContext(db, restarted, "copyRefsStep").get("copy.resumedFrom"))
					.as("the restart went on from the last committed chunk")
					.isPositive()
					.isLessThan(BRANCHES + 1);
				assertThat(GitCli.system()
					.run(onGamma.dir(), "config", "--file", onGamma.dir().resolve("config").toString(),
							"extensions.refStorage")
					.stdout()
					.trim()).isEqualTo("reftable");
				String refs = GitCli.reftable().ok(onGamma.dir(), "for-each-ref", "--format=%(refname) %(objectname)");
				assertThat(refs.lines()).hasSize(BRANCHES + 1).contains("refs/heads/main " + next);

				// the migration kept the files store as a backup on gamma: alpha's
				// console
				// drops it with gamma's page and form (posted to alpha, which sends it
				// on)
				List<String> backups = json(alpha.get("/api/repos/team%2Fc.git/backups")).read("$[*].name", List.class);
				assertThat(backups).hasSize(1);
				String backup = backups.get(0);
				String query = "name=s-gamma%2Fteam%2Fc.git&backup=" + backup;
				HttpResponse<String> confirm = console.get("/repo/backups/drop?" + query);
				assertThat(confirm.body()).contains("id=\"confirm-drop\"");
				HttpResponse<String> dropped = console.post("/repo/backups/drop", confirm.body(),
						query + "&confirmBackup=" + backup);
				assertThat(dropped.statusCode()).as(dropped.body()).isEqualTo(302);
				assertThat(dropped.headers().firstValue("Location").orElseThrow()).contains("/repo?name=");
				assertThat(json(alpha.get("/api/repos/team%2Fc.git/backups")).read("$[*].name", List.class)).isEmpty();
				assertThat(rows(db, "SELECT actor, outcome FROM refstore_audit_event WHERE action = 'backup.drop'"))
					.containsExactly(List.of("admin", "SUCCESS"));
			}
		}
	}

	/**
	 * Requests signed with the fleet's secret, as a node that knows it would sign them,
	 * sent to gamma: refused from a node that is not in the fleet, on any route but a
	 * repository's (tokens, audit, actuator, the fleet's administration), for a
	 * repository gamma does not hold, to another node than the one it was signed for, and
	 * a second time; the legitimate one is served once. The health of each node shows the
	 * fleet: its peers reachable and accepting its credentials.
	 */
	private static void nodeCredentialsCarryOnlyWhatANodeMayAsk(PostgresDatabase db, AppProcess alpha, AppProcess beta,
			AppProcess gamma, String next) throws Exception {
		NodeSignature signature = new NodeSignature(SECRET, Clock.systemUTC());
		String ref = "/api/repos/team%2Fc.git/refs/refs%2Fheads%2Fmain";
		HttpResponse<String> evil = signed(gamma, signature, "evil", "gamma", "GET", ref, null);
		assertThat(evil.statusCode()).as(evil.body()).isEqualTo(401);
		assertThat(json(evil).read("$.detail", String.class)).contains("'evil' is not a node of the fleet that is up");
		String token = "{\"name\": \"stolen\", \"days\": 90}";
		for (List<String> route : List.of(List.of("POST", "/api/tokens", token), List.of("GET", "/api/tokens", ""),
				List.of("GET", "/api/audit", ""), List.of("GET", "/actuator/prometheus", ""),
				List.of("GET", "/api/fleet/nodes", ""), List.of("DELETE", "/api/fleet/nodes/beta", ""),
				List.of("GET", "/api/jobs", ""), List.of("GET", "/jobs", ""))) {
			HttpResponse<String> refused = signed(gamma, signature, "alpha", "gamma", route.get(0), route.get(1),
					route.get(2).isEmpty() ? null : route.get(2));
			assertThat(refused.statusCode()).as(route + ": " + refused.body()).isEqualTo(401);
			assertThat(json(refused).read("$.detail", String.class)).as(route.toString())
				.contains("carries only a repository's requests");
		}
		assertThat(count(db, "SELECT COUNT(*) FROM refstore_api_token")).isZero();
		assertThat(count(db, "SELECT COUNT(*) FROM refstore_audit_event WHERE action = 'token.create'")).isZero();
		HttpResponse<String> notHeld = signed(gamma, signature, "beta", "gamma", "GET",
				"/api/repos/s-alpha%2Fteam%2Fa.git/refs", null);
		assertThat(notHeld.statusCode()).as(notHeld.body()).isEqualTo(401);
		assertThat(json(notHeld).read("$.detail", String.class)).contains("does not hold the repository");

		// the legitimate request, once; then its replay to gamma and to beta
		Map<String, String> headers = signature.sign("alpha", "gamma", "GET", ref, "admin", "ROLE_ADMIN", new byte[0]);
		HttpResponse<String> served = gamma.send("GET", ref, null, headers, false);
		assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
		assertThat(served.headers().firstValue("ETag")).contains("\"" + next + "\"");
		HttpResponse<String> replayed = gamma.send("GET", ref, null, headers, false);
		assertThat(replayed.statusCode()).as(replayed.body()).isEqualTo(401);
		assertThat(json(replayed).read("$.detail", String.class)).contains("used already");
		HttpResponse<String> elsewhere = beta.send("GET", ref, null,
				signature.sign("alpha", "gamma", "GET", ref, "admin", "ROLE_ADMIN", new byte[0]), false);
		assertThat(elsewhere.statusCode()).as(elsewhere.body()).isEqualTo(401);
		assertThat(json(elsewhere).read("$.detail", String.class)).contains("signature does not match");

		for (AppProcess node : List.of(alpha, beta, gamma)) {
			// a peer slower than the ping's timeout on a loaded machine is shown
			// DEGRADED until it answers in time
			await(node.instanceId + "'s health shows its peers reachable and accepting its credentials", () -> {
				DocumentContext health = json(node.get("/actuator/health"));
				return "UP".equals(health.read("$.components.fleet.status", String.class));
			});
			DocumentContext health = json(node.get("/actuator/health"));
			Map<String, Map<String, Object>> peers = health.read("$.components.fleet.details.peers", Map.class);
			assertThat(peers).as(health.jsonString()).hasSize(2).allSatisfy((name, peer) -> {
				assertThat(peer).containsEntry("reachable", true).containsEntry("credentials", "accepted");
			});
		}
	}

	/** A request signed as node {@code from} would sign it for node {@code to}. */
	private static HttpResponse<String> signed(AppProcess node, NodeSignature signature, String from, String to,
			String method, String path, String json) throws Exception {
		byte[] body = (json != null) ? json.getBytes(StandardCharsets.UTF_8) : new byte[0];
		return node.send(method, path, json, signature.sign(from, to, method, path, "admin", "ROLE_ADMIN", body),
				false);
	}

	/**
	 * A node as the fleet recipe of docs/operators.md starts one: its home, one named
	 * storage and the fleet's secret, the repository roots left as they are.
	 */
	private static AppProcess start(String id, PostgresDatabase db, Path dir, Path root) throws Exception {
		return start(id, db, dir, root, FLEET_SECRET);
	}

	/**
	 * A node with {@code secret} (its {@code --refstore.fleet.secret=} setting) and
	 * {@code extra} settings besides the recipe's: storage {@code s-<id>} at
	 * {@code root}, and this test's quick heartbeats and sweeps.
	 */
	static AppProcess start(String id, PostgresDatabase db, Path dir, Path root, String secret, String... extra)
			throws Exception {
		Path home = Files.createDirectories(dir.resolve(id + "-home"));
		List<String> settings = new ArrayList<>(List.of("--refstore.repositories.storages.s-" + id + "=" + root, secret,
				"--refstore.fleet.heartbeat=1s", "--refstore.fleet.down-after=4s",
				"--refstore.fleet.inventory-refresh=2s", "--refstore.fleet.jobs-per-node=1",
				"--refstore.jobs.lease-ttl=10s", "--refstore.jobs.sweep-millis=1000",
				"--refstore.campaigns.poll-millis=200"));
		settings.addAll(List.of(extra));
		return AppProcess.start(id, db.url(), home, null, dir.resolve(id + "-" + System.nanoTime() + ".log"),
				settings.toArray(String[]::new));
	}

	private static TempRepo repo(Path root, String name) {
		TempRepo repo = TempRepo.init(GitCli.system(), root.resolve(name), "--bare");
		repo.git("config", "core.logAllRefUpdates", "always");
		String commit = repo.commit("one", null);
		StringBuilder updates = new StringBuilder("create refs/heads/main " + commit + "\n");
		for (int i = 0; i < BRANCHES; i++) {
			updates.append("create refs/heads/b/" + i + " " + commit + "\n");
		}
		repo.run(updates.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), "update-ref", "--stdin")
			.requireOk();
		return repo;
	}

	/**
	 * Each execution ran on the node holding its repository, and gamma's three one after
	 * the other ({@code refstore.fleet.jobs-per-node=1}).
	 */
	private static void assertOnePerNodeAtATime(AppProcess alpha, List<Number> executions) throws Exception {
		List<DocumentContext> onGammaRuns = new ArrayList<>();
		for (Number execution : executions) {
			DocumentContext job = json(alpha.get("/api/jobs/" + execution));
			String node = job.read("$.results['refstore.instance']", String.class);
			assertThat(node).isEqualTo(job.read("$.repository", String.class).contains("s-alpha/")
					|| job.read("$.repository", String.class).equals("team/a.git") ? "alpha" : "gamma");
			if (node.equals("gamma")) {
				onGammaRuns.add(job);
			}
		}
		onGammaRuns.sort(java.util.Comparator.comparing((job) -> time(job, "$.started")));
		assertThat(onGammaRuns).hasSize(3);
		for (int i = 1; i < onGammaRuns.size(); i++) {
			assertThat(time(onGammaRuns.get(i), "$.started")).as("gamma's jobs one after the other")
				.isAfterOrEqualTo(time(onGammaRuns.get(i - 1), "$.ended"));
		}
	}

	static boolean up(AppProcess node, String name) throws Exception {
		List<Boolean> up = json(node.get("/api/fleet/nodes")).read("$[?(@.name == '" + name + "')].up", List.class);
		return up.equals(List.of(true));
	}

	private static java.time.LocalDateTime time(DocumentContext job, String path) {
		return java.time.LocalDateTime.parse(job.read(path, String.class));
	}

	static DocumentContext json(HttpResponse<String> response) {
		return JsonPath.parse(response.body());
	}

	static long count(PostgresDatabase db, String sql) throws Exception {
		try (Connection connection = db.connect();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(sql)) {
			rs.next();
			return rs.getLong(1);
		}
	}

	static List<List<String>> rows(PostgresDatabase db, String sql) throws Exception {
		List<List<String>> rows = new ArrayList<>();
		try (Connection connection = db.connect();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(sql)) {
			while (rs.next()) {
				List<String> row = new ArrayList<>();
				for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
					row.add(rs.getString(i));
				}
				rows.add(row);
			}
		}
		return rows;
	}

	static void await(String what, Callable<Boolean> condition) {
		Awaitility.await(what).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(condition);
	}

}
