package io.refstore.web.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import io.refstore.web.PostgresDatabase;

/**
 * The deployment files: {@code docker-compose.yml} passes Debian's compose validator,
 * publishes its port on this host only, keeps the demo users off and refuses to start
 * without the database password's secret file and the first admin's hash, and the image's
 * entry point ({@code docker/refstore-web}) starts the built jar with the environment the
 * compose file gives it (postgres profile, {@code SPRING_DATASOURCE_*},
 * {@code REFSTORE_HOME}, {@code REFSTORE_DEMO_ENABLED}) against the local PostgreSQL
 * until {@code /actuator/health} is UP. No Docker engine runs here, so the image itself
 * is not built.
 */
class DockerFilesIT {

	private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();

	@Test
	void composeFileIsValidAndPublishesNoKnownPassword() throws Exception {
		Path secret = Files.createTempFile("db-password", "");
		Files.writeString(secret, "not-a-default\n");
		Map<String, String> env = Map.of("REFSTORE_DB_PASSWORD_FILE", secret.toString(), "REFSTORE_ADMIN_PASSWORD_HASH",
				"{bcrypt}$2a$10$0123456789012345678901uJ3T2ScIrI0cLZ0Yxk6Pc8YwTz1xK5e");
		assertThat(compose(env, "config", "-q")).isEmpty();
		String config = compose(env, "config");
		assertThat(config).as("the port, on this host only")
			.contains("- 127.0.0.1:8080:8080/tcp")
			.as("the demo users, off")
			.contains("REFSTORE_DEMO_ENABLED: \"false\"")
			.as("the database password, from the secret file only")
			.contains("POSTGRES_PASSWORD_FILE: /run/secrets/db_password")
			.contains("file: " + secret)
			.doesNotContain("POSTGRES_PASSWORD:")
			.contains("SPRING_DATASOURCE_PASSWORD: $${db_password}")
			.as("the first admin, from the environment")
			.contains("REFSTORE_SECURITY_USERS_0_PASSWORD: '{bcrypt}$$2a$$10$$0123");
		for (String missing : env.keySet()) {
			Map<String, String> without = new java.util.HashMap<>(env);
			without.remove(missing);
			assertThatThrownBy(() -> compose(without, "config", "-q")).as("compose without " + missing)
				.hasMessageContaining(missing);
		}
	}

	/**
	 * The fleet example: a second node with its own name, address, storage and volumes,
	 * both nodes given the fleet's secret from a file only.
	 */
	@Test
	void fleetExampleAddsASecondNodeWithItsOwnStorage() throws Exception {
		Path secret = Files.createTempFile("db-password", "");
		Files.writeString(secret, "not-a-default\n");
		Path fleetSecret = Files.createTempFile("fleet-secret", "");
		Files.writeString(fleetSecret, "0123456789abcdef0123456789abcdef\n");
		Map<String, String> env = Map.of("REFSTORE_DB_PASSWORD_FILE", secret.toString(), "REFSTORE_ADMIN_PASSWORD_HASH",
				"{bcrypt}$2a$10$0123456789012345678901uJ3T2ScIrI0cLZ0Yxk6Pc8YwTz1xK5e", "REFSTORE_FLEET_SECRET_FILE",
				fleetSecret.toString());
		List<String> files = List.of("-f", PROJECT.resolve("docker-compose.yml").toString(), "-f",
				PROJECT.resolve("docker-compose.fleet.yml").toString());
		List<String> args = new java.util.ArrayList<>(files);
		args.add("config");
		String config = composeFiles(env, args.toArray(String[]::new));
		assertThat(config)
			.contains("REFSTORE_INSTANCE_ID: app-1", "REFSTORE_INSTANCE_ID: app-2",
					"REFSTORE_FLEET_URL: http://app:8080", "REFSTORE_FLEET_URL: http://app-2:8080",
					"REFSTORE_REPOSITORIES_STORAGES_STORAGE1: /var/lib/refstore/repos",
					"REFSTORE_REPOSITORIES_STORAGES_STORAGE2: /var/lib/refstore/repos",
					"repos-2:/var/lib/refstore/repos", "- 127.0.0.1:8081:8080/tcp", "file: " + fleetSecret)
			.doesNotContain("0123456789abcdef");
		Map<String, String> without = new java.util.HashMap<>(env);
		without.remove("REFSTORE_FLEET_SECRET_FILE");
		args.set(args.size() - 1, "config");
		args.add("-q");
		assertThatThrownBy(() -> composeFiles(without, args.toArray(String[]::new)))
			.hasMessageContaining("REFSTORE_FLEET_SECRET_FILE");
	}

	/**
	 * The fleet's HTTPS example: both nodes serve and trust SSL bundle {@code fleet},
	 * made of PEM files mounted read-only, at {@code https} addresses, and are
	 * health-checked on a plain management port inside the container.
	 */
	@Test
	void fleetTlsExampleServesAndTrustsThePemBundle() throws Exception {
		Path secret = Files.createTempFile("db-password", "");
		Files.writeString(secret, "not-a-default\n");
		Path fleetSecret = Files.createTempFile("fleet-secret", "");
		Files.writeString(fleetSecret, "0123456789abcdef0123456789abcdef\n");
		Map<String, String> env = Map.of("REFSTORE_DB_PASSWORD_FILE", secret.toString(), "REFSTORE_ADMIN_PASSWORD_HASH",
				"{bcrypt}$2a$10$0123456789012345678901uJ3T2ScIrI0cLZ0Yxk6Pc8YwTz1xK5e", "REFSTORE_FLEET_SECRET_FILE",
				fleetSecret.toString());
		String config = composeFiles(env, "-f", PROJECT.resolve("docker-compose.yml").toString(), "-f",
				PROJECT.resolve("docker-compose.fleet.yml").toString(), "-f",
				PROJECT.resolve("docker-compose.fleet-tls.yml").toString(), "config");
		for (String node : List.of("app", "app-2")) {
			assertThat(config).contains("REFSTORE_FLEET_URL: https://" + node + ":8080",
					"SPRING_SSL_BUNDLE_PEM_FLEET_KEYSTORE_CERTIFICATE: file:/run/fleet-tls/" + node + ".crt",
					"SPRING_SSL_BUNDLE_PEM_FLEET_KEYSTORE_PRIVATE_KEY: file:/run/fleet-tls/" + node + ".key");
		}
		assertThat(config).doesNotContain("http://app")
			.contains("SPRING_SSL_BUNDLE_PEM_FLEET_TRUSTSTORE_CERTIFICATE: file:/run/fleet-tls/trusted.crt",
					"SERVER_SSL_BUNDLE: fleet", "REFSTORE_FLEET_SSL_BUNDLE: fleet", "MANAGEMENT_SERVER_PORT: '8079'",
					"MANAGEMENT_SERVER_SSL_ENABLED: \"false\"", "/fleet-tls:/run/fleet-tls:ro",
					"/dev/tcp/127.0.0.1/8079");
		assertThat(config.split("/dev/tcp/127.0.0.1/8079", -1)).as("both healthchecks on the management port")
			.hasSize(3);
		assertThat(config).doesNotContain("/dev/tcp/127.0.0.1/8080");
	}

	/**
	 * Runs docker-compose on the project's file with only {@code env} of the two
	 * passwords' variables.
	 * @return its output
	 * @throws AssertionError with its output if it fails
	 */
	private static String compose(Map<String, String> env, String... args) throws Exception {
		List<String> all = new java.util.ArrayList<>(List.of("-f", PROJECT.resolve("docker-compose.yml").toString()));
		all.addAll(List.of(args));
		return composeFiles(env, all.toArray(String[]::new));
	}

	/** Runs docker-compose with {@code args} (files included) and only {@code env}. */
	private static String composeFiles(Map<String, String> env, String... args) throws Exception {
		List<String> command = new java.util.ArrayList<>(List.of("docker-compose"));
		command.addAll(List.of(args));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
		builder.environment().keySet().removeIf((name) -> name.startsWith("REFSTORE_"));
		builder.environment().putAll(env);
		Process process;
		try {
			process = builder.start();
		}
		catch (IOException ex) {
			throw new AssertionError("docker-compose is missing: install it with 'apt-get install -y docker-compose'"
					+ " (.ci/run does)", ex);
		}
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (process.waitFor() != 0) {
			throw new AssertionError(output);
		}
		return output;
	}

	@Test
	void entryPointStartsTheJarWithThePostgresProfileUntilHealthIsUp() throws Exception {
		Path jar = builtJar();
		Path home = Files.createTempDirectory("refstore-entrypoint").toRealPath();
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		try (PostgresDatabase db = PostgresDatabase.create("refstore_entrypoint")) {
			ProcessBuilder builder = new ProcessBuilder(PROJECT.resolve("docker/refstore-web").toString(),
					"--server.port=" + port)
				.redirectErrorStream(true)
				.redirectOutput(home.resolve("app.log").toFile());
			Map<String, String> env = builder.environment();
			env.put("SPRING_PROFILES_ACTIVE", "postgres");
			env.put("SPRING_DATASOURCE_URL", db.url());
			env.put("SPRING_DATASOURCE_USERNAME", PostgresDatabase.USER);
			// the password as compose gives it: a secret file read through Boot's
			// configtree
			Path secrets = Files.createDirectories(home.resolve("secrets"));
			Files.writeString(secrets.resolve("db_password"), PostgresDatabase.PASSWORD);
			env.put("SPRING_CONFIG_IMPORT", "configtree:" + secrets + "/");
			env.put("SPRING_DATASOURCE_PASSWORD", "${db_password}");
			env.put("REFSTORE_HOME", home.toString());
			env.put("REFSTORE_DEMO_ENABLED", "true");
			env.put("REFSTORE_JAR", jar.toString());
			env.put("JAVA_OPTS", "-Xmx320m -XX:TieredStopAtLevel=1");
			Process app = builder.start();
			try {
				String health = awaitHealth(app, port, home.resolve("app.log"));
				assertThat(health).contains("\"status\":\"UP\"");
				assertThat(home.resolve("repos/demo-files.git/HEAD")).as("REFSTORE_HOME and REFSTORE_DEMO_ENABLED")
					.exists();
				try (Connection connection = db.connect();
						ResultSet rs = connection.createStatement()
							.executeQuery("SELECT COUNT(*) FROM flyway_schema_history WHERE success")) {
					rs.next();
					assertThat(rs.getInt(1)).as("migrations applied to PostgreSQL").isGreaterThanOrEqualTo(5);
				}
			}
			finally {
				app.destroy();
				app.waitFor();
			}
		}
	}

	private static Path builtJar() throws IOException {
		try (Stream<Path> files = Files.list(Path.of("target"))) {
			List<Path> jars = files.filter((f) -> f.getFileName().toString().matches("refstore-web-.*\\.jar"))
				.filter((f) -> !f.getFileName().toString().endsWith("-plain.jar"))
				.toList();
			assertThat(jars).as("the jar 'package' built before the integration tests").hasSize(1);
			return jars.get(0).toAbsolutePath();
		}
	}

	private static String awaitHealth(Process app, int port, Path log) throws Exception {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
		try {
			return await("a healthy answer").atMost(Duration.ofSeconds(120))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> {
					if (!app.isAlive()) {
						throw new AssertionError(
								"the entry point exited with " + app.exitValue() + ":\n" + Files.readString(log));
					}
					try {
						HttpResponse<String> response = http
							.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health"))
								.build(), HttpResponse.BodyHandlers.ofString());
						return (response.statusCode() == 200) ? response.body() : null;
					}
					catch (IOException ex) {
						// not listening yet
						return null;
					}
				}, Objects::nonNull);
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError("no healthy answer within 120 s:\n" + Files.readString(log), ex);
		}
	}

}
