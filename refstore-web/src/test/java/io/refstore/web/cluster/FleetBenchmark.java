package io.refstore.web.cluster;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;

import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.PostgresDatabase;

/**
 * The fleet at scale, a program (never run by the tests): two real nodes on a fresh
 * PostgreSQL database, plus {@code simulated} nodes of {@code perNode} repositories each
 * registered in the control plane as nodes do (a node row with its heartbeat every 5 s, a
 * storage, and its inventory written as {@code FleetStore.replaceInventory} writes it:
 * one transaction deleting the storage's rows and inserting them in JDBC batches of
 * 1,000). It prints the inventory write per node, the dashboard's times over all the rows
 * (API pages and the console page, end to end on localhost, median and 90th percentile)
 * and the launch-to-start latency of a job launched on one real node for a repository of
 * the other.
 *
 * <pre>
 * ./mvnw -q -o -DskipTests package -pl refstore-web -am
 * ./mvnw -q -o -pl refstore-web test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/web-cp.txt
 * java -cp refstore-web/target/test-classes:refstore-web/target/classes:$(cat /tmp/web-cp.txt) \
 *     io.refstore.web.cluster.FleetBenchmark 20 5000 50
 * </pre>
 */
public final class FleetBenchmark {

	private FleetBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int simulated = (args.length > 0) ? Integer.parseInt(args[0]) : 20;
		int perNode = (args.length > 1) ? Integer.parseInt(args[1]) : 5000;
		int requests = (args.length > 2) ? Integer.parseInt(args[2]) : 50;
		Path dir = Files.createTempDirectory("refstore-fleet-bench").toRealPath();
		Path rootA = Files.createDirectories(dir.resolve("a-disk"));
		Path rootB = Files.createDirectories(dir.resolve("b-disk"));
		TempRepo repo = TempRepo.init(GitCli.system(), rootB.resolve("bench.git"), "--bare");
		repo.git("update-ref", "refs/heads/main", repo.commit("one", null));
		String secret = "fleet-benchmark-secret-0123456789abcdef0123456789";
		try (PostgresDatabase db = PostgresDatabase.create("refstore_fleet_bench");
				AppProcess a = node("node-a", db, dir, rootA, secret);
				AppProcess b = node("node-b", db, dir, rootB, secret)) {
			a.awaitUp();
			b.awaitUp();
			await(() -> total(a) == 1);

			List<Double> writes = new ArrayList<>();
			try (Connection connection = db.connect()) {
				for (int n = 0; n < simulated; n++) {
					writes.add(register(connection, "sim-" + n, perNode));
				}
			}
			ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();
			heartbeats.scheduleAtFixedRate(() -> heartbeat(db), 0, 5, TimeUnit.SECONDS);
			try {
				long repositories = total(a);
				System.out.printf(Locale.ROOT, "%d nodes (%d simulated), %,d repositories%n", simulated + 2, simulated,
						repositories);
				System.out.printf(Locale.ROOT, "inventory write per node (%,d rows): median %.1f ms, max %.1f ms%n",
						perNode, median(writes), Collections.max(writes));
				String some = "sim-" + (simulated / 2);
				time("GET /api/fleet/nodes", requests, () -> a.get("/api/fleet/nodes"));
				time("GET /api/fleet/repositories (first page of 100)", requests,
						() -> a.get("/api/fleet/repositories"));
				String late = "sim-9-storage/group-0/project-0.git";
				time("GET /api/fleet/repositories?after=" + late, requests,
						() -> a.get("/api/fleet/repositories?after=" + late));
				time("GET /api/fleet/repositories?node=" + some, requests,
						() -> a.get("/api/fleet/repositories?node=" + some));
				time("GET /api/fleet/repositories?q=project-4242", requests,
						() -> a.get("/api/fleet/repositories?q=project-4242"));
				time("GET /api/fleet/repositories?format=reftable&maintenanceDue=true", requests,
						() -> a.get("/api/fleet/repositories?format=reftable&maintenanceDue=true"));
				AppProcess.Console console = a.console();
				time("console /fleet (nodes and first page)", requests, () -> console.get("/fleet"));
				time("console /fleet?q=project-4242", requests, () -> console.get("/fleet?q=project-4242"));

				List<Double> latencies = new ArrayList<>();
				for (int i = 0; i < Math.max(5, requests / 5); i++) {
					Instant sent = Instant.now();
					HttpResponse<String> launched = a.postJson("/api/jobs/verifications",
							"{\"repository\": \"bench.git\"}");
					if (launched.statusCode() != 201) {
						throw new IllegalStateException(launched.body());
					}
					long id = JsonPath.parse(launched.body()).read("$.id", Long.class);
					// polled every 5 ms: the latency is read from the job's start time,
					// not
					// from when the poll saw it
					String started = Awaitility.await("execution " + id + " to start")
						.atMost(Duration.ofSeconds(120))
						.pollInterval(Duration.ofMillis(5))
						.until(() -> JsonPath.parse(a.get("/api/jobs/" + id).body()).read("$.started", String.class),
								(value) -> value != null);
					Instant start = LocalDateTime.parse(started).atZone(ZoneId.systemDefault()).toInstant();
					latencies.add(Duration.between(sent, start).toNanos() / 1e6);
					await(() -> "COMPLETED"
						.equals(JsonPath.parse(a.get("/api/jobs/" + id).body()).read("$.status", String.class)));
				}
				System.out.printf(Locale.ROOT,
						"launch on node-a to start on node-b (%d launches): median %.1f ms, p90 %.1f ms, max %.1f ms%n",
						latencies.size(), median(latencies), percentile(latencies, 0.9), Collections.max(latencies));
			}
			finally {
				heartbeats.shutdownNow();
			}
		}
	}

	private static AppProcess node(String name, PostgresDatabase db, Path dir, Path root, String secret)
			throws Exception {
		Path home = Files.createDirectories(dir.resolve(name + "-home"));
		return AppProcess.start(name, db.url(), home, root, dir.resolve(name + ".log"),
				"--refstore.repositories.storages." + name + "=" + root, "--refstore.fleet.secret=" + secret,
				"--refstore.fleet.inventory-refresh=3s");
	}

	/**
	 * A simulated node: its row, its storage and its inventory, written as
	 * {@code FleetStore} writes them; returns the inventory write's time in ms.
	 */
	private static double register(Connection connection, String node, int repositories) throws Exception {
		connection.setAutoCommit(true);
		try (PreparedStatement insert = connection
			.prepareStatement("INSERT INTO refstore_node (name, url, version, started_at, heartbeat_at)"
					+ " VALUES (?, ?, 'bench', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)")) {
			insert.setString(1, node);
			insert.setString(2, "http://" + node + ".invalid:8080");
			insert.executeUpdate();
		}
		try (PreparedStatement storage = connection
			.prepareStatement("INSERT INTO refstore_storage (name, node, storage_id, root) VALUES (?, ?, ?, ?)")) {
			storage.setString(1, node + "-storage");
			storage.setString(2, node);
			storage.setString(3, java.util.UUID.randomUUID().toString());
			storage.setString(4, "/srv/" + node);
			storage.executeUpdate();
		}
		long began = System.nanoTime();
		connection.setAutoCommit(false);
		try (PreparedStatement delete = connection
			.prepareStatement("DELETE FROM refstore_fleet_repository WHERE storage = ?");
				PreparedStatement insert = connection.prepareStatement(
						"INSERT INTO refstore_fleet_repository (storage, path, node, format, refs, loose_refs, bytes,"
								+ " maintenance_due, error, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,"
								+ " CURRENT_TIMESTAMP)")) {
			delete.setString(1, node + "-storage");
			delete.executeUpdate();
			for (int i = 0; i < repositories; i++) {
				insert.setString(1, node + "-storage");
				insert.setString(2, "group-" + (i % 100) + "/project-" + i + ".git");
				insert.setString(3, node);
				insert.setString(4, (i % 3 == 0) ? "reftable" : "files");
				insert.setLong(5, 1000L + i);
				insert.setLong(6, i % 50);
				insert.setLong(7, 65536L + i);
				insert.setBoolean(8, i % 7 == 0);
				insert.setString(9, null);
				insert.addBatch();
				if ((i + 1) % 1000 == 0) {
					insert.executeBatch();
				}
			}
			insert.executeBatch();
			try (PreparedStatement count = connection.prepareStatement("UPDATE refstore_node SET inventory_at ="
					+ " CURRENT_TIMESTAMP, repositories = (SELECT COUNT(*) FROM refstore_fleet_repository WHERE node = ?)"
					+ " WHERE name = ?")) {
				count.setString(1, node);
				count.setString(2, node);
				count.executeUpdate();
			}
			connection.commit();
		}
		finally {
			connection.setAutoCommit(true);
		}
		return (System.nanoTime() - began) / 1e6;
	}

	private static void heartbeat(PostgresDatabase db) {
		try (Connection connection = db.connect();
				PreparedStatement update = connection.prepareStatement(
						"UPDATE refstore_node SET heartbeat_at = CURRENT_TIMESTAMP WHERE name LIKE 'sim-%'")) {
			update.executeUpdate();
		}
		catch (Exception ex) {
			System.err.println("heartbeat failed: " + ex);
		}
	}

	private static long total(AppProcess node) throws Exception {
		return JsonPath.parse(node.get("/api/fleet/repositories?limit=1").body()).read("$.total", Long.class);
	}

	@FunctionalInterface
	private interface Request {

		HttpResponse<String> send() throws Exception;

	}

	private static void time(String what, int requests, Request request) throws Exception {
		for (int i = 0; i < 5; i++) {
			check(request.send(), what);
		}
		List<Double> times = new ArrayList<>();
		for (int i = 0; i < requests; i++) {
			long began = System.nanoTime();
			check(request.send(), what);
			times.add((System.nanoTime() - began) / 1e6);
		}
		System.out.printf(Locale.ROOT, "%-62s median %6.1f ms  p90 %6.1f ms%n", what, median(times),
				percentile(times, 0.9));
	}

	private static void check(HttpResponse<String> response, String what) {
		if (response.statusCode() != 200) {
			throw new IllegalStateException(what + ": " + response.statusCode() + " " + response.body());
		}
	}

	private static double median(List<Double> values) {
		return percentile(values, 0.5);
	}

	private static double percentile(List<Double> values, double p) {
		List<Double> sorted = new ArrayList<>(values);
		Collections.sort(sorted);
		return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(p * sorted.size())));
	}

	private static void await(CheckedCondition condition) {
		Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).until(condition::holds);
	}

	@FunctionalInterface
	private interface CheckedCondition {

		boolean holds() throws Exception;

	}

}
