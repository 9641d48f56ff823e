package io.refstore.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
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

}
