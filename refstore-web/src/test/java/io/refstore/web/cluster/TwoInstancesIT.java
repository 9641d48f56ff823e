package io.refstore.web.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ObjectInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.PostgresDatabase;

/**
 * Two application instances in two JVMs sharing one PostgreSQL database, as a deployment
 * with two nodes runs: every scheduled fire runs on exactly one of them; a repository's
 * lease taken on one holds on the other; when the instance running a job is killed with
 * {@code SIGKILL}, the survivor marks the execution FAILED once its lease expires,
 * restarts it from its last committed chunk, and keeps firing the schedules.
 */
class TwoInstancesIT {

	private static final int SLOW_REFS = 30;

	@Test
	void everyFireRunsOnceLeasesHoldAcrossInstancesAndTheSurvivorTakesOver() throws Exception {
		Path dir = Files.createTempDirectory("refstore-cluster").toRealPath();
		Path root = Files.createDirectories(dir.resolve("repos"));
		repo(root, "tick.git", 3);
		repo(root, "slow.git", SLOW_REFS);
		try (PostgresDatabase db = PostgresDatabase.create("refstore_cluster");
				AppProcess alpha = start("alpha", db, dir, root);
				AppProcess beta = start("beta", db, dir, root)) {
			alpha.awaitUp();
			beta.awaitUp();

			created(alpha.postJson("/api/schedules", """
					{"name":"tick","jobType":"verify","target":"tick.git","cron":"* * * * * ?"}"""));
			await("six ticks",
					() -> count(db, "SELECT COUNT(*) FROM refstore_schedule_run WHERE schedule_name = 'tick'") >= 6);

			created(beta.postJson("/api/schedules", """
					{"name":"slow","jobType":"migrate","target":"slow.git","onceAt":"%s",
					 "parameters":{"targetFormat":"reftable","chunkSize":"1","throttleMillis":"500"}}"""
				.formatted(Instant.now().plusSeconds(1))));
			await("the slow migration launched", () -> count(db, "SELECT COUNT(*) FROM refstore_schedule_run"
					+ " WHERE schedule_name = 'slow' AND outcome = 'LAUNCHED' AND execution_id IS NOT NULL") == 1);
			long slow = count(db, "SELECT execution_id FROM refstore_schedule_run WHERE schedule_name = 'slow'");
			await("three refs copied", () -> copyCommits(db, slow) >= 3);
			// the instance running it holds its lease (whichever fired the schedule,
			// either
			// may have launched it from the queue)
			String owner = text(db, "SELECT owner_instance FROM refstore_job_lease WHERE execution_id = " + slow);
			AppProcess dying = owner.equals("alpha") ? alpha : beta;
			AppProcess survivor = (dying == alpha) ? beta : alpha;

			// killed holding no lease of the fleet's work: one (a pass over the schedule
			// queue, each second) would hold the survivor's fires until it expired, later
			// than the slow migration's own
			dying.killWhen(() -> count(db, "SELECT COUNT(*) FROM refstore_job_lease WHERE owner_instance = '"
					+ dying.instanceId + "' AND job_name = 'exclusive work'") == 0);
			Instant killed = Instant.now();

			// the dead instance's lease still holds: the survivor's fires on that
			// repository find it busy
			created(survivor.postJson("/api/schedules", """
					{"name":"compete","jobType":"maintain","target":"slow.git","cron":"* * * * * ?"}"""));
			await("a busy fire", () -> count(db, "SELECT COUNT(*) FROM refstore_schedule_run WHERE schedule_name"
					+ " = 'compete' AND outcome = 'BUSY'") >= 1);
			survivor.postJson("/api/schedules/compete/pause", "");
			assertThat(text(db, "SELECT detail FROM refstore_schedule_run WHERE schedule_name = 'compete'"
					+ " AND outcome = 'BUSY'"))
				.contains("on instance '" + owner + "'");
			assertThat(text(db, "SELECT instance_id FROM refstore_schedule_run WHERE schedule_name = 'compete'"
					+ " AND outcome = 'BUSY'"))
				.isEqualTo(survivor.instanceId);

			await("the dead execution marked", () -> "FAILED"
				.equals(text(db, "SELECT status FROM batch_job_execution WHERE job_execution_id = " + slow)));
			assertThat(text(db, "SELECT exit_message FROM batch_job_execution WHERE job_execution_id = " + slow))
				.contains("by a survivor by instance '" + survivor.instanceId + "'")
				.contains("instance '" + owner + "' stopped renewing it");
			long copiedBefore = copyCommits(db, slow);

			long restarted = survivor.restartInConsole(slow);
			await("the restart completed", () -> "COMPLETED"
				.equals(text(db, "SELECT status FROM batch_job_execution WHERE job_execution_id = " + restarted)));
			long resumedFrom = (Long) stepContext(db, restarted, "copyRefsStep").get("copy.resumedFrom");
			assertThat(resumedFrom).as("the restart continued from the last committed chunk")
				.isPositive()
				.isLessThan(SLOW_REFS);
			assertThat(copiedBefore).isPositive();
			// git 2.39 cannot open a reftable repository, but it reads its config file
			assertThat(GitCli.system()
				.run(root, "config", "--file", root.resolve("slow.git/config").toString(), "extensions.refStorage")
				.stdout()
				.trim()).isEqualTo("reftable");

			await("ticks fired by the survivor after the kill", () -> count(db,
					"SELECT COUNT(*) FROM" + " refstore_schedule_run WHERE schedule_name = 'tick' AND instance_id = '"
							+ survivor.instanceId + "' AND scheduled_at > TIMESTAMP WITH TIME ZONE '"
							+ killed.plusSeconds(2) + "'") >= 3);
			survivor.postJson("/api/schedules/tick/pause", "");
			// a fire in flight when the pause came launches its job before it records its
			// run: let it finish. The
			// one exception is a fire of the killed instance between its launch and its
			// record (kill -9 can land
			// there): at most that one launch, made before the kill, stays without its
			// run row
			await("every launched tick recorded", () -> {
				List<List<String>> unrecorded = unrecordedTicks(db);
				// Spring Batch writes creation times as the launching JVM's local time,
				// the zone of this one
				return unrecorded.isEmpty() || (unrecorded.size() == 1
						&& Timestamp.valueOf(unrecorded.get(0).get(1)).toInstant().isBefore(killed));
			});

			assertThat(count(db, "SELECT COUNT(*) FROM refstore_schedule_run WHERE outcome = 'FAILED'")).isZero();
			assertThat(rows(db, "SELECT scheduled_at, COUNT(*) FROM refstore_schedule_run WHERE schedule_name = 'tick'"
					+ " GROUP BY scheduled_at HAVING COUNT(*) > 1"))
				.as("fires that ran twice")
				.isEmpty();
			assertThat(count(db,
					"SELECT COUNT(*) FROM refstore_schedule_run r WHERE schedule_name = 'tick' AND"
							+ " outcome = 'LAUNCHED' AND execution_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM"
							+ " batch_job_execution_params p WHERE p.job_execution_id = r.execution_id AND"
							+ " p.parameter_name = 'actor' AND p.parameter_value = 'schedule:tick')"))
				.as("recorded launches without their job")
				.isZero();
			// kill -9 between taking a queued run and recording its execution leaves that
			// one run without it: at most one, and nothing queued is left behind
			assertThat(count(db,
					"SELECT COUNT(*) FROM refstore_schedule_run WHERE schedule_name = 'tick'"
							+ " AND outcome = 'LAUNCHED' AND execution_id IS NULL"))
				.as("launches cut by the kill")
				.isLessThanOrEqualTo(1);
			await("the queue emptied by the survivor", () -> count(db,
					"SELECT COUNT(*) FROM refstore_schedule_run WHERE schedule_name = 'tick' AND outcome = 'QUEUED'") == 0);
		}
	}

	private static AppProcess start(String id, PostgresDatabase db, Path dir, Path root) throws Exception {
		Path home = Files.createDirectories(dir.resolve(id));
		// the lease outlives Quartz's own failover (a check-in every 5 s, 7.5 s of grace,
		// then
		// 10 s before a missed fire is handled): a trigger the killed instance had
		// acquired
		// can stall the survivor's fires for about 20 s, and the busy fire must still
		// find
		// the lease
		return AppProcess.start(id, db.url(), home, root, dir.resolve(id + ".log"), "--refstore.jobs.lease-ttl=40s",
				"--refstore.jobs.sweep-millis=1000");
	}

	private static void repo(Path root, String name, int refs) {
		TempRepo repo = TempRepo.init(GitCli.system(), root.resolve(name), "--bare");
		String commit = repo.commit(name, null);
		StringBuilder stdin = new StringBuilder();
		for (int i = 0; i < refs; i++) {
			stdin.append("create refs/heads/b").append(i).append(' ').append(commit).append('\n');
		}
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin");
	}

	/**
	 * The executions launched by the tick schedule that no run row names: their ids and
	 * creation times.
	 */
	private static List<List<String>> unrecordedTicks(PostgresDatabase db) throws SQLException {
		return rows(db, "SELECT e.job_execution_id, e.create_time FROM batch_job_execution e JOIN"
				+ " batch_job_execution_params p ON p.job_execution_id = e.job_execution_id WHERE p.parameter_name"
				+ " = 'actor' AND p.parameter_value = 'schedule:tick' AND NOT EXISTS (SELECT 1 FROM"
				+ " refstore_schedule_run r WHERE r.execution_id = e.job_execution_id)");
	}

	private static void created(java.net.http.HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
	}

	private static long copyCommits(PostgresDatabase db, long execution) throws SQLException {
		return count(db, "SELECT COALESCE(MAX(commit_count), 0) FROM batch_step_execution WHERE job_execution_id = "
				+ execution + " AND step_name = 'copyRefsStep'");
	}

	/**
	 * A step's execution context, as Spring Batch's default serializer stores it
	 * (serialized, Base64).
	 */
	@SuppressWarnings("unchecked")
	/** The execution context of one step of an execution, as Spring Batch stored it. */
	static Map<String, Object> stepContext(PostgresDatabase db, long execution, String step) throws Exception {
		String text = text(db,
				"SELECT c.short_context FROM batch_step_execution_context c JOIN batch_step_execution s"
						+ " ON s.step_execution_id = c.step_execution_id WHERE s.job_execution_id = " + execution
						+ " AND s.step_name = '" + step + "'");
		try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(text)))) {
			return (Map<String, Object>) in.readObject();
		}
	}

	private static long count(PostgresDatabase db, String sql) throws SQLException {
		String value = text(db, sql);
		return (value == null) ? -1 : Long.parseLong(value);
	}

	private static String text(PostgresDatabase db, String sql) throws SQLException {
		List<List<String>> rows = rows(db, sql);
		return rows.isEmpty() ? null : rows.get(0).get(0);
	}

	private static List<List<String>> rows(PostgresDatabase db, String sql) throws SQLException {
		try (Connection connection = db.connect();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(sql)) {
			List<List<String>> out = new ArrayList<>();
			while (rs.next()) {
				List<String> row = new ArrayList<>();
				for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
					row.add(rs.getString(i));
				}
				out.add(row);
			}
			return out;
		}
	}

	private static void await(String what, Callable<Boolean> condition) {
		Awaitility.await(what).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(condition);
	}

}
