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

	/**
	 * {@code text} cut to at most {@code max} characters, an ellipsis and the number of
	 * characters cut marking the cut ({@code abc… (5000 more characters)}; only the
	 * ellipsis below 80 characters).
	 */
	public static String cut(String text, int max) {
		if (text == null || text.length() <= max) {
			return text;
		}
		if (max < 80) {
			return text.substring(0, max - 1) + "…";
		}
		// the statement of the cut is at most 31 characters long
		int keep = max - 31;
		return text.substring(0, keep) + "… (" + (text.length() - keep) + " more characters)";
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
