package io.refstore.web.audit;

import static io.refstore.web.system.Columns.cut;
import static io.refstore.web.system.Columns.parameters;
import static io.refstore.web.system.Columns.utc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

import tools.jackson.databind.json.JsonMapper;

import io.refstore.core.input.Printable;
import io.refstore.web.system.Redaction;

/**
 * The audit table: {@link #record} appends (any code that changes state calls it,
 * whatever the outcome), and {@link #search} reads it newest first with filters and
 * keyset paging (role OPERATOR). Entries published as application events are recorded
 * too, so another module can audit by publishing an {@link AuditEntry}; the batch
 * module's job events get one {@code @EventListener} that maps them the same way.
 * Thread-safe.
 */
@Service
public class AuditLog {

	private static final Logger log = LoggerFactory.getLogger(AuditLog.class);

	private static final int MAX_TEXT = 4096;

	/** The most parameters an entry keeps. */
	static final int MAX_PARAMETERS = 64;

	private final JdbcClient jdbc;

	private final JsonMapper json;

	private final ObjectProvider<ForwardedBy> forwardedBy;

	/**
	 * @param forwardedBy names the node that forwarded the current request, if any; read
	 * at each entry
	 */
	public AuditLog(JdbcClient jdbc, JsonMapper json, ObjectProvider<ForwardedBy> forwardedBy) {
		this.jdbc = jdbc;
		this.json = json;
		this.forwardedBy = forwardedBy;
	}

	/**
	 * Stores {@code entry}; its id is ignored. An entry of a request another node of the
	 * fleet forwarded gets the parameter {@code via}, naming that node.
	 */
	@EventListener
	public void record(AuditEntry entry) {
		// one line per entry for the log aggregator: under a request or a job, its
		// correlation id, user and repository are fields of the line's MDC too
		log.info("audit: {} {} by {} on {}: {}", Printable.excerpt(entry.action()), entry.outcome(),
				Printable.excerpt(entry.actor()), Printable.excerpt(entry.repository()),
				Printable.excerpt(entry.target()));
		ForwardedBy forwarding = this.forwardedBy.getIfAvailable();
		String via = (forwarding != null) ? forwarding.node() : null;
		if (via != null && !entry.parameters().containsKey("via")) {
			Map<String, String> parameters = new LinkedHashMap<>(entry.parameters());
			parameters.put("via", via);
			entry = new AuditEntry(entry.id(), entry.at(), entry.actor(), entry.action(), entry.repository(),
					entry.target(), parameters, entry.outcome(), entry.detail());
		}
		this.jdbc
			.sql("INSERT INTO refstore_audit_event (at, actor, action, repository, target, parameters, outcome, detail)"
					+ " VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
			.params(OffsetDateTime.ofInstant(entry.at(), ZoneOffset.UTC), cut(entry.actor(), 200),
					cut(entry.action(), 100), cut(entry.repository(), 1024), cut(entry.target(), MAX_TEXT),
					this.json.writeValueAsString(bounded(entry.parameters())), entry.outcome().name(),
					cut(entry.detail(), MAX_TEXT))
			.update();
	}

	/**
	 * {@code parameters} as stored: names and values of more than
	 * {@value Printable#EXCERPT} characters as their excerpts (the cut stated), at most
	 * {@value #MAX_PARAMETERS} of them and a last one, {@code …}, saying how many more
	 * there were. A refused request's megabyte is not stored.
	 */
	static Map<String, String> bounded(Map<String, String> parameters) {
		Map<String, String> bounded = new LinkedHashMap<>();
		for (Map.Entry<String, String> parameter : new TreeMap<>(parameters).entrySet()) {
			if (bounded.size() == MAX_PARAMETERS) {
				bounded.put("…", (parameters.size() - MAX_PARAMETERS) + " more parameters");
				break;
			}
			bounded.put(shorter(parameter.getKey()), shorter(parameter.getValue()));
		}
		return bounded;
	}

	private static String shorter(String text) {
		return (text == null || text.length() <= Printable.EXCERPT) ? text : Printable.excerpt(text);
	}

	/**
	 * Entries matching every given filter, newest first.
	 * @return at most {@code filter.limit()} entries and the cursor of the next page
	 */
	@PreAuthorize("hasRole('OPERATOR')")
	public AuditPage search(AuditFilter filter) {
		StringBuilder sql = new StringBuilder("SELECT * FROM refstore_audit_event WHERE 1 = 1");
		List<Object> params = new ArrayList<>();
		matching(sql, params, filter);
		condition(sql, params, "id < ?", filter.before());
		sql.append(" ORDER BY id DESC LIMIT ?");
		params.add(filter.limit() + 1);
		List<AuditEntry> entries = this.jdbc.sql(sql.toString()).params(params).query(this::entry).list();
		Long next = null;
		if (entries.size() > filter.limit()) {
			entries = entries.subList(0, filter.limit());
			next = entries.get(entries.size() - 1).id();
		}
		return new AuditPage(entries, next);
	}

	/**
	 * Where {@link #search} of {@code filter} is: how many entries match the filter (its
	 * cursor aside), and how many of them are newer than the page, for "101–200 of
	 * 1,234".
	 */
	@PreAuthorize("hasRole('OPERATOR')")
	public AuditPosition position(AuditFilter filter) {
		List<Object> params = new ArrayList<>();
		params.add((filter.before() != null) ? filter.before() : Long.MAX_VALUE);
		StringBuilder sql = new StringBuilder("SELECT COUNT(*) AS total, COUNT(CASE WHEN id >= ? THEN 1 END) AS newer"
				+ " FROM refstore_audit_event WHERE 1 = 1");
		matching(sql, params, filter);
		return this.jdbc.sql(sql.toString())
			.params(params)
			.query((rs, row) -> new AuditPosition(rs.getLong("newer"), rs.getLong("total")))
			.single();
	}

	/** The conditions of {@code filter} but its cursor. */
	private static void matching(StringBuilder sql, List<Object> params, AuditFilter filter) {
		condition(sql, params, "actor = ?", filter.actor());
		condition(sql, params, "action = ?", filter.action());
		condition(sql, params, "repository = ?", filter.repository());
		condition(sql, params, "outcome = ?", (filter.outcome() == null) ? null : filter.outcome().name());
		condition(sql, params, "at >= ?", utc(filter.from()));
		condition(sql, params, "at < ?", utc(filter.to()));
	}

	private static void condition(StringBuilder sql, List<Object> params, String condition, Object value) {
		if (value != null) {
			sql.append(" AND ").append(condition);
			params.add(value);
		}
	}

	private AuditEntry entry(ResultSet rs, int row) throws SQLException {
		// entries recorded before jobs' parameters were redacted on the way in
		Map<String, String> parameters = Redaction.parameters(parameters(rs, this.json));
		Timestamp at = rs.getTimestamp("at");
		return new AuditEntry(rs.getLong("id"), at.toInstant(), rs.getString("actor"), rs.getString("action"),
				rs.getString("repository"), rs.getString("target"), parameters,
				AuditEntry.Outcome.valueOf(rs.getString("outcome")), rs.getString("detail"));
	}

}
