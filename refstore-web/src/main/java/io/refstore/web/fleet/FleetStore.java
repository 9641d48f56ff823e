package io.refstore.web.fleet;

import static io.refstore.web.system.Columns.instant;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import io.refstore.web.system.Columns;

/**
 * The fleet's tables ({@code refstore_node}, {@code refstore_storage},
 * {@code refstore_fleet_repository}). Every time is the database's
 * ({@code CURRENT_TIMESTAMP}), and whether a node is up is judged against the database's
 * clock, so that the nodes' own clocks never matter. Plain SQL that H2 and PostgreSQL
 * both run. Thread-safe.
 */
@Component
class FleetStore {

	private final JdbcClient jdbc;

	private final JdbcTemplate template;

	private final TransactionTemplate transactions;

	FleetStore(JdbcClient jdbc, JdbcTemplate template, TransactionTemplate transactions) {
		this.jdbc = jdbc;
		this.template = template;
		this.transactions = transactions;
	}

	/**
	 * Registers the node (again, after a restart) and claims its storages.
	 * @param secretCheck the node's {@link FleetTrust#check()}, or {@code null}
	 * @param previousCheck the node's {@link FleetTrust#previousCheck()}, or {@code null}
	 * @param storages by name, each directory with its id ({@code .refstore-storage})
	 * @return when the node started before, if it was registered already
	 * @throws IllegalStateException if a storage of one of the names is another directory
	 * (another id), naming it and the node holding it
	 */
	Optional<Instant> register(String node, String url, String version, String secretCheck, String previousCheck,
			Map<String, StorageClaim> storages) {
		return this.transactions.execute((status) -> {
			Optional<Instant> previousStart = this.jdbc.sql("SELECT started_at FROM refstore_node WHERE name = ?")
				.param(node)
				.query((rs, row) -> instant(rs, "started_at"))
				.optional();
			int updated = this.jdbc.sql(
					"UPDATE refstore_node SET url = ?, version = ?, secret_check = ?, previous_check = ?, started_at = CURRENT_TIMESTAMP,"
							+ " heartbeat_at = CURRENT_TIMESTAMP WHERE name = ?")
				.params(url, version, secretCheck, previousCheck, node)
				.update();
			if (updated == 0) {
				this.jdbc
					.sql("INSERT INTO refstore_node (name, url, version, secret_check, previous_check, started_at,"
							+ " heartbeat_at) VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)")
					.params(node, url, version, secretCheck, previousCheck)
					.update();
			}
			for (Map.Entry<String, StorageClaim> storage : storages.entrySet()) {
				String name = storage.getKey();
				StorageClaim claim = storage.getValue();
				this.jdbc
					.sql("SELECT node, storage_id FROM refstore_storage WHERE name = ? AND node <> ? ORDER BY node")
					.params(name, node)
					.query((rs, row) -> {
						if (!rs.getString("storage_id").equals(claim.id())) {
							throw new IllegalStateException("storage '" + name + "' of node '" + rs.getString("node")
									+ "' is another directory: a storage's name is the fleet's, give this one"
									+ " another name (or retire that node once it is down, if the storage moved)");
						}
						return null;
					})
					.list();
				int claimed = this.jdbc
					.sql("UPDATE refstore_storage SET storage_id = ?, root = ? WHERE name = ? AND node = ?")
					.params(claim.id(), claim.root(), name, node)
					.update();
				if (claimed == 0) {
					this.jdbc.sql("INSERT INTO refstore_storage (name, node, storage_id, root) VALUES (?, ?, ?, ?)")
						.params(name, node, claim.id(), claim.root())
						.update();
				}
			}
			// a storage this node no longer has
			for (String gone : this.jdbc.sql("SELECT name FROM refstore_storage WHERE node = ?")
				.param(node)
				.query(String.class)
				.list()) {
				if (!storages.containsKey(gone)) {
					leaveStorage(gone, node);
				}
			}
			return previousStart;
		});
	}

	/**
	 * A storage a node claims: its directory and the id written in it.
	 *
	 * @param root the directory
	 * @param id what {@code .refstore-storage} in it holds
	 */
	record StorageClaim(String root, String id) {
	}

	/** The node no longer holds the storage; its repositories go with the last holder. */
	private void leaveStorage(String storage, String node) {
		this.jdbc.sql("DELETE FROM refstore_storage WHERE name = ? AND node = ?").params(storage, node).update();
		this.jdbc
			.sql("DELETE FROM refstore_fleet_repository WHERE storage = ?"
					+ " AND NOT EXISTS (SELECT 1 FROM refstore_storage s WHERE s.name = ?)")
			.params(storage, storage)
			.update();
	}

	/**
	 * Renews the node's heartbeat.
	 * @return false if the node is not registered (an operator retired it while it ran)
	 */
	boolean heartbeat(String node) {
		return this.jdbc.sql("UPDATE refstore_node SET heartbeat_at = CURRENT_TIMESTAMP WHERE name = ?")
			.param(node)
			.update() == 1;
	}

	/**
	 * Replaces what the fleet knows of one storage's repositories with {@code found}, in
	 * one transaction: readers see the old list or the new one.
	 */
	void replaceInventory(String node, String storage, List<FleetRepositoryRow> found) {
		this.transactions.executeWithoutResult((status) -> {
			this.jdbc.sql("DELETE FROM refstore_fleet_repository WHERE storage = ?").param(storage).update();
			this.template.batchUpdate(
					"INSERT INTO refstore_fleet_repository (storage, path, node, format, refs, loose_refs, bytes,"
							+ " maintenance_due, error, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP)",
					found, 1000, (ps, row) -> {
						ps.setString(1, storage);
						ps.setString(2, row.path());
						ps.setString(3, node);
						ps.setString(4, row.format());
						ps.setObject(5, row.refs());
						ps.setObject(6, row.looseRefs());
						ps.setObject(7, row.bytes());
						ps.setObject(8, row.maintenanceDue());
						ps.setString(9, (row.error() != null) ? Columns.cut(row.error(), 1024) : null);
					});
			this.jdbc
				.sql("UPDATE refstore_node SET inventory_at = CURRENT_TIMESTAMP, repositories = (SELECT COUNT(*)"
						+ " FROM refstore_fleet_repository WHERE node = ?) WHERE name = ?")
				.params(node, node)
				.update();
		});
	}

	/**
	 * Records one repository of a storage again (after a job changed it), as
	 * {@link #replaceInventory} would, without touching the others.
	 */
	void replaceOne(String node, String storage, FleetRepositoryRow row) {
		this.transactions.executeWithoutResult((status) -> {
			this.jdbc.sql("DELETE FROM refstore_fleet_repository WHERE storage = ? AND path = ?")
				.params(storage, row.path())
				.update();
			this.jdbc
				.sql("INSERT INTO refstore_fleet_repository (storage, path, node, format, refs, loose_refs, bytes,"
						+ " maintenance_due, error, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP)")
				.params(storage, row.path(), node, row.format(), row.refs(), row.looseRefs(), row.bytes(),
						row.maintenanceDue(), (row.error() != null) ? Columns.cut(row.error(), 1024) : null)
				.update();
		});
	}

	/** The names of the fleet's storages, of every node, sorted. */
	List<String> storageNames() {
		return this.jdbc.sql("SELECT name FROM refstore_storage ORDER BY name").query(String.class).list();
	}

	/**
	 * Every node with its storages and repository count, by name; {@code up} judged with
	 * {@code downAfter} against the database's clock.
	 */
	List<FleetNode> nodes(Duration downAfter) {
		Map<String, List<String>> storages = new LinkedHashMap<>();
		this.jdbc.sql("SELECT name, node FROM refstore_storage ORDER BY name")
			.query((rs, row) -> storages.computeIfAbsent(rs.getString("node"), (key) -> new ArrayList<>())
				.add(rs.getString("name")))
			.list();
		return this.jdbc.sql("SELECT n.*, CURRENT_TIMESTAMP AS now_at FROM refstore_node n ORDER BY n.name")
			.query((rs, row) -> node(rs, downAfter, storages.getOrDefault(rs.getString("name"), List.of())))
			.list();
	}

	private static FleetNode node(ResultSet rs, Duration downAfter, List<String> storages) throws SQLException {
		Instant now = instant(rs, "now_at");
		Instant heartbeat = instant(rs, "heartbeat_at");
		Duration age = Duration.between(heartbeat, now);
		return new FleetNode(rs.getString("name"), rs.getString("url"), rs.getString("version"),
				instant(rs, "started_at"), heartbeat, instant(rs, "inventory_at"), age.compareTo(downAfter) <= 0,
				Math.max(0, age.toMillis()), List.copyOf(storages), rs.getLong("repositories"));
	}

	/**
	 * One page of the fleet's repositories matching {@code filter}, in storage and path
	 * order, with the total that match.
	 */
	FleetPage repositories(FleetFilter filter, Duration downAfter) {
		StringBuilder where = new StringBuilder(" WHERE 1 = 1");
		List<Object> params = new ArrayList<>();
		if (filter.node() != null) {
			where.append(" AND r.node = ?");
			params.add(filter.node());
		}
		if (filter.storage() != null) {
			where.append(" AND r.storage = ?");
			params.add(filter.storage());
		}
		if (filter.format() != null) {
			where.append(" AND r.format = ?");
			params.add(filter.format());
		}
		if (filter.maintenanceDue() != null) {
			where.append(" AND r.maintenance_due = ?");
			params.add(filter.maintenanceDue());
		}
		if (filter.query() != null) {
			where.append(" AND r.path LIKE ? ESCAPE '\\'");
			params.add("%" + filter.query().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
		}
		long total = this.jdbc.sql("SELECT COUNT(*) FROM refstore_fleet_repository r" + where)
			.params(params)
			.query(Long.class)
			.single();
		List<Object> paged = new ArrayList<>();
		paged.add(upSince(downAfter));
		paged.addAll(params);
		String page = where.toString();
		if (filter.after() != null) {
			int slash = filter.after().indexOf('/');
			String storage = filter.after().substring(0, slash);
			// a row value, which both databases compare in the primary key's order
			page += " AND (r.storage, r.path) > (?, ?)";
			paged.addAll(List.of(storage, filter.after().substring(slash + 1)));
		}
		// one more than the page, to know whether another follows
		List<FleetRepository> rows = new ArrayList<>(this.jdbc
			.sql(REPOSITORIES + page + " ORDER BY r.storage, r.path FETCH FIRST " + (filter.limit() + 1) + " ROWS ONLY")
			.params(paged)
			.query(FleetStore::repository)
			.list());
		String next = null;
		if (rows.size() > filter.limit()) {
			rows.remove(rows.size() - 1);
			next = rows.get(rows.size() - 1).name();
		}
		return new FleetPage(rows, total, next);
	}

	/**
	 * One page of the repositories matching {@code query}, in its order, with the total
	 * that match ({@link FleetPage#next()} is {@code null}: the page is an offset). Each
	 * order is read from its index (V59).
	 */
	FleetPage page(FleetQuery query, Duration downAfter) {
		List<Object> params = new ArrayList<>();
		String where = where(query, params);
		long total = count(where, params);
		// the rows alone, their nodes joined after: PostgreSQL would otherwise compute
		// the up node of every row an offset skips
		Map<String, String> up = upNodes(downAfter);
		List<FleetRepository> rows = this.jdbc
			.sql("SELECT r.* FROM refstore_fleet_repository r" + where + " ORDER BY " + orderBy(query.order())
					+ " OFFSET " + query.offset() + " ROWS FETCH NEXT " + query.limit() + " ROWS ONLY")
			.params(params)
			.query((rs, row) -> repository(rs, up.get(rs.getString("storage"))))
			.list();
		return new FleetPage(rows, total, null);
	}

	/** Each storage held by a node that is up, with the first such node by name. */
	private Map<String, String> upNodes(Duration downAfter) {
		Map<String, String> up = new LinkedHashMap<>();
		this.jdbc
			.sql("SELECT s.name, MIN(s.node) AS node FROM refstore_storage s JOIN refstore_node n ON n.name = s.node"
					+ " WHERE n.heartbeat_at >= ? GROUP BY s.name")
			.param(upSince(downAfter))
			.query((rs, row) -> up.put(rs.getString("name"), rs.getString("node")))
			.list();
		return up;
	}

	/** How many repositories match {@code query} (its order and page aside). */
	long count(FleetQuery query) {
		List<Object> params = new ArrayList<>();
		return count(where(query, params), params);
	}

	private long count(String where, List<Object> params) {
		return this.jdbc.sql("SELECT COUNT(*) FROM refstore_fleet_repository r" + where)
			.params(params)
			.query(Long.class)
			.single();
	}

	/** The first {@code limit} repositories matching {@code query}, in name order. */
	List<FleetRepository> first(FleetQuery query, int limit, Duration downAfter) {
		List<Object> params = new ArrayList<>();
		params.add(upSince(downAfter));
		String where = where(query, params);
		return this.jdbc
			.sql(REPOSITORIES + where + " ORDER BY " + orderBy(FleetQuery.Order.NAME) + " FETCH FIRST " + limit
					+ " ROWS ONLY")
			.params(params)
			.query(FleetStore::repository)
			.list();
	}

	private static String where(FleetQuery query, List<Object> params) {
		StringBuilder where = new StringBuilder(" WHERE 1 = 1");
		if (query.storage() != null) {
			where.append(" AND r.storage = ?");
			params.add(query.storage());
		}
		if (query.format() != null) {
			where.append(" AND r.format = ?");
			params.add(query.format());
		}
		if (query.maintenanceDue() != null) {
			where.append(" AND r.maintenance_due = ?");
			params.add(query.maintenanceDue());
		}
		if (query.query() != null) {
			// ILIKE, which H2 and PostgreSQL both have: no lowered copy of every path
			String like = "%" + query.query().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
			if (query.query().indexOf('/') >= 0) {
				// a qualified name (storage/path) matches as well as a path
				where.append(" AND (r.path ILIKE ? ESCAPE '\\' OR r.storage || '/' || r.path ILIKE ? ESCAPE '\\')");
				params.add(like);
				params.add(like);
			}
			else {
				where.append(" AND r.path ILIKE ? ESCAPE '\\'");
				params.add(like);
			}
		}
		return where.toString();
	}

	/**
	 * Each order exactly as its index (V59) is, so that a page is read in order from it.
	 */
	private static String orderBy(FleetQuery.Order order) {
		return switch (order) {
			case WORST -> "r.maintenance_due DESC NULLS FIRST, r.loose_refs DESC NULLS FIRST, r.refs DESC NULLS FIRST,"
					+ " r.storage, r.path";
			case NAME -> "r.storage, r.path";
			case REFS -> "r.refs DESC NULLS LAST, r.storage, r.path";
			case SIZE -> "r.bytes DESC NULLS LAST, r.storage, r.path";
		};
	}

	/**
	 * Where the fleet has a repository: by {@code <storage>/<path>} if {@code name}'s
	 * first component is a storage that holds it, else every storage holding {@code name}
	 * as a path.
	 */
	List<FleetRepository> locate(String name, Duration downAfter) {
		OffsetDateTime upSince = upSince(downAfter);
		int slash = name.indexOf('/');
		if (slash > 0) {
			List<FleetRepository> qualified = this.jdbc.sql(REPOSITORIES + " WHERE r.storage = ? AND r.path = ?")
				.params(upSince, name.substring(0, slash), name.substring(slash + 1))
				.query(FleetStore::repository)
				.list();
			if (!qualified.isEmpty()) {
				return qualified;
			}
		}
		return this.jdbc.sql(REPOSITORIES + " WHERE r.path = ? ORDER BY r.storage")
			.params(upSince, name)
			.query(FleetStore::repository)
			.list();
	}

	/** Every repository the fleet has, in storage and path order. */
	List<FleetRepository> all(Duration downAfter) {
		return this.jdbc.sql(REPOSITORIES + " ORDER BY r.storage, r.path")
			.param(upSince(downAfter))
			.query(FleetStore::repository)
			.list();
	}

	/** The oldest heartbeat of a node that is up, by the database's clock. */
	private OffsetDateTime upSince(Duration downAfter) {
		return this.jdbc.sql("SELECT CURRENT_TIMESTAMP").query(OffsetDateTime.class).single().minus(downAfter);
	}

	/**
	 * Repositories with the first node (by name) that holds their storage and is up: the
	 * first parameter is the oldest heartbeat of a node that is up.
	 */
	private static final String REPOSITORIES = "SELECT r.*, (SELECT MIN(s.node) FROM refstore_storage s"
			+ " JOIN refstore_node n ON n.name = s.node WHERE s.name = r.storage AND n.heartbeat_at >= ?) AS up_node"
			+ " FROM refstore_fleet_repository r";

	private static FleetRepository repository(ResultSet rs, int row) throws SQLException {
		return repository(rs, rs.getString("up_node"));
	}

	/**
	 * A row, {@code up} the first node holding its storage that is up, or {@code null}.
	 */
	private static FleetRepository repository(ResultSet rs, String up) throws SQLException {
		return new FleetRepository(rs.getString("storage"), rs.getString("path"),
				(up != null) ? up : rs.getString("node"), rs.getString("format"), rs.getObject("refs", Long.class),
				rs.getObject("loose_refs", Long.class), rs.getObject("bytes", Long.class),
				rs.getObject("maintenance_due", Boolean.class), rs.getString("error"), instant(rs, "seen_at"),
				up != null);
	}

	/**
	 * Whether {@code node} is registered and up, judged with {@code downAfter} against
	 * the database's clock.
	 */
	boolean up(String node, Duration downAfter) {
		return this.jdbc.sql("SELECT COUNT(*) FROM refstore_node WHERE name = ? AND heartbeat_at >= ?")
			.params(node, upSince(downAfter))
			.query(Long.class)
			.single() > 0;
	}

	/** The nodes other than {@code node} that are up, by name. */
	List<Peer> peers(String node, Duration downAfter) {
		return this.jdbc
			.sql("SELECT name, url, secret_check, previous_check FROM refstore_node WHERE name <> ?"
					+ " AND heartbeat_at >= ? ORDER BY name")
			.params(node, upSince(downAfter))
			.query((rs, row) -> new Peer(rs.getString("name"), rs.getString("url"), rs.getString("secret_check"),
					rs.getString("previous_check")))
			.list();
	}

	/**
	 * A node that is up, as another sees it.
	 *
	 * @param name its name
	 * @param url its address, or {@code null}
	 * @param secretCheck its {@link FleetTrust#check()}, or {@code null} without a secret
	 * @param previousCheck its {@link FleetTrust#previousCheck()}, or {@code null}
	 */
	record Peer(String name, String url, String secretCheck, String previousCheck) {
	}

	/** Whether {@code node} holds the storage {@code storage}. */
	boolean holds(String node, String storage) {
		return this.jdbc.sql("SELECT COUNT(*) FROM refstore_storage WHERE node = ? AND name = ?")
			.params(node, storage)
			.query(Long.class)
			.single() > 0;
	}

	/** The address a node registered, if any. */
	Optional<String> url(String node) {
		return this.jdbc.sql("SELECT url FROM refstore_node WHERE name = ? AND url IS NOT NULL")
			.param(node)
			.query(String.class)
			.optional();
	}

	/**
	 * Removes a node, its storages and their repositories from the fleet.
	 * @return false if there is no such node
	 */
	boolean retire(String node) {
		Boolean retired = this.transactions.execute((status) -> {
			for (String storage : this.jdbc.sql("SELECT name FROM refstore_storage WHERE node = ?")
				.param(node)
				.query(String.class)
				.list()) {
				leaveStorage(storage, node);
			}
			return this.jdbc.sql("DELETE FROM refstore_node WHERE name = ?").param(node).update() == 1;
		});
		return Boolean.TRUE.equals(retired);
	}

}
