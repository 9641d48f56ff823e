package io.refstore.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.refstore.core.testing.GitCli;

/**
 * Starts the whole application on a free port, as the first command of README starts it
 * (the demo setup on) but in a temporary home, and talks to it over a real socket with
 * the JDK's HTTP client.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class RefstoreApplicationIT {

	static final Path HOME = createHome();

	@DynamicPropertySource
	static void home(DynamicPropertyRegistry registry) {
		registry.add("refstore.home", HOME::toString);
	}

	private static Path createHome() {
		try {
			return Files.createTempDirectory("refstore-app-it").toRealPath();
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	@LocalServerPort
	int port;

	@Autowired
	ConfigurableEnvironment environment;

	@Test
	void healthEndpointReportsUp() throws IOException, InterruptedException {
		HttpResponse<String> response = get("/actuator/health");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"status\":\"UP\"");
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/vnd.spring-boot.actuator.v3+json"));
	}

	@Test
	void endpointsOutsideTheExposedOnesAreNotFound() throws IOException, InterruptedException {
		assertThat(get("/actuator/env", "admin:admin-demo").statusCode()).isEqualTo(404);
		assertThat(get("/actuator/beans", "admin:admin-demo").statusCode()).isEqualTo(404);
		assertThat(get("/actuator/env").statusCode()).isEqualTo(401);
	}

	@Test
	void firstStartCreatesTwoDemoRepositoriesThatGitAccepts() throws IOException, InterruptedException {
		HttpResponse<String> response = get("/api/repos", "viewer:viewer-demo");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body())
			.containsPattern(
					"\"name\":\"demo-files.git\",\"storage\":\"default\",\"node\":\"[^\"]+\",\"format\":\"files\"")
			.containsPattern(
					"\"name\":\"demo-reftable.git\",\"storage\":\"default\",\"node\":\"[^\"]+\",\"format\":\"reftable\"")
			.contains("\"refs/pull\":2000");
		Path repos = HOME.resolve("repos");
		assertThat(GitCli.system().run(repos.resolve("demo-files.git"), "fsck", "--no-dangling").exitCode()).isZero();
		assertThat(GitCli.reftable().run(repos.resolve("demo-reftable.git"), "fsck", "--no-dangling").exitCode())
			.isZero();
		assertThat(GitCli.reftable()
			.ok(repos.resolve("demo-reftable.git"), "for-each-ref", "--count=1", "refs/tags/v1.0.0"))
			.contains(" tag\trefs/tags/v1.0.0");
		HttpResponse<String> head = get("/api/repos/demo-reftable.git/refs/HEAD", "viewer:viewer-demo");
		assertThat(head.body()).contains("\"symref\":\"refs/heads/main\"");
	}

	@Test
	void isConfiguredByApplicationYml() {
		assertThat(this.environment.getProperty("spring.application.name")).isEqualTo("refstore");
		// RANDOM_PORT overrides server.port for the test, so the file's own value is read
		// from its source
		PropertySource<?> yml = this.environment.getPropertySources()
			.stream()
			.filter((source) -> source.getName().contains("application.yml"))
			.findFirst()
			.orElseThrow(() -> new AssertionError("application.yml was not loaded"));
		assertThat(yml.getProperty("server.port")).hasToString("8080");
		assertThat(this.port).isPositive();
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return get(path, null);
	}

	/**
	 * GET with HTTP Basic {@code user:password}, or anonymously if it is {@code null}.
	 */
	private HttpResponse<String> get(String path, String credentials) throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.timeout(Duration.ofSeconds(30))
			.GET();
		if (credentials != null) {
			request.header("Authorization",
					"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
