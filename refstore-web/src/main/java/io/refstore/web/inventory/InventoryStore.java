package io.refstore.web.inventory;

import static io.refstore.web.system.Columns.instant;
import static io.refstore.web.system.Columns.utc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.refstore.batch.api.InventoryRecorder;
import io.refstore.batch.api.RefInventory;

/**
 * The {@code refstore_inventory} and {@code refstore_inventory_namespace} tables: the
 * inventory history, written by {@code inventoryRefsJob} through this recorder in its
 * step's transaction (this class joins the caller's transaction), read back by repository
 * and time. Thread-safe.
 */
@Component
class InventoryStore implements InventoryRecorder {

	private static final String RUNS = "SELECT * FROM refstore_inventory";

	private final JdbcClient jdbc;

	InventoryStore(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public void record(long jobExecutionId, RefInventory inventory) {
		this.jdbc
			.sql("INSERT INTO refstore_inventory (job_execution_id, repository, recorded_at, format, refs, stale,"
					+ " merged, base_ref, loose_refs, packed_refs, table_count, bytes)"
					+ " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
			.params(jobExecutionId, inventory.repository(), utc(inventory.recordedAt()), inventory.format(),
					inventory.refs(), inventory.stale(), inventory.merged(), inventory.base(), inventory.loose(),
					inventory.packed(), inventory.tables(), inventory.bytes())
			.update();
		for (RefInventory.Namespace namespace : inventory.namespaces()) {
			this.jdbc
				.sql("INSERT INTO refstore_inventory_namespace (job_execution_id, namespace, refs, stale, merged)"
						+ " VALUES (?, ?, ?, ?, ?)")
				.params(jobExecutionId, namespace.name(), namespace.refs(), namespace.stale(), namespace.merged())
				.update();
		}
	}

	/**
	 * A repository's runs recorded in {@code [from, to)}, oldest first, the newest
	 * {@code limit} of them.
	 */
	List<InventoryRecord> history(String repository, Instant from, Instant to, int limit) {
		List<InventoryRecord> newestFirst = this.jdbc
			.sql(RUNS + " WHERE repository = ? AND recorded_at >= ? AND recorded_at < ?"
					+ " ORDER BY recorded_at DESC, job_execution_id DESC FETCH FIRST " + limit + " ROWS ONLY")
			.params(repository, utc(from), utc(to))
			.query(InventoryStore::run)
			.list();
		List<InventoryRecord> runs = new ArrayList<>(newestFirst);
		Collections.reverse(runs);
		return withNamespaces(runs);
	}

	/** The newest run of every repository that has one, by repository name. */
	List<InventoryRecord> newest() {
		return withNamespaces(this.jdbc
			.sql(RUNS + " r WHERE NOT EXISTS (SELECT 1 FROM refstore_inventory n"
					+ " WHERE n.repository = r.repository AND (n.recorded_at > r.recorded_at"
					+ " OR (n.recorded_at = r.recorded_at AND n.job_execution_id > r.job_execution_id)))"
					+ " ORDER BY r.repository")
			.query(InventoryStore::run)
			.list());
	}

	/** The newest run of a repository (without its namespaces). */
	Optional<InventoryRecord> newest(String repository) {
		return this.jdbc
			.sql(RUNS
					+ " WHERE repository = ? ORDER BY recorded_at DESC, job_execution_id DESC FETCH FIRST 1 ROWS ONLY")
			.param(repository)
			.query(InventoryStore::run)
			.optional();
	}

	/**
	 * The oldest run of a repository recorded at or after {@code since} (without its
	 * namespaces).
	 */
	Optional<InventoryRecord> oldestSince(String repository, Instant since) {
		return this.jdbc
			.sql(RUNS + " WHERE repository = ? AND recorded_at >= ? ORDER BY recorded_at, job_execution_id"
					+ " FETCH FIRST 1 ROWS ONLY")
			.params(repository, utc(since))
			.query(InventoryStore::run)
			.optional();
	}

	/**
	 * The runs with their namespaces, read in one query per hundred runs.
	 */
	private List<InventoryRecord> withNamespaces(List<InventoryRecord> runs) {
		Map<Long, List<InventoryRecord.Namespace>> byRun = new LinkedHashMap<>();
		for (int from = 0; from < runs.size(); from += 100) {
			List<Long> ids = runs.subList(from, Math.min(runs.size(), from + 100))
				.stream()
				.map(InventoryRecord::jobExecutionId)
				.toList();
			this.jdbc
				.sql("SELECT * FROM refstore_inventory_namespace WHERE job_execution_id IN (:ids)"
						+ " ORDER BY job_execution_id, namespace")
				.param("ids", ids)
				.query((rs) -> {
					byRun.computeIfAbsent(rs.getLong("job_execution_id"), (id) -> new ArrayList<>())
						.add(new InventoryRecord.Namespace(rs.getString("namespace"), rs.getLong("refs"),
								rs.getLong("stale"), nullableLong(rs, "merged")));
				});
		}
		return runs.stream()
			.map((run) -> new InventoryRecord(run.jobExecutionId(), run.repository(), run.recordedAt(), run.format(),
					run.refs(), run.stale(), run.merged(), run.base(), run.looseRefs(), run.packedRefs(), run.tables(),
					run.bytes(), byRun.getOrDefault(run.jobExecutionId(), List.of())))
			.toList();
	}

	private static InventoryRecord run(ResultSet rs, int row) throws SQLException {
		Long tables = nullableLong(rs, "table_count");
		return new InventoryRecord(rs.getLong("job_execution_id"), rs.getString("repository"),
				instant(rs, "recorded_at"), rs.getString("format"), rs.getLong("refs"), rs.getLong("stale"),
				nullableLong(rs, "merged"), rs.getString("base_ref"), nullableLong(rs, "loose_refs"),
				nullableLong(rs, "packed_refs"), (tables != null) ? tables.intValue() : null, rs.getLong("bytes"),
				List.of());
	}

	private static Long nullableLong(ResultSet rs, String column) throws SQLException {
		long value = rs.getLong(column);
		return rs.wasNull() ? null : value;
	}

}
