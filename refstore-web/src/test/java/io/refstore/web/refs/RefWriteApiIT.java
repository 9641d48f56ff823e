package io.refstore.web.refs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * Writing refs through the API, judged by git: a batch applies all or nothing, mismatched
 * expectations give 409 with the mismatches, missing objects 422, malformed input 400,
 * too-large input 413, a failed If-Match 412; every refused call leaves the store exactly
 * as git listed it before, and every call is audited.
 */
class RefWriteApiIT extends ApiTestSupport {

	static final String ZERO = "0".repeat(40);

	String name;

	TempRepo repo;

	String c1;

	String c2;

	@BeforeEach
	void repository() {
		this.name = uniqueName("refs-write");
		this.repo = bareRepo(this.name);
		this.c1 = this.repo.commit("one", null);
		this.c2 = this.repo.commit("two", this.c1);
		this.repo.git("update-ref", "refs/heads/main", this.c1);
		this.repo.git("update-ref", "refs/heads/other", this.c1);
	}

	private String gitRefs() {
		return this.repo.git("for-each-ref", "--format=%(refname) %(objectname)");
	}

	private MockHttpServletRequestBuilder batch(String json) {
		return post(repoUri(this.name, "/refs:batch")).contentType(MediaType.APPLICATION_JSON).content(json);
	}

	@Test
	void batchAppliesEveryUpdateAndGitSeesThem() throws Exception {
		String json = """
				{"updates": [
				  {"ref": "refs/heads/main", "old": "%s", "new": "%s"},
				  {"ref": "refs/heads/feature/x", "old": "%s", "new": "%s"},
				  {"ref": "refs/heads/other", "new": "%s"}
				], "message": "api test"}""".formatted(this.c1, this.c2, ZERO, this.c1, ZERO);
		this.mvc.perform(batch(json).with(as("admin")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.committed").value(true))
			.andExpect(jsonPath("$.results[*].status")
				.value(org.hamcrest.Matchers.everyItem(org.hamcrest.Matchers.is("ok"))));
		assertThat(this.repo.git("show-ref"))
			.isEqualTo(this.c1 + " refs/heads/feature/x\n" + this.c2 + " refs/heads/main\n");
		this.mvc
			.perform(
					get("/api/audit").param("action", "refs.batch").param("repository", this.name).with(as("operator")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.entries.length()").value(1))
			.andExpect(jsonPath("$.entries[0].actor").value("admin"))
			.andExpect(jsonPath("$.entries[0].outcome").value("SUCCESS"))
			.andExpect(jsonPath("$.entries[0].target").value(containsString("refs/heads/feature/x")))
			.andExpect(jsonPath("$.entries[0].parameters.updates").value("3"));
	}

	@Test
	void aMessageIsStoredAsGitStoresItInEitherFormat() throws Exception {
		String message = "deploy\n\tticket  42 " + "m".repeat(100_000) + "\n";
		for (String format : List.of("files", "reftable")) {
			String name = uniqueName("refs-message-" + format);
			TempRepo repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(name), "--bare", "--ref-format=" + format);
			repo.git("config", "core.logAllRefUpdates", "always");
			String c1 = repo.commit("one", null);
			repo.git("update-ref", "-m", message, "refs/heads/by-git", c1);
			String json = """
					{"updates": [{"ref": "refs/heads/by-api", "new": "%s"}], "message": "%s"}""".formatted(c1,
					message.replace("\n", "\\n").replace("\t", "\\t"));
			this.mvc
				.perform(post(repoUri(name, "/refs:batch")).contentType(MediaType.APPLICATION_JSON)
					.content(json)
					.with(as("admin")))
				.andExpect(status().isOk());

			String byGit = repo.git("reflog", "show", "--format=%gs", "refs/heads/by-git");
			assertThat(byGit).as(format).hasSize(((format.equals("files")) ? 17 + 100_000 : 2048) + 1);
			assertThat(repo.git("reflog", "show", "--format=%gs", "refs/heads/by-api")).as(format).isEqualTo(byGit);
		}
	}

	@Test
	void mismatchedExpectationsAreAConflictListingThemAndChangeNothing() throws Exception {
		String before = gitRefs();
		String json = """
				{"updates": [
				  {"ref": "refs/heads/main", "old": "%s", "new": "%s"},
				  {"ref": "refs/heads/other", "old": "%s", "new": "%s"},
				  {"ref": "refs/heads/new", "old": "%s", "new": "%s"}
				]}""".formatted(this.c1, this.c2, this.c2, this.c1, ZERO, this.c2);
		this.mvc.perform(batch(json).with(as("admin")))
			.andExpect(status().isConflict())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.detail").value(containsString("refs/heads/other")))
			.andExpect(jsonPath("$.mismatches.length()").value(1))
			.andExpect(jsonPath("$.mismatches[0].ref").value("refs/heads/other"))
			.andExpect(jsonPath("$.mismatches[0].expected").value(this.c2))
			.andExpect(jsonPath("$.mismatches[0].actual").value(this.c1))
			.andExpect(jsonPath("$.mismatches[0].status").value("incorrect_old_value"))
			.andExpect(jsonPath("$.results[0].status").value("not_attempted"));
		assertThat(gitRefs()).isEqualTo(before);
		String exists = """
				{"updates": [{"ref": "refs/heads/main", "old": "%s", "new": "%s"}]}""".formatted(ZERO, this.c2);
		this.mvc.perform(batch(exists).with(as("admin")))
			.andExpect(status().isConflict())
			.andExpect(jsonPath("$.mismatches[0].status").value("create_exists"));
		assertThat(gitRefs()).isEqualTo(before);
	}

	/**
	 * The repository's reference-transaction hook (as hosting software installs to vote
	 * on ref updates) runs for API writes as for git's: it sees the update, and its
	 * refusal is a 409 naming the hook, with nothing written.
	 */
	@Test
	void theReferenceTransactionHookVotesOnApiWrites() throws Exception {
		Path hooks = Files.createDirectories(this.repo.gitDir().resolve("hooks"));
		Path hook = hooks.resolve("reference-transaction");
		Files.writeString(hook, """
				#!/bin/sh
				echo "$1" >>hook.log
				cat >>hook.log
				test "$1" != prepared || ! test -e refuse
				""");
		Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwxr-xr-x"));
		String json = """
				{"updates": [{"ref": "refs/heads/main", "old": "%s", "new": "%s"}]}""".formatted(this.c1, this.c2);
		this.mvc.perform(batch(json).with(as("admin"))).andExpect(status().isOk());
		String line = this.c1 + " " + this.c2 + " refs/heads/main\n";
		assertThat(Files.readString(this.repo.gitDir().resolve("hook.log")))
			.isEqualTo("preparing\n" + line + "prepared\n" + line + "committed\n" + line);

		Files.createFile(this.repo.gitDir().resolve("refuse"));
		String before = gitRefs();
		String back = """
				{"updates": [{"ref": "refs/heads/main", "old": "%s", "new": "%s"}]}""".formatted(this.c2, this.c1);
		this.mvc.perform(batch(back).with(as("admin")))
			.andExpect(status().isConflict())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value(containsString("refused-by-hook")))
			.andExpect(jsonPath("$.state").value("prepared"))
			.andExpect(jsonPath("$.detail").value(not(containsString("/"))));
		assertThat(gitRefs()).isEqualTo(before);
	}

	@Test
	void nameConflictNamesTheConflictingRef() throws Exception {
		String before = gitRefs();
		String json = """
				{"updates": [{"ref": "refs/heads/main/sub", "new": "%s"}]}""".formatted(this.c1);
		this.mvc.perform(batch(json).with(as("admin")))
			.andExpect(status().isConflict())
			.andExpect(jsonPath("$.type").value(containsString("name-conflict")))
			.andExpect(jsonPath("$.detail").value(containsString("refs/heads/main")));
		assertThat(gitRefs()).isEqualTo(before);
	}

	@Test
	void missingObjectsAreUnprocessableAndChangeNothing() throws Exception {
		String before = gitRefs();
		String missing = "1234567890123456789012345678901234567890";
		String json = """
				{"updates": [{"ref": "refs/heads/main", "new": "%s"}, {"ref": "refs/heads/x", "new": "%s"}]}"""
			.formatted(this.c2, missing);
		this.mvc.perform(batch(json).with(as("admin")))
			.andExpect(status().isUnprocessableContent())
			.andExpect(jsonPath("$.missing[0].object").value(missing))
			.andExpect(jsonPath("$.missing[0].ref").value("refs/heads/x"))
			.andExpect(jsonPath("$.detail").value(containsString(missing)));
		assertThat(gitRefs()).isEqualTo(before);
	}

	@Test
	void malformedUpdatesAreRefusedNamingTheCulprit() throws Exception {
		String before = gitRefs();
		this.mvc
			.perform(batch("""
					{"updates": [{"ref": "refs/heads/ok", "new": "%s"}, {"ref": "refs/heads/a..b", "new": "%s"}]}"""
				.formatted(this.c1, this.c1)).with(as("admin")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("updates[1].ref"))
			.andExpect(jsonPath("$.rule").value("DOUBLE_DOT"))
			.andExpect(jsonPath("$.detail").value(containsString("refs/heads/a..b")));
		this.mvc.perform(batch("""
				{"updates": [{"ref": "refs/heads/ok", "new": "xyz"}]}""").with(as("admin")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("updates[0].new"));
		this.mvc.perform(batch("""
				{"updates": [{"ref": "refs/heads/ok"}]}""").with(as("admin")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("updates[0].new"));
		this.mvc.perform(batch("{\"updates\": []}").with(as("admin")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("updates"));
		this.mvc.perform(batch("{\"updates\": [{\"ref\": \"refs/heads/x\", ").with(as("admin")))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.detail").value(containsString("malformed JSON")))
			.andExpect(jsonPath("$.detail").value(not(containsString("Exception"))));
		this.mvc.perform(batch("{\"updates\": 5}").with(as("admin")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.detail").value(containsString("updates")));
		assertThat(gitRefs()).isEqualTo(before);
	}

	@Test
	void oversizedBodiesAndBatchesAreRefused() throws Exception {
		String before = gitRefs();
		StringBuilder big = new StringBuilder("{\"updates\": [");
		for (int i = 0; i < 20_000; i++) {
			big.append((i == 0) ? "" : ",")
				.append("{\"ref\": \"refs/heads/b")
				.append(i)
				.append("\", \"new\": \"")
				.append(this.c1)
				.append("\"}");
		}
		big.append("]}");
		this.mvc.perform(batch(big.toString()).with(as("admin")))
			.andExpect(status().isContentTooLarge())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.limit").value(1048576));
		StringBuilder many = new StringBuilder("{\"updates\": [");
		for (int i = 0; i < 10_001; i++) {
			many.append((i == 0) ? "" : ",")
				.append("{\"ref\":\"refs/heads/b")
				.append(i)
				.append("\",\"new\":\"")
				.append(this.c1)
				.append("\"}");
		}
		many.append("]}");
		assertThat(many.length()).isLessThan(1 << 20);
		this.mvc.perform(batch(many.toString()).with(as("admin")))
			.andExpect(status().isContentTooLarge())
			.andExpect(jsonPath("$.parameter").value("updates"));
		assertThat(gitRefs()).isEqualTo(before);
	}

	@Test
	void putWithIfMatchMovesTheRefAndAFailedPreconditionIs412() throws Exception {
		this.mvc
			.perform(put(refUri(this.name, "refs/heads/main", "")).with(as("admin"))
				.header("If-Match", "\"" + this.c1 + "\"")
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"sha\": \"" + this.c2 + "\"}"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.object.sha").value(this.c2))
			.andExpect(header().string("ETag", "\"" + this.c2 + "\""));
		assertThat(this.repo.git("rev-parse", "refs/heads/main").trim()).isEqualTo(this.c2);
		String before = gitRefs();
		this.mvc
			.perform(put(refUri(this.name, "refs/heads/main", "")).with(as("admin"))
				.header("If-Match", "\"" + this.c1 + "\"")
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"sha\": \"" + this.c1 + "\"}"))
			.andExpect(status().isPreconditionFailed())
			.andExpect(jsonPath("$.detail").value(containsString("refs/heads/main")))
			.andExpect(jsonPath("$.mismatches[0].actual").value(this.c2));
		this.mvc
			.perform(put(refUri(this.name, "refs/heads/main", "")).with(as("admin"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"sha\": \"" + this.c1 + "\"}"))
			.andExpect(status().isPreconditionRequired());
		this.mvc
			.perform(put(refUri(this.name, "refs/heads/main", "")).with(as("admin"))
				.header("If-Match", "\"" + this.c2 + "\"")
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"sha\": \"c0ffee\"}"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("sha"));
		this.mvc
			.perform(put(refUri(this.name, "refs/heads/main", "")).with(as("admin"))
				.header("If-Match", "\"nonsense\"")
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"sha\": \"" + this.c1 + "\"}"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("If-Match"));
		this.mvc
			.perform(put(refUri(this.name, "refs/heads/main", "")).with(as("admin"))
				.header("If-Match", "\"" + this.c2 + "\"")
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"sha\": \"1234567890123456789012345678901234567890\"}"))
			.andExpect(status().isUnprocessableContent());
		this.mvc
			.perform(put(refUri("no-such-repo", "refs/heads/main", "")).with(as("admin"))
				.header("If-Match", "\"" + this.c2 + "\"")
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"sha\": \"" + this.c1 + "\"}"))
			.andExpect(status().isNotFound());
		assertThat(gitRefs()).isEqualTo(before);
	}

	@Test
	void putWithIfNoneMatchCreatesOnlyANewRef() throws Exception {
		this.mvc
			.perform(put(refUri(this.name, "refs/tags/v2", "")).with(as("admin"))
				.header("If-None-Match", "*")
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"sha\": \"" + this.c2 + "\"}"))
			.andExpect(status().isCreated());
		assertThat(this.repo.git("show-ref", "refs/tags/v2")).isEqualTo(this.c2 + " refs/tags/v2\n");
		this.mvc
			.perform(put(refUri(this.name, "refs/tags/v2", "")).with(as("admin"))
				.header("If-None-Match", "*")
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"sha\": \"" + this.c1 + "\"}"))
			.andExpect(status().isPreconditionFailed());
		assertThat(this.repo.git("show-ref", "refs/tags/v2")).isEqualTo(this.c2 + " refs/tags/v2\n");
	}

	@Test
	void deleteWithIfMatchRemovesTheRef() throws Exception {
		this.mvc
			.perform(delete(refUri(this.name, "refs/heads/other", "")).with(as("admin"))
				.header("If-Match", "\"" + this.c2 + "\""))
			.andExpect(status().isPreconditionFailed());
		assertThat(this.repo.git("for-each-ref", "refs/heads/other")).isNotEmpty();
		this.mvc
			.perform(delete(refUri(this.name, "refs/heads/other", "")).with(as("admin"))
				.header("If-Match", "\"" + this.c1 + "\""))
			.andExpect(status().isNoContent());
		assertThat(this.repo.git("for-each-ref", "refs/heads/other")).isEmpty();
		this.mvc
			.perform(delete(refUri(this.name, "refs/heads/other", "")).with(as("admin"))
				.header("If-Match", "\"" + this.c1 + "\""))
			.andExpect(status().isPreconditionFailed());
		this.mvc
			.perform(delete(refUri(this.name, "refs/heads/x..y", "")).with(as("admin"))
				.header("If-Match", "\"" + this.c1 + "\""))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.rule").value("DOUBLE_DOT"));
	}

	@Test
	void writesNeedTheAdminRole() throws Exception {
		String before = gitRefs();
		String json = "{\"updates\": [{\"ref\": \"refs/heads/main\", \"new\": \"" + this.c2 + "\"}]}";
		this.mvc.perform(batch(json)).andExpect(status().isUnauthorized());
		for (String user : List.of("nobody", "viewer", "operator")) {
			this.mvc.perform(batch(json).with(as(user)))
				.andExpect(status().isForbidden())
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
			this.mvc
				.perform(put(refUri(this.name, "refs/heads/main", "")).with(as(user))
					.header("If-Match", "\"" + this.c1 + "\"")
					.contentType(MediaType.APPLICATION_JSON)
					.content("{\"sha\": \"" + this.c2 + "\"}"))
				.andExpect(status().isForbidden());
			this.mvc
				.perform(delete(refUri(this.name, "refs/heads/main", "")).with(as(user))
					.header("If-Match", "\"" + this.c1 + "\""))
				.andExpect(status().isForbidden());
		}
		assertThat(gitRefs()).isEqualTo(before);
		this.mvc.perform(get(refUri(this.name, "refs/heads/main", "")).with(as("viewer")))
			.andExpect(jsonPath("$.object.sha").value(this.c1));
		this.mvc.perform(get("/api/audit?actor=viewer&outcome=DENIED&action=request.denied").with(as("admin")))
			.andExpect(jsonPath("$.entries[*].target")
				.value(org.hamcrest.Matchers.hasItem("POST /api/repos/" + this.name + "/refs:batch")));
	}

	@Test
	void refusedWritesAreAuditedWithTheirReason() throws Exception {
		String json = """
				{"updates": [{"ref": "refs/heads/main", "old": "%s", "new": "%s"}]}""".formatted(this.c2, this.c1);
		this.mvc.perform(batch(json).with(as("admin2"))).andExpect(status().isConflict());
		this.mvc.perform(get("/api/audit").param("actor", "admin2").param("repository", this.name).with(as("operator")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.entries.length()").value(1))
			.andExpect(jsonPath("$.entries[0].action").value("refs.batch"))
			.andExpect(jsonPath("$.entries[0].outcome").value("REJECTED"))
			.andExpect(jsonPath("$.entries[0].detail").value(containsString("refs/heads/main")));
	}

}
