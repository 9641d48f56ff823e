package io.refstore.web;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

/**
 * A fresh database on the test PostgreSQL server, dropped by {@link #close()}. The server
 * is the one {@code .ci/start-postgres.sh} starts; its JDBC URL comes from
 * {@code REFSTORE_TEST_POSTGRES_URL} (which {@code .ci/run} exports), else the script's
 * default. A server that cannot be reached fails the test with a message saying how to
 * start it: these tests never skip.
 */
public final class PostgresDatabase implements AutoCloseable {

	/** The role the script creates. */
	public static final String USER = "refstore";

	/** Its password. */
	public static final String PASSWORD = "refstore";

	private static final String DEFAULT_URL = "jdbc:postgresql://localhost:5432/refstore_test";

	private final String name;

	private final String url;

	private PostgresDatabase(String name, String url) {
		this.name = name;
		this.url = url;
	}

	/** The server's maintenance URL (the {@code refstore_test} database). */
	public static String serverUrl() {
		String url = System.getenv("REFSTORE_TEST_POSTGRES_URL");
		return (url == null || url.isBlank()) ? DEFAULT_URL : url;
	}

	/**
	 * Creates an empty database named after {@code stem} plus a random suffix.
	 * @throws IllegalStateException saying to run {@code .ci/start-postgres.sh} if the
	 * server cannot be reached
	 */
	public static PostgresDatabase create(String stem) {
		String name = (stem + "_" + UUID.randomUUID().toString().substring(0, 8)).toLowerCase(Locale.ROOT);
		String server = serverUrl();
		try (Connection connection = DriverManager.getConnection(server, USER, PASSWORD);
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE DATABASE " + name);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("PostgreSQL at " + server + " (user " + USER + ") cannot be used: "
					+ ex.getMessage() + ". Start it with .ci/start-postgres.sh and export the URL it prints as"
					+ " REFSTORE_TEST_POSTGRES_URL (.ci/run does both)", ex);
		}
		int slash = server.lastIndexOf('/');
		int query = server.indexOf('?', slash);
		String url = server.substring(0, slash + 1) + name + ((query < 0) ? "" : server.substring(query));
		return new PostgresDatabase(name, url);
	}

	/** The database's name. */
	public String name() {
		return this.name;
	}

	/** Its JDBC URL. */
	public String url() {
		return this.url;
	}

	/** A new connection to it. */
	public Connection connect() throws SQLException {
		return DriverManager.getConnection(this.url, USER, PASSWORD);
	}

	/**
	 * Drops the database, closing whatever connection of the test's role is left. Not
	 * {@code WITH (FORCE)}: that refuses (the role may signal only its own backends) when
	 * an autovacuum worker happens to be in the new database, while a plain
	 * {@code DROP DATABASE} stops autovacuum itself and waits for ended backends to exit.
	 */
	@Override
	public void close() {
		try (Connection connection = DriverManager.getConnection(serverUrl(), USER, PASSWORD);
				Statement statement = connection.createStatement()) {
			statement.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + this.name
					+ "' AND usename = current_user AND pid <> pg_backend_pid()");
			statement.execute("DROP DATABASE IF EXISTS " + this.name);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("cannot drop test database " + this.name + ": " + ex.getMessage(), ex);
		}
	}

}
