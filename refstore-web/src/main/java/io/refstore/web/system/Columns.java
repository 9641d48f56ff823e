package io.refstore.web.system;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Values as the web layer's tables hold them: instants as UTC timestamps, long texts cut
 * to their column, job parameters as a JSON object. Stateless.
 */
public final class Columns {

	/** The longest detail a table keeps (a job's failure, a run's refusal). */
	public static final int DETAIL = 4096;

	private Columns() {
	}

	/** The instant in {@code column}, or {@code null}. */
	public static Instant instant(ResultSet rs, String column) throws SQLException {
		Timestamp at = rs.getTimestamp(column);
		return (at == null) ? null : at.toInstant();
	}

	/** {@code instant} as a UTC timestamp to write, or {@code null}. */
	public static OffsetDateTime utc(Instant instant) {
		return (instant == null) ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
	}

	/** {@code text} cut to {@code max} characters, an ellipsis marking the cut. */
	public static String cut(String text, int max) {
		return (text == null || text.length() <= max) ? text : text.substring(0, max - 1) + "…";
	}

	/**
	 * The job parameters in the {@code parameters} column (schedules, campaigns, the
	 * audit log: a JSON object of texts, written with {@code json}), in their stored
	 * order; empty if the column is {@code null}.
	 */
	public static Map<String, String> parameters(ResultSet rs, JsonMapper json) throws SQLException {
		Map<String, String> parameters = new LinkedHashMap<>();
		String text = rs.getString("parameters");
		if (text != null) {
			parameters.putAll(json.readValue(text, new TypeReference<Map<String, String>>() {
			}));
		}
		return parameters;
	}

}
