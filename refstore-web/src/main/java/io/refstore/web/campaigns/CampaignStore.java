package io.refstore.web.campaigns;

import static io.refstore.web.system.Columns.DETAIL;
import static io.refstore.web.system.Columns.cut;
import static io.refstore.web.system.Columns.instant;
import static io.refstore.web.system.Columns.parameters;
import static io.refstore.web.system.Columns.utc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Component;

import io.refstore.batch.api.RefJobType;
import io.refstore.web.schedules.Schedule;
import io.refstore.web.system.Redaction;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code refstore_campaign} and {@code refstore_campaign_target} tables. Every state
 * change of a target is one conditional {@code UPDATE} on its current state, so a change
 * made from a stale read does nothing. Thread-safe; joins the caller's transaction.
 */
@Component
class CampaignStore {

	private final JdbcClient jdbc;

	private final JsonMapper json;

	CampaignStore(JdbcClient jdbc, JsonMapper json) {
		this.jdbc = jdbc;
		this.json = json;
	}

	/**
	 * Stores a new running campaign with its repositories, all pending, in the given
	 * order; returns its id.
	 */
	long insert(RefJobType type, Schedule.TargetKind kind, String target, Map<String, String> parameters,
			int concurrency, String createdBy, List<String> repositories) {
		KeyHolder key = new GeneratedKeyHolder();
		this.jdbc
			.sql("INSERT INTO refstore_campaign (job_type, target_kind, target, parameters, concurrency, state,"
					+ " cancel_requested, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, FALSE, ?, ?)")
			.params(type.name(), kind.name(), target, this.json.writeValueAsString(parameters), concurrency,
					Campaign.State.RUNNING.name(), createdBy, utc(Instant.now()))
			.update(key, "id");
		long id = key.getKey().longValue();
		for (int i = 0; i < repositories.size(); i++) {
			this.jdbc
				.sql("INSERT INTO refstore_campaign_target (campaign_id, position, repository, state, restarts)"
						+ " VALUES (?, ?, ?, ?, 0)")
				.params(id, i, repositories.get(i), CampaignTarget.State.PENDING.name())
				.update();
		}
		return id;
	}

	Optional<Campaign> find(long id) {
		return this.jdbc.sql("SELECT * FROM refstore_campaign WHERE id = ?").param(id).query(this::campaign).optional();
	}

	/** The newest campaigns first. */
	List<Campaign> all(int limit) {
		return this.jdbc.sql("SELECT * FROM refstore_campaign ORDER BY id DESC LIMIT ?")
			.param(limit)
			.query(this::campaign)
			.list();
	}

	/** The ids of the campaigns still running, oldest first. */
	List<Long> running() {
		return this.jdbc.sql("SELECT id FROM refstore_campaign WHERE state = ? ORDER BY id")
			.param(Campaign.State.RUNNING.name())
			.query(Long.class)
			.list();
	}

	/** The campaign's repositories in order. */
	List<CampaignTarget> targets(long id) {
		return this.jdbc.sql("SELECT * FROM refstore_campaign_target WHERE campaign_id = ? ORDER BY position")
			.param(id)
			.query(CampaignStore::target)
			.list();
	}

	/**
	 * Moves a target from {@code from} to {@code to}; false if it was no longer in
	 * {@code from}.
	 */
	boolean move(CampaignTarget target, CampaignTarget.State from, CampaignTarget.State to, Long executionId,
			String detail) {
		Instant now = Instant.now();
		return this.jdbc
			.sql("UPDATE refstore_campaign_target SET state = ?, execution_id = ?, detail = ?,"
					+ " started_at = ?, ended_at = ? WHERE campaign_id = ? AND position = ? AND state = ?")
			.params(to.name(), executionId, cut(detail, DETAIL),
					utc((from == CampaignTarget.State.PENDING) ? now : target.startedAt()),
					to.ended() ? utc(now) : null, target.campaignId(), target.position(), from.name())
			.update() == 1;
	}

	/** Records the restart of a running target's execution as {@code executionId}. */
	boolean restarted(CampaignTarget target, long executionId) {
		return this.jdbc
			.sql("UPDATE refstore_campaign_target SET execution_id = ?, restarts = restarts + 1"
					+ " WHERE campaign_id = ? AND position = ? AND state = ? AND execution_id = ?")
			.params(executionId, target.campaignId(), target.position(), CampaignTarget.State.RUNNING.name(),
					target.executionId())
			.update() == 1;
	}

	/**
	 * Asks for a cancel and cancels the pending targets; returns how many were cancelled.
	 */
	int cancel(long id, String detail) {
		this.jdbc.sql("UPDATE refstore_campaign SET cancel_requested = TRUE WHERE id = ?").param(id).update();
		return this.jdbc
			.sql("UPDATE refstore_campaign_target SET state = ?, detail = ?, ended_at = ?"
					+ " WHERE campaign_id = ? AND state = ?")
			.params(CampaignTarget.State.CANCELLED.name(), cut(detail, DETAIL), utc(Instant.now()), id,
					CampaignTarget.State.PENDING.name())
			.update();
	}

	/** Ends a running campaign; false if it had ended already. */
	boolean end(long id, Campaign.State state) {
		return this.jdbc.sql("UPDATE refstore_campaign SET state = ?, ended_at = ? WHERE id = ? AND state = ?")
			.params(state.name(), utc(Instant.now()), id, Campaign.State.RUNNING.name())
			.update() == 1;
	}

	private Map<CampaignTarget.State, Integer> counts(long id) {
		Map<CampaignTarget.State, Integer> counts = new EnumMap<>(CampaignTarget.State.class);
		for (CampaignTarget.State state : CampaignTarget.State.values()) {
			counts.put(state, 0);
		}
		this.jdbc.sql("SELECT state, COUNT(*) AS n FROM refstore_campaign_target WHERE campaign_id = ? GROUP BY state")
			.param(id)
			.query((rs, row) -> counts.put(CampaignTarget.State.valueOf(rs.getString("state")), rs.getInt("n")))
			.list();
		return counts;
	}

	private Campaign campaign(ResultSet rs, int row) throws SQLException {
		long id = rs.getLong("id");
		Map<String, String> parameters = parameters(rs, this.json);
		return new Campaign(id, RefJobType.valueOf(rs.getString("job_type")),
				Schedule.TargetKind.valueOf(rs.getString("target_kind")), rs.getString("target"), parameters,
				rs.getInt("concurrency"), Campaign.State.valueOf(rs.getString("state")),
				rs.getBoolean("cancel_requested"), rs.getString("created_by"), instant(rs, "created_at"),
				instant(rs, "ended_at"), counts(id));
	}

	private static CampaignTarget target(ResultSet rs, int row) throws SQLException {
		return new CampaignTarget(rs.getLong("campaign_id"), rs.getInt("position"), rs.getString("repository"),
				CampaignTarget.State.valueOf(rs.getString("state")), rs.getObject("execution_id", Long.class),
				rs.getInt("restarts"), Redaction.paths(rs.getString("detail")), instant(rs, "started_at"),
				instant(rs, "ended_at"));
	}

}
