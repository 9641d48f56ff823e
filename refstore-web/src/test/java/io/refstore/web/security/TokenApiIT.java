package io.refstore.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.jayway.jsonpath.JsonPath;

import io.refstore.web.ApiTestSupport;

/**
 * API tokens: created by their owner (the secret shown once and stored only as a hash),
 * usable as {@code Authorization: Bearer}, carrying their owner's roles and no more,
 * listed and revoked by their owner (an ADMIN sees and revokes all), and refused once
 * revoked.
 */
class TokenApiIT extends ApiTestSupport {

	/** An RFC 3339 UTC time as an {@code Instant} is written: a four-digit year. */
	private static final String RFC_3339 = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z";

	@Autowired
	JdbcClient jdbc;

	private Map<String, Object> create(String user, String name) throws Exception {
		String body = this.mvc
			.perform(post("/api/tokens").with(as(user))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"name\": \"" + name + "\"}"))
			.andExpect(status().isCreated())
			.andExpect(jsonPath("$.token.owner").value(user))
			.andReturn()
			.getResponse()
			.getContentAsString();
		return Map.of("id", ((Number) JsonPath.read(body, "$.token.id")).longValue(), "secret",
				JsonPath.read(body, "$.secret"));
	}

	@Test
	void aTokenAuthenticatesAsItsOwnerUntilRevoked() throws Exception {
		Map<String, Object> token = create("viewer", "ci job");
		String secret = (String) token.get("secret");
		long id = (long) token.get("id");
		assertThat(secret).startsWith("rst_").hasSize(47);
		this.mvc.perform(get("/api/repos").header("Authorization", "Bearer " + secret)).andExpect(status().isOk());
		this.mvc
			.perform(post(repoUri("any", "/refs:batch")).header("Authorization", "Bearer " + secret)
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"updates\": []}"))
			.andExpect(status().isForbidden());
		this.mvc.perform(get("/api/tokens").header("Authorization", "Bearer " + secret))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[?(@.id == " + id + ")].lastUsedAt").isNotEmpty())
			.andExpect(content().string(not(containsString(secret))));
		this.mvc.perform(delete("/api/tokens/" + id).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.revokedBy").value("viewer"));
		this.mvc.perform(get("/api/repos").header("Authorization", "Bearer " + secret))
			.andExpect(status().isUnauthorized())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.detail").value(containsString("revoked")));
		this.mvc.perform(delete("/api/tokens/" + id).with(as("viewer"))).andExpect(status().isConflict());
	}

	@Test
	void onlyAHashOfTheSecretIsStored() throws Exception {
		Map<String, Object> token = create("operator", "stored");
		String secret = (String) token.get("secret");
		List<Map<String, Object>> rows = this.jdbc.sql("SELECT * FROM refstore_api_token WHERE id = ?")
			.param(token.get("id"))
			.query()
			.listOfRows();
		assertThat(rows).singleElement().satisfies((row) -> {
			assertThat(row.values()).noneMatch((value) -> String.valueOf(value).contains(secret.substring(4)));
			assertThat(row.get("SECRET_HASH")).isEqualTo(ApiTokenStore.hash(secret));
		});
	}

	@Test
	void usersSeeAndRevokeOnlyTheirOwnTokensButAnAdminSeesAll() throws Exception {
		long viewers = (long) create("viewer", "mine").get("id");
		this.mvc.perform(get("/api/tokens").with(as("operator")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[*].id").value(not(hasItem((int) viewers))));
		this.mvc.perform(get("/api/tokens?all=true").with(as("operator"))).andExpect(status().isForbidden());
		this.mvc.perform(delete("/api/tokens/" + viewers).with(as("operator"))).andExpect(status().isNotFound());
		this.mvc.perform(get("/api/tokens?all=true").with(as("admin")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[*].id").value(hasItem((int) viewers)));
		this.mvc.perform(delete("/api/tokens/" + viewers).with(as("admin")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.revokedBy").value("admin"));
		this.mvc.perform(delete("/api/tokens/999999").with(as("admin"))).andExpect(status().isNotFound());
		this.mvc.perform(get("/api/audit?action=token.revoke&actor=admin&outcome=SUCCESS").with(as("admin")))
			.andExpect(jsonPath("$.entries[0].target").value("token " + viewers))
			.andExpect(jsonPath("$.entries[0].parameters.owner").value("viewer"));
	}

	@Test
	void badTokensAndBadInputAreProblems() throws Exception {
		this.mvc.perform(get("/api/repos").header("Authorization", "Bearer rst_not-a-token"))
			.andExpect(status().isUnauthorized())
			.andExpect(jsonPath("$.detail").value(containsString("unknown or revoked")));
		this.mvc.perform(get("/api/repos").header("Authorization", "Bearer "))
			.andExpect(status().isUnauthorized())
			.andExpect(jsonPath("$.detail").value(containsString("no token")));
		this.mvc
			.perform(post("/api/tokens").with(as("viewer"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"name\": \"\"}"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("name"));
		this.mvc.perform(post("/api/tokens").with(as("viewer")).contentType(MediaType.APPLICATION_JSON).content("{"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.detail").value(containsString("malformed JSON")));
		this.mvc.perform(post("/api/tokens").contentType(MediaType.APPLICATION_JSON).content("{\"name\": \"x\"}"))
			.andExpect(status().isUnauthorized());
		this.mvc.perform(get("/api/tokens").with(as("nobody"))).andExpect(status().isForbidden());
		this.mvc.perform(delete("/api/tokens/abc").with(as("viewer")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.detail").value(containsString("id")));
	}

	/**
	 * Creates a token with {@code bearer}, or as {@code viewer} with a password if null.
	 */
	private Map<String, Object> createWith(String bearer, String body) throws Exception {
		String response = this.mvc.perform(post("/api/tokens").with((bearer != null) ? (request) -> {
			request.addHeader("Authorization", "Bearer " + bearer);
			return request;
		} : as("viewer")).contentType(MediaType.APPLICATION_JSON).content(body))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString();
		return Map.of("id", ((Number) JsonPath.read(response, "$.token.id")).longValue(), "secret",
				JsonPath.read(response, "$.secret"));
	}

	@Test
	void aTokenExpiresAfterItsTtlOrTheDefault() throws Exception {
		Map<String, Object> lasting = create("viewer", "default ttl");
		String body = this.mvc
			.perform(post("/api/tokens").with(as("viewer"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"name\": \"short\", \"ttl\": \"PT1S\"}"))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString();
		String secret = JsonPath.read(body, "$.secret");
		long id = ((Number) JsonPath.read(body, "$.token.id")).longValue();
		this.mvc.perform(get("/api/repos").header("Authorization", "Bearer " + secret)).andExpect(status().isOk());
		String listed = this.mvc.perform(get("/api/tokens").with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[?(@.id == " + id + ")].lastUsedAt").isNotEmpty())
			.andReturn()
			.getResponse()
			.getContentAsString();
		Instant shortExpiry = Instant
			.parse(JsonPath.<List<String>>read(listed, "$[?(@.id == " + id + ")].expiresAt").get(0));
		Instant defaultExpiry = Instant
			.parse(JsonPath.<List<String>>read(listed, "$[?(@.id == " + lasting.get("id") + ")].expiresAt").get(0));
		assertThat(Duration.between(Instant.now(), defaultExpiry)).isBetween(Duration.ofDays(89), Duration.ofDays(90));
		// polled until refused: before it expires the token still passes
		await("the one-second token to be refused").atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> this.mvc.perform(get("/api/repos").header("Authorization", "Bearer " + secret))
				.andReturn()
				.getResponse()
				.getStatus(), (status) -> status == HttpStatus.UNAUTHORIZED.value());
		assertThat(Instant.now()).isAfterOrEqualTo(shortExpiry);
		this.mvc.perform(get("/api/repos").header("Authorization", "Bearer " + secret))
			.andExpect(status().isUnauthorized())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.detail").value(containsString("expired")));
		this.mvc.perform(get("/api/repos").header("Authorization", "Bearer " + lasting.get("secret")))
			.andExpect(status().isOk());
		this.mvc
			.perform(post("/api/tokens").with(as("viewer"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"name\": \"negative\", \"ttl\": \"-PT1H\"}"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("ttl"));
	}

	@Test
	void aTokenMadeWithATokenDiesWithItsParent() throws Exception {
		Map<String, Object> parent = create("operator", "parent");
		Map<String, Object> child = createWith((String) parent.get("secret"), "{\"name\": \"child\"}");
		Map<String, Object> grandchild = createWith((String) child.get("secret"), "{\"name\": \"grandchild\"}");
		Map<String, Object> sibling = create("operator", "unrelated");
		this.mvc.perform(get("/api/repos").header("Authorization", "Bearer " + grandchild.get("secret")))
			.andExpect(status().isOk());
		this.mvc.perform(delete("/api/tokens/" + parent.get("id")).with(as("operator"))).andExpect(status().isOk());
		for (Map<String, Object> revoked : List.of(parent, child, grandchild)) {
			this.mvc.perform(get("/api/repos").header("Authorization", "Bearer " + revoked.get("secret")))
				.andExpect(status().isUnauthorized());
			this.mvc.perform(get("/api/tokens").with(as("operator")))
				.andExpect(jsonPath("$[?(@.id == " + revoked.get("id") + ")].revokedBy").value(hasItem("operator")));
		}
		this.mvc.perform(get("/api/repos").header("Authorization", "Bearer " + sibling.get("secret")))
			.andExpect(status().isOk());
		assertThat(this.jdbc.sql("SELECT parent_id FROM refstore_api_token WHERE id = ?")
			.param(grandchild.get("id"))
			.query(Long.class)
			.single()).isEqualTo(child.get("id"));
	}

	@Test
	void aTokensLifetimeIsBoundedAndItsExpiryIsRfc3339() throws Exception {
		for (String ttl : List.of("P999999999D", "P366D")) {
			this.mvc
				.perform(post("/api/tokens").with(as("viewer"))
					.contentType(MediaType.APPLICATION_JSON)
					.content("{\"name\": \"forever\", \"ttl\": \"" + ttl + "\"}"))
				.andExpect(status().isBadRequest())
				.andExpect(jsonPath("$.type").value("https://refstore.io/problems/invalid-parameter"))
				.andExpect(jsonPath("$.parameter").value("ttl"))
				.andExpect(jsonPath("$.detail").value(containsString("max-ttl")));
		}
		Map<String, Object> year = createWith(null, "{\"name\": \"a year\", \"ttl\": \"P365D\"}");
		String expiresAt = expiresAt((long) year.get("id"));
		assertThat(expiresAt).matches(RFC_3339);
		assertThat(Duration.between(Instant.now(), Instant.parse(expiresAt))).isBetween(Duration.ofDays(364),
				Duration.ofDays(365));
		assertThat(this.jdbc
			.sql("SELECT COUNT(*) FROM refstore_audit_event WHERE action = 'token.create'"
					+ " AND outcome = 'REJECTED' AND parameters LIKE '%PT23999999976H%'")
			.query(Long.class)
			.single()).isPositive();
	}

	@Test
	void aTokenMadeWithATokenNeverOutlivesIt() throws Exception {
		Map<String, Object> parent = createWith(null, "{\"name\": \"short parent\", \"ttl\": \"PT1H\"}");
		Map<String, Object> child = createWith((String) parent.get("secret"),
				"{\"name\": \"long child\", \"ttl\": \"P300D\"}");
		Map<String, Object> grandchild = createWith((String) child.get("secret"), "{\"name\": \"default child\"}");
		String parentExpiry = expiresAt((long) parent.get("id"));
		assertThat(expiresAt((long) child.get("id"))).isEqualTo(parentExpiry).matches(RFC_3339);
		assertThat(expiresAt((long) grandchild.get("id"))).isEqualTo(parentExpiry);
		// as a child made before expiries were capped, or in the moment its parent was
		// revoked: still valid itself, its parent not
		this.jdbc.sql("UPDATE refstore_api_token SET expires_at = ? WHERE id IN (?, ?)")
			.params(Timestamp.from(Instant.now().plus(Duration.ofDays(36_500))), child.get("id"), grandchild.get("id"))
			.update();
		this.mvc.perform(get("/api/repos").header("Authorization", "Bearer " + grandchild.get("secret")))
			.andExpect(status().isOk());
		this.jdbc.sql("UPDATE refstore_api_token SET expires_at = ? WHERE id = ?")
			.params(Timestamp.from(Instant.now().minusSeconds(1)), parent.get("id"))
			.update();
		for (Map<String, Object> orphan : List.of(child, grandchild)) {
			this.mvc
				.perform(post("/api/tokens").header("Authorization", "Bearer " + orphan.get("secret"))
					.contentType(MediaType.APPLICATION_JSON)
					.content("{\"name\": \"minted late\"}"))
				.andExpect(status().isUnauthorized())
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
			this.mvc.perform(get("/api/repos").header("Authorization", "Bearer " + orphan.get("secret")))
				.andExpect(status().isUnauthorized());
		}
		Map<String, Object> other = createWith(null, "{\"name\": \"other parent\"}");
		Map<String, Object> otherChild = createWith((String) other.get("secret"), "{\"name\": \"other child\"}");
		this.jdbc.sql("UPDATE refstore_api_token SET revoked_at = ? WHERE id = ?")
			.params(Timestamp.from(Instant.now()), other.get("id"))
			.update();
		this.mvc
			.perform(post("/api/tokens").header("Authorization", "Bearer " + otherChild.get("secret"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"name\": \"minted late\"}"))
			.andExpect(status().isUnauthorized());
	}

	@Test
	void aRefusedMegabyteIsNeitherStoredNorEchoedWhole() throws Exception {
		String name = "megabyte-" + "n".repeat(1_000_000);
		String response = this.mvc
			.perform(post("/api/tokens").with(as("viewer"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"name\": \"" + name + "\"}"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("name"))
			.andExpect(jsonPath("$.detail").value(containsString("megabyte-nnn")))
			.andExpect(jsonPath("$.detail").value(containsString("… (999809 more characters)")))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(response).hasSizeLessThan(1_000);
		Map<String, Object> row = this.jdbc
			.sql("SELECT LENGTH(parameters) AS p, LENGTH(detail) AS d, parameters FROM refstore_audit_event"
					+ " WHERE action = 'token.create' AND parameters LIKE '%megabyte-nnn%' ORDER BY id DESC")
			.query()
			.listOfRows()
			.get(0);
		assertThat(((Number) row.get("P")).intValue()).isLessThan(300);
		assertThat(((Number) row.get("D")).intValue()).isLessThan(300);
		assertThat((String) row.get("PARAMETERS")).contains("… (999809 more characters)");
	}

	private String expiresAt(long id) throws Exception {
		String listed = this.mvc.perform(get("/api/tokens").with(as("viewer")))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		return JsonPath.<List<String>>read(listed, "$[?(@.id == " + id + ")].expiresAt").get(0);
	}

}
