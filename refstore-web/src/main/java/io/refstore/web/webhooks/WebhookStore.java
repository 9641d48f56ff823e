package io.refstore.web.webhooks;

import static io.refstore.web.system.Columns.cut;
import static io.refstore.web.system.Columns.instant;
import static io.refstore.web.system.Columns.utc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;

/**
 * The {@code refstore_webhook} and {@code refstore_webhook_delivery} tables. A delivery
 * is claimed by one node at a time with a conditional {@code UPDATE}, and its outcome is
 * written only by the node that claimed it.
 */
@Repository
class WebhookStore {

	private static final int RESPONSE = 1024;

	private final JdbcClient jdbc;

	WebhookStore(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/** A due delivery with what sending it needs of its webhook. */
	record Due(Delivery delivery, String url, String secret, boolean active) {

	}

	List<Webhook> all() {
		return this.jdbc.sql("SELECT * FROM refstore_webhook ORDER BY name").query(this::webhook).list();
	}

	/** The active webhooks that want {@code event}. */
	List<WithSecret> wanting(String event) {
		return this.jdbc.sql("SELECT * FROM refstore_webhook WHERE active = TRUE ORDER BY id")
			.query((rs, row) -> new WithSecret(webhook(rs, row), rs.getString("secret")))
			.list()
			.stream()
			.filter((hook) -> hook.webhook().events().contains(event))
			.toList();
	}

	/** A webhook and its secret. */
	record WithSecret(Webhook webhook, String secret) {

	}

	Optional<Webhook> find(long id) {
		return this.jdbc.sql("SELECT * FROM refstore_webhook WHERE id = ?").params(id).query(this::webhook).optional();
	}

	Optional<Webhook> findByName(String name) {
		return this.jdbc.sql("SELECT * FROM refstore_webhook WHERE name = ?")
			.params(name)
			.query(this::webhook)
			.optional();
	}

	long insert(String name, String url, String secret, List<String> events, String repositories, boolean active,
			String actor) {
		KeyHolder key = new GeneratedKeyHolder();
		this.jdbc.sql(
				"INSERT INTO refstore_webhook (name, url, secret, events, repositories, active, created_at, created_by)"
						+ " VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
			.params(name, url, secret, String.join(",", events), repositories, active, utc(Instant.now()),
					cut(actor, 200))
			.update(key, "id");
		return key.getKey().longValue();
	}

	/** Updates a webhook; a {@code null} secret keeps its own. */
	boolean update(long id, String name, String url, String secret, List<String> events, String repositories,
			boolean active) {
		return this.jdbc
			.sql("UPDATE refstore_webhook SET name = ?, url = ?, secret = COALESCE(?, secret), events = ?,"
					+ " repositories = ?, active = ? WHERE id = ?")
			.params(name, url, secret, String.join(",", events), repositories, active, id)
			.update() == 1;
	}

	/** Deletes a webhook and its deliveries. */
	boolean delete(long id) {
		return this.jdbc.sql("DELETE FROM refstore_webhook WHERE id = ?").params(id).update() == 1;
	}

	/** Records a delivery due now. */
	long enqueue(long webhookId, String guid, String event, String repository, String payload) {
		Instant now = Instant.now();
		KeyHolder key = new GeneratedKeyHolder();
		this.jdbc
			.sql("INSERT INTO refstore_webhook_delivery (webhook_id, guid, event, repository, payload, created_at,"
					+ " state, attempts, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)")
			.params(webhookId, guid, event, cut(repository, 1024), payload, utc(now), Delivery.State.PENDING.name(),
					utc(now))
			.update(key, "id");
		return key.getKey().longValue();
	}

	/**
	 * Up to {@code limit} deliveries due at {@code now} that no node holds, oldest first.
	 */
	List<Due> due(Instant now, int limit) {
		return this.jdbc
			.sql("SELECT d.*, w.url, w.secret, w.active FROM refstore_webhook_delivery d"
					+ " JOIN refstore_webhook w ON w.id = d.webhook_id WHERE d.state = ? AND d.next_attempt_at <= ?"
					+ " AND (d.claimed_until IS NULL OR d.claimed_until < ?) ORDER BY d.next_attempt_at, d.id LIMIT ?")
			.params(Delivery.State.PENDING.name(), utc(now), utc(now), limit)
			.query((rs, row) -> new Due(delivery(rs, row), rs.getString("url"), rs.getString("secret"),
					rs.getBoolean("active")))
			.list();
	}

	/**
	 * Claims a due delivery for {@code node} until {@code until}; false if another has
	 * it.
	 */
	boolean claim(long id, String node, Instant now, Instant until) {
		return this.jdbc
			.sql("UPDATE refstore_webhook_delivery SET claimed_by = ?, claimed_until = ? WHERE id = ? AND state = ?"
					+ " AND (claimed_until IS NULL OR claimed_until < ?)")
			.params(cut(node, 200), utc(until), id, Delivery.State.PENDING.name(), utc(now))
			.update() == 1;
	}

	/**
	 * Records an attempt of a delivery {@code node} holds: its new state, when the next
	 * attempt is due (PENDING), and the answer.
	 */
	void attempted(long id, String node, Delivery.State state, Instant next, Integer statusCode, String response,
			long durationMillis, Instant at) {
		this.jdbc
			.sql("UPDATE refstore_webhook_delivery SET state = ?, attempts = attempts + 1, next_attempt_at = ?,"
					+ " claimed_by = NULL, claimed_until = NULL, status_code = ?, response = ?, duration_millis = ?,"
					+ " attempted_at = ? WHERE id = ? AND claimed_by = ?")
			.params(state.name(), utc(next), statusCode, cut(response, RESPONSE), durationMillis, utc(at), id,
					cut(node, 200))
			.update();
	}

	/** A webhook's deliveries, newest first, with ids below {@code before} if given. */
	List<Delivery> deliveries(long webhookId, Long before, int limit) {
		return this.jdbc
			.sql("SELECT * FROM refstore_webhook_delivery WHERE webhook_id = ? AND id < ? ORDER BY id DESC LIMIT ?")
			.params(webhookId, (before == null) ? Long.MAX_VALUE : before, limit)
			.query(this::delivery)
			.list();
	}

	Optional<Delivery> delivery(long webhookId, long id) {
		return this.jdbc.sql("SELECT * FROM refstore_webhook_delivery WHERE webhook_id = ? AND id = ?")
			.params(webhookId, id)
			.query(this::delivery)
			.optional();
	}

	private Webhook webhook(ResultSet rs, int row) throws SQLException {
		String events = rs.getString("events");
		return new Webhook(rs.getLong("id"), rs.getString("name"), rs.getString("url"),
				events.isEmpty() ? List.of() : Arrays.asList(events.split(",")), rs.getString("repositories"),
				rs.getBoolean("active"), instant(rs, "created_at"), rs.getString("created_by"));
	}

	private Delivery delivery(ResultSet rs, int row) throws SQLException {
		return new Delivery(rs.getLong("id"), rs.getLong("webhook_id"), rs.getString("guid"), rs.getString("event"),
				rs.getString("repository"), rs.getString("payload"), instant(rs, "created_at"),
				Delivery.State.valueOf(rs.getString("state")), rs.getInt("attempts"), instant(rs, "next_attempt_at"),
				rs.getObject("status_code", Integer.class), rs.getString("response"),
				rs.getObject("duration_millis", Long.class), instant(rs, "attempted_at"));
	}

}
