package io.refstore.web.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Structured logging as docs/operators.md sets it
 * ({@code logging.structured.format.console=ecs}, banner off), in an application of its
 * own JVM (a logging setup is the JVM's): every line it writes is one JSON object; the
 * audit line of a ref written through the API carries the request's correlation id (as
 * answered in {@code X-Correlation-Id}), the user and the repository as fields, and a
 * job's lines its execution, repository and actor.
 */
class StructuredLoggingIT {

	private static final String PASSWORD = "logging-password";

	private static final Pattern STARTED = Pattern.compile("Tomcat started on port (\\d+)");

	private final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@TempDir
	Path home;

	private Process app;

	@AfterEach
	void stop() {
		if (this.app != null) {
			this.app.destroyForcibly();
		}
	}

	@Test
	void everyLineIsOneJsonObjectWithTheRequestsCorrelationIdUserAndRepository() throws Exception {
		Path root = this.home.resolve("repos");
		TempRepo repo = TempRepo.init(GitCli.system(), root.resolve("team.git"), "--bare");
		String commit = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", commit);
		Path log = this.home.resolve("app.log");
		String hash = "{bcrypt}" + new BCryptPasswordEncoder(4).encode(PASSWORD);
		this.app = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx320m",
				"-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
				"io.refstore.web.RefstoreApplication", "--server.port=0", "--refstore.home=" + this.home,
				"--refstore.repositories.roots[0]=" + root, "--refstore.demo.enabled=false",
				"--refstore.security.users[0].name=ann", "--refstore.security.users[0].password=" + hash,
				"--refstore.security.users[0].roles=ADMIN", "--logging.structured.format.console=ecs",
				"--spring.main.banner-mode=off")
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		int port = await("the application to start").atMost(Duration.ofSeconds(300))
			.pollInterval(Duration.ofMillis(500))
			.until(() -> started(log), Optional::isPresent)
			.orElseThrow();

		HttpResponse<String> put = this.http
			.send(request(port, "/api/repos/team.git/refs/refs%2Fheads%2Fx").header("If-None-Match", "*")
				.header("Content-Type", "application/json")
				.PUT(HttpRequest.BodyPublishers.ofString("{\"sha\": \"" + commit + "\"}"))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
		String correlationId = put.headers().firstValue("X-Correlation-Id").orElseThrow();
		JsonNode audit = await("the audit line of the write").atMost(Duration.ofSeconds(30))
			.until(() -> line(log,
					(node) -> correlationId.equals(text(node, "correlationId"))
							&& text(node, "message").startsWith("audit: ")),
					Optional::isPresent)
			.orElseThrow();
		assertThat(text(audit, "user")).isEqualTo("ann");
		assertThat(text(audit, "repository")).isEqualTo("team.git");
		assertThat(text(audit, "message")).contains("refs/heads/x");
		assertThat(audit.path("log").path("level").asString(audit.path("log.level").asString(""))).isEqualTo("INFO");

		HttpResponse<String> launch = this.http
			.send(request(port, "/api/jobs/verifications").header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString("{\"repository\": \"team.git\"}"))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(launch.statusCode()).as(launch.body()).isEqualTo(201);
		JsonNode job = await("a line the job logged").atMost(Duration.ofSeconds(60))
			.until(() -> line(log, (node) -> !text(node, "jobExecutionId").isEmpty()), Optional::isPresent)
			.orElseThrow();
		assertThat(text(job, "repository")).isEqualTo("team.git");
		assertThat(text(job, "user")).isEqualTo("ann");

		List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
		assertThat(lines).hasSizeGreaterThan(10);
		for (String line : lines) {
			assertThat(this.json.readTree(line).isObject()).as("one JSON object: %s", line).isTrue();
		}
	}

	private HttpRequest.Builder request(int port, String path) {
		String basic = Base64.getEncoder().encodeToString(("ann:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
		return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.header("Authorization", "Basic " + basic);
	}

	private Optional<Integer> started(Path log) throws Exception {
		if (!this.app.isAlive()) {
			throw new IllegalStateException("the application exited: " + Files.readString(log));
		}
		Matcher started = STARTED.matcher(Files.readString(log));
		return started.find() ? Optional.of(Integer.parseInt(started.group(1))) : Optional.empty();
	}

	/** The first line of the log that matches, parsed. */
	private Optional<JsonNode> line(Path log, java.util.function.Predicate<JsonNode> matching) throws Exception {
		for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
			if (line.startsWith("{")) {
				JsonNode node = this.json.readTree(line);
				if (matching.test(node)) {
					return Optional.of(node);
				}
			}
		}
		return Optional.empty();
	}

	private static String text(JsonNode node, String field) {
		return node.path(field).asString("");
	}

}
