package io.refstore.batch.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;

import org.flywaydb.core.api.Location;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.flywaydb.core.api.configuration.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Records in Flyway's history that a Java migration was replaced by a SQL file of the
 * same name: the Spring Batch and Quartz tables were once made by Java migrations
 * ({@code db.migration.V1__spring_batch_schema}, {@code db.migration.V40__quartz_schema})
 * running the scripts their jars shipped, and are now versioned SQL files copied from
 * those scripts. A database migrated by the Java ones holds rows of type {@code JDBC}
 * without a checksum, which Flyway's validation refuses against the SQL files; before
 * validating (and migrating), each such row whose SQL file exists in a location becomes
 * the row that file would have left (type {@code SQL}, its script and checksum). The
 * tables stay as they are: the files hold the very scripts that made them.
 */
@Component
public class ReplacedJavaMigrations implements Callback {

	private static final Logger log = LoggerFactory.getLogger(ReplacedJavaMigrations.class);

	/**
	 * The package Flyway finds Java migrations in by default, as it prefixes their
	 * script.
	 */
	private static final String JAVA_PACKAGE = "db.migration.";

	@Override
	public boolean supports(Event event, Context context) {
		return event == Event.BEFORE_VALIDATE || event == Event.BEFORE_MIGRATE;
	}

	@Override
	public boolean canHandleInTransaction(Event event, Context context) {
		return true;
	}

	@Override
	public void handle(Event event, Context context) {
		Configuration configuration = context.getConfiguration();
		String table = quote(configuration.getTable());
		if (configuration.getDefaultSchema() != null) {
			table = quote(configuration.getDefaultSchema()) + "." + table;
		}
		try {
			Connection connection = context.getConnection();
			if (!historyExists(connection, configuration.getTable())) {
				return;
			}
			Map<Integer, String> replaced = new LinkedHashMap<>();
			try (PreparedStatement select = connection.prepareStatement("SELECT \"installed_rank\", \"script\" FROM "
					+ table + " WHERE \"type\" = 'JDBC' AND \"script\" LIKE '" + JAVA_PACKAGE + "V%'");
					ResultSet rows = select.executeQuery()) {
				while (rows.next()) {
					replaced.put(rows.getInt(1), rows.getString(2).substring(JAVA_PACKAGE.length()));
				}
			}
			for (Map.Entry<Integer, String> row : replaced.entrySet()) {
				String script = row.getValue() + ".sql";
				URL file = find(configuration, script);
				if (file == null) {
					continue;
				}
				try (PreparedStatement update = connection.prepareStatement("UPDATE " + table
						+ " SET \"type\" = 'SQL', \"script\" = ?, \"checksum\" = ? WHERE \"installed_rank\" = ?"
						+ " AND \"type\" = 'JDBC'")) {
					update.setString(1, script);
					update.setInt(2, checksum(file));
					update.setInt(3, row.getKey());
					update.executeUpdate();
				}
				log.info("Flyway history: {}{} is now {}", JAVA_PACKAGE, row.getValue(), script);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(
					"cannot record the replaced Java migrations in Flyway's history: " + ex.getMessage(), ex);
		}
	}

	@Override
	public String getCallbackName() {
		return "replacedJavaMigrations";
	}

	private static boolean historyExists(Connection connection, String table) throws SQLException {
		try (ResultSet tables = connection.getMetaData().getTables(null, null, table, new String[] { "TABLE" })) {
			return tables.next();
		}
	}

	/** The SQL file of that name in the first class path location holding one. */
	private static URL find(Configuration configuration, String script) {
		for (Location location : configuration.getLocations()) {
			if (location.isClassPath()) {
				String root = location.getRootPath();
				URL file = configuration.getClassLoader().getResource(root.isEmpty() ? script : root + "/" + script);
				if (file != null) {
					return file;
				}
			}
		}
		return null;
	}

	/**
	 * The checksum Flyway gives a SQL migration: CRC-32 of its lines in UTF-8, without
	 * line ends or a leading byte order mark.
	 */
	public static int checksum(URL file) {
		CRC32 crc = new CRC32();
		try (InputStream in = file.openStream();
				BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
			String line = reader.readLine();
			if (line != null && line.startsWith("\uFEFF")) {
				line = line.substring(1);
			}
			for (; line != null; line = reader.readLine()) {
				crc.update(line.getBytes(StandardCharsets.UTF_8));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read " + file, ex);
		}
		return (int) crc.getValue();
	}

	private static String quote(String identifier) {
		return "\"" + identifier.replace("\"", "\"\"") + "\"";
	}

}
