package io.refstore.web.repos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * Actuator and API description: health is public, info (version, commit, build time),
 * metrics and Prometheus need VIEWER and carry the ref-store gauges, each with a help
 * text and named by Prometheus's conventions; the OpenAPI description and Swagger UI are
 * public and document the URL scheme.
 */
class OperationsIT extends ApiTestSupport {

	@Autowired
	RefStoreMetrics metrics;

	@Test
	void prometheusShowsRefsPerRepositoryAndNamespace() throws Exception {
		String name = uniqueName("metrics");
		TempRepo repo = bareRepo(name);
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		repo.git("update-ref", "refs/tags/v1", c1);
		repo.git("update-ref", "refs/tags/v2", c1);
		this.metrics.refresh();
		this.mvc.perform(get("/actuator/prometheus").with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(content()
				.string(containsString("refstore_refs{namespace=\"refs/tags\",repository=\"" + name + "\"} 2.0")))
			.andExpect(content().string(containsString("refstore_store_loose_refs{repository=\"" + name + "\"} 3.0")));
		this.mvc.perform(get("/actuator/metrics/refstore.refs").with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.name").value("refstore.refs"));
	}

	@Test
	void everyRefstoreMeterHasAHelpTextAndAConventionalName() throws Exception {
		TempRepo repo = bareRepo(uniqueName("metrics-help"));
		repo.git("update-ref", "refs/heads/main", repo.commit("one", null));
		this.metrics.refresh();
		String scrape = prometheusScrape();
		Map<String, String> types = new TreeMap<>();
		Map<String, String> helps = new TreeMap<>();
		Matcher line = Pattern.compile("(?m)^# (TYPE|HELP) (refstore_\\S+) ?(.*)$").matcher(scrape);
		while (line.find()) {
			(line.group(1).equals("TYPE") ? types : helps).put(line.group(2), line.group(3));
		}
		assertThat(types).containsKeys("refstore_refs", "refstore_store_bytes", "refstore_store_loose_refs",
				"refstore_store_packed_refs", "refstore_store_tables", "refstore_store_maintenance_due",
				"refstore_fleet_reporter");
		assertThat(helps.keySet()).isEqualTo(types.keySet());
		types.forEach((metric, type) -> {
			assertThat(helps.get(metric)).as("help of %s", metric).isNotBlank();
			if (type.equals("counter")) {
				assertThat(metric).as("a counter").endsWith("_total");
			}
			if (type.equals("histogram") || type.equals("summary")) {
				assertThat(metric).as("a timer").endsWith("_seconds");
			}
		});
	}

	@Test
	void infoShowsTheVersionCommitAndBuildTime() throws Exception {
		Path module = Path.of("").toAbsolutePath();
		String pom = Files.readString(module.resolve("pom.xml"));
		Matcher version = Pattern.compile("<artifactId>refstore-parent</artifactId>\\s*<version>([^<]+)</version>")
			.matcher(pom);
		assertThat(version.find()).isTrue();
		// git-commit-id-maven-plugin reads the repository's HEAD; in a linked worktree
		// (git worktree add) that of the main checkout, its common directory's
		String commonDir = GitCli.system()
			.ok(module, "rev-parse", "--path-format=absolute", "--git-common-dir")
			.strip();
		String head = GitCli.system().ok(module, "--git-dir=" + commonDir, "rev-parse", "HEAD").strip();
		String info = this.mvc.perform(get("/actuator/info").with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.build.version").value(version.group(1)))
			.andExpect(jsonPath("$.build.artifact").value("refstore-web"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		String commit = JsonPath.read(info, "$.git.commit.id");
		assertThat(commit).hasSizeGreaterThanOrEqualTo(7);
		assertThat(head).startsWith(commit);
		Instant built = Instant.parse(JsonPath.read(info, "$.build.time"));
		assertThat(built).isBefore(Instant.now()).isAfter(Instant.now().minus(Duration.ofDays(30)));
		assertThat(Instant.parse(JsonPath.<String>read(info, "$.git.commit.time"))).isBeforeOrEqualTo(built);
	}

	@Test
	void healthIsPublicTheRestNeedsAViewer() throws Exception {
		this.mvc.perform(get("/actuator/health"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.status").value("UP"))
			.andExpect(jsonPath("$.components").doesNotExist());
		this.mvc.perform(get("/actuator/health").with(as("viewer")))
			.andExpect(jsonPath("$.components.db.status").value("UP"))
			.andExpect(jsonPath("$.components.diskSpace.details.free").isNumber())
			.andExpect(jsonPath("$.components.diskSpace.details.path").doesNotExist())
			.andExpect(content().string(not(containsString(HOME.toString()))));
		// an admin is a viewer too; a single node without a fleet secret has no peers
		this.mvc.perform(get("/actuator/health").with(as("admin")))
			.andExpect(jsonPath("$.components.fleet.status").value("UP"))
			.andExpect(jsonPath("$.components.fleet.details.secret").value(containsString("none")))
			.andExpect(jsonPath("$.components.fleet.details.peers").isEmpty());
		for (String path : new String[] { "/actuator/info", "/actuator/metrics", "/actuator/prometheus" }) {
			this.mvc.perform(get(path)).andExpect(status().isUnauthorized());
			this.mvc.perform(get(path).with(as("nobody"))).andExpect(status().isForbidden());
			this.mvc.perform(get(path).with(as("viewer"))).andExpect(status().isOk());
		}
	}

	@Test
	void theApiDescriptionIsPublicAndExplainsEncodedNames() throws Exception {
		this.mvc.perform(get("/v3/api-docs"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.info.description").value(containsString("team%2Fproject.git")))
			.andExpect(jsonPath("$.paths['/api/repos/{repo}/refs:batch'].post").exists())
			.andExpect(jsonPath("$.paths['/api/repos/{repo}/refs/{ref}/log'].get").exists())
			.andExpect(jsonPath("$.components.securitySchemes.token.scheme").value("bearer"));
		this.mvc.perform(get("/swagger-ui/index.html")).andExpect(status().isOk());
	}

}
