package io.refstore.web;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.awaitility.Awaitility;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.RequestPostProcessor;
import org.springframework.web.util.UriUtils;

import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * The application context every API test shares: a temporary {@code refstore.home} with
 * one repository root, an H2 file database in it, the demo off, and one configured user
 * per role (plus {@code nobody}, who has no role), all with password {@link #PASSWORD}.
 * Requests go through MockMvc with the real filter chain and real HTTP Basic;
 * repositories are made by real git under {@link #ROOT}, each test with its own names.
 */
@SpringBootTest
@AutoConfigureMockMvc
public abstract class ApiTestSupport {

	/** The password of every test user. */
	public static final String PASSWORD = "test-password";

	/** The home directory of the shared context. */
	public static final Path HOME = createHome();

	/** The repository root of the shared context. */
	public static final Path ROOT = HOME.resolve("repos");

	private static final AtomicInteger names = new AtomicInteger();

	private static final AtomicInteger contexts = new AtomicInteger();

	@Autowired
	protected MockMvc mvc;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		// cost 4 keeps logins fast; the hashes are still real bcrypt checked by the real
		// encoder
		BCryptPasswordEncoder bcrypt = new BCryptPasswordEncoder(4);
		String hash = "{bcrypt}" + bcrypt.encode(PASSWORD);
		registry.add("refstore.home", HOME::toString);
		// a test class with properties of its own gets a second context while the first
		// lives on in the cache: each has its own database, or the two coordinators and
		// schedule queues (each with its in-JVM locks) would advance the same campaigns,
		// which two nodes never do without the shared locks of the fleet
		String database = "jdbc:h2:file:" + HOME.resolve("data/context-" + contexts.incrementAndGet())
				+ ";AUTO_SERVER=FALSE;WRITE_DELAY=0";
		registry.add("spring.datasource.url", () -> database);
		registry.add("refstore.repositories.roots[0]", ROOT::toString);
		registry.add("refstore.demo.enabled", () -> "false");
		// schedules may fire every 2 s, not every second, so that a test can be refused
		registry.add("refstore.schedules.min-interval", () -> "2s");
		// every repository of the shared root has series of its own: tests read the
		// gauges of their small repositories among hundreds (RepositorySeriesIT ranks,
		// with refstore.test.top-repositories of its own)
		registry.add("refstore.metrics.top-repositories", () -> "${refstore.test.top-repositories:1000000}");
		// webhooks reach the tests' receivers on this machine, and try again soon
		registry.add("refstore.webhooks.allow-local", () -> "true");
		registry.add("refstore.webhooks.poll", () -> "500ms");
		registry.add("refstore.webhooks.timeout", () -> "2s");
		registry.add("refstore.webhooks.backoff", () -> "200ms");
		registry.add("refstore.webhooks.max-attempts", () -> "3");
		// the journal is ingested when a test asks (or a query does), never by the
		// 30-second sweep in between: tests count the entries one ingestion stored
		// (JournalReplayIT once found a run of its 25,001 lines taken by the sweep); the
		// sweep's schedule is tested on applications of their own (FleetJournalIT,
		// JournalIngestionKillIT)
		registry.add("refstore.journal.ingest-interval", () -> "0");
		String[][] users = { { "viewer", "VIEWER" }, { "operator", "OPERATOR" }, { "admin", "ADMIN" },
				{ "admin2", "ADMIN" }, { "nobody", "" } };
		for (int i = 0; i < users.length; i++) {
			String prefix = "refstore.security.users[" + i + "].";
			String[] user = users[i];
			registry.add(prefix + "name", () -> user[0]);
			registry.add(prefix + "password", () -> hash);
			registry.add(prefix + "roles", () -> user[1]);
		}
	}

	private static Path createHome() {
		try {
			Path home = Files.createTempDirectory("refstore-web-test");
			Files.createDirectories(home.resolve("repos"));
			Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(home)));
			return home.toRealPath();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void deleteTree(Path dir) {
		try (Stream<Path> walk = Files.walk(dir)) {
			walk.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// best effort at exit
		}
	}

	/** A name no other test uses, starting with {@code stem}. */
	protected static String uniqueName(String stem) {
		return stem + "-" + names.incrementAndGet();
	}

	/** A new bare repository made by the system git under the root. */
	protected static TempRepo bareRepo(String name) {
		return TempRepo.init(GitCli.system(), ROOT.resolve(name), "--bare");
	}

	/**
	 * The value of the first sample of {@code metric} in a Prometheus scrape whose labels
	 * hold every one of {@code labels} ({@code repository="x"}), or NaN if none does.
	 */
	protected static double prometheusValue(String scrape, String metric, String... labels) {
		for (String line : scrape.lines().toList()) {
			if (line.startsWith(metric + "{") && List.of(labels).stream().allMatch(line::contains)) {
				return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		return Double.NaN;
	}

	/**
	 * Launches an inventory of {@code repo} as the operator and waits (up to 60 s) until
	 * it completed; returns its execution's id.
	 */
	protected long completedInventory(String repo) throws Exception {
		String body = this.mvc
			.perform(post("/api/jobs/inventories").contentType(MediaType.APPLICATION_JSON)
				.content("{\"repository\": \"" + repo + "\"}")
				.with(as("operator")))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString();
		long id = JsonPath.parse(body).read("$.id", Long.class);
		Awaitility.await("inventory " + id)
			.atMost(Duration.ofSeconds(60))
			.until(() -> "COMPLETED".equals(
					JsonPath
						.parse(this.mvc.perform(get("/api/jobs/" + id).with(as("operator")))
							.andReturn()
							.getResponse()
							.getContentAsString())
						.read("$.status", String.class)));
		return id;
	}

	/**
	 * What Prometheus would scrape from {@code /actuator/prometheus}, read as a viewer.
	 */
	protected String prometheusScrape() throws Exception {
		return this.mvc.perform(get("/actuator/prometheus").with(as("viewer")))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
	}

	/** HTTP Basic as {@code user}. */
	protected static RequestPostProcessor as(String user) {
		return SecurityMockMvcRequestPostProcessors.httpBasic(user, PASSWORD);
	}

	/**
	 * {@code value} as one path segment: slashes and everything else outside pchar
	 * percent-encoded.
	 */
	protected static String seg(String value) {
		return UriUtils.encodePathSegment(value, StandardCharsets.UTF_8);
	}

	/** The URI of a repository-relative API path: {@code repoUri("x", "/refs")}. */
	protected static URI repoUri(String repo, String tail) {
		return URI.create("/api/repos/" + seg(repo) + tail);
	}

	/** The URI of one ref. */
	protected static URI refUri(String repo, String ref, String tail) {
		return URI.create("/api/repos/" + seg(repo) + "/refs/" + seg(ref) + tail);
	}

}
