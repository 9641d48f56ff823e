package io.refstore.web.docker;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.refstore.web.PostgresDatabase;

/**
 * The deployment files: {@code docker-compose.yml} passes Debian's compose validator, and
 * the image's entry point ({@code docker/refstore-web}) starts the built jar with the
 * environment the compose file gives it (postgres profile, {@code SPRING_DATASOURCE_*},
 * {@code REFSTORE_HOME}, {@code REFSTORE_DEMO_ENABLED}) against the local PostgreSQL
 * until {@code /actuator/health} is UP. No Docker engine runs here, so the image itself
 * is not built.
 */
class DockerFilesIT {

	private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();

	@Test
	void composeFileIsValid() throws Exception {
		Process process;
		try {
			process = new ProcessBuilder("docker-compose", "-f", PROJECT.resolve("docker-compose.yml").toString(),
					"config", "-q")
				.redirectErrorStream(true)
				.start();
		}
		catch (IOException ex) {
			throw new AssertionError("docker-compose is missing: install it with 'apt-get install -y docker-compose'"
					+ " (.ci/run does)", ex);
		}
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor()).as(output).isZero();
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
			env.put("SPRING_DATASOURCE_PASSWORD", PostgresDatabase.PASSWORD);
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
		Instant deadline = Instant.now().plus(Duration.ofSeconds(120));
		while (Instant.now().isBefore(deadline)) {
			if (!app.isAlive()) {
				throw new AssertionError(
						"the entry point exited with " + app.exitValue() + ":\n" + Files.readString(log));
			}
			try {
				HttpResponse<String> response = http.send(
						HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health")).build(),
						HttpResponse.BodyHandlers.ofString());
				if (response.statusCode() == 200) {
					return response.body();
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			Thread.sleep(500);
		}
		throw new AssertionError("no healthy answer within 120 s:\n" + Files.readString(log));
	}

}
