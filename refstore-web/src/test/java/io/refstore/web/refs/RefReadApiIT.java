package io.refstore.web.refs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MvcResult;

import com.jayway.jsonpath.JsonPath;

import io.refstore.core.demo.DemoRepositories;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * Reading refs through the API, compared with what git itself lists: keyset pages visit
 * every ref exactly once in git's order (also while git changes the store between pages),
 * ETags change exactly with the content, one ref shows its object type, peeled value and
 * symref target, and the reflog comes newest first.
 */
class RefReadApiIT extends ApiTestSupport {

	static String name;

	static TempRepo repo;

	static String commit;

	static String tag;

	@BeforeAll
	static void repository() {
		name = uniqueName("refs-read");
		repo = bareRepo(name);
		commit = repo.commit("one", null);
		tag = repo.tagObject("v1.0", commit, "commit");
		StringBuilder stdin = new StringBuilder();
		for (int i = 0; i < 250; i++) {
			stdin.append("create refs/heads/branch-")
				.append(String.format("%03d", i))
				.append(' ')
				.append(commit)
				.append('\n');
		}
		stdin.append("create refs/tags/v1.0 ").append(tag).append('\n');
		stdin.append("create refs/tags/light ").append(commit).append('\n');
		stdin.append("create refs/pull/7/head ").append(commit).append('\n');
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		repo.git("symbolic-ref", "HEAD", "refs/heads/branch-000");
		repo.git("update-ref", "--create-reflog", "-m", "first", "refs/heads/logged", commit);
		repo.git("update-ref", "-m", "second", "refs/heads/logged", repo.commit("two", commit));
	}

	@Test
	void pagesVisitEveryRefOnceInGitsOrder() throws Exception {
		List<String> seen = new ArrayList<>();
		String after = "";
		int pages = 0;
		while (after != null) {
			MvcResult result = this.mvc.perform(get(repoUri(name, "/refs?limit=100&after=" + after)).with(as("viewer")))
				.andExpect(status().isOk())
				.andReturn();
			String body = result.getResponse().getContentAsString();
			seen.addAll(JsonPath.read(body, "$.refs[*].ref"));
			after = JsonPath.read(body, "$.next");
			String link = result.getResponse().getHeader("Link");
			if (after != null) {
				assertThat(link).contains("after=" + after).contains("rel=\"next\"").contains("limit=100");
			}
			else {
				assertThat(link).isNull();
			}
			pages++;
		}
		assertThat(pages).isEqualTo(3);
		assertThat(seen).containsExactlyElementsOf(gitRefNames(repo, "refs/"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "FILES", "REFTABLE" })
	void pagingThroughTwentyThousandRefsMatchesGit(String format) throws Exception {
		String other = uniqueName("paging-" + format.toLowerCase(java.util.Locale.ROOT));
		DemoRepositories.create(ROOT.resolve(other), RefFormat.valueOf(format),
				new DemoRepositories.Options(50, 10, 20_000, 100));
		List<String> seen = new ArrayList<>();
		String after = "";
		while (after != null) {
			String body = this.mvc
				.perform(get(repoUri(other, "/refs?limit=1000&after=" + seg(after))).with(as("viewer")))
				.andExpect(status().isOk())
				.andReturn()
				.getResponse()
				.getContentAsString();
			seen.addAll(JsonPath.read(body, "$.refs[*].ref"));
			after = JsonPath.read(body, "$.next");
		}
		GitCli git = format.equals("FILES") ? GitCli.system() : GitCli.reftable();
		List<String> expected = Arrays
			.asList(git.ok(ROOT.resolve(other), "for-each-ref", "--format=%(refname)").split("\n"));
		assertThat(expected).hasSizeGreaterThan(20_000);
		assertThat(seen).containsExactlyElementsOf(expected);
	}

	@Test
	void prefixAndGlobFilterTheListing() throws Exception {
		this.mvc.perform(get(repoUri(name, "/refs?prefix=refs/tags/")).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.refs[*].ref")
				.value(org.hamcrest.Matchers.contains("refs/tags/light", "refs/tags/v1.0")))
			.andExpect(jsonPath("$.next").doesNotExist());
		this.mvc.perform(get(repoUri(name, "/refs?glob=refs/heads/branch-24*")).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.refs.length()").value(10));
		this.mvc.perform(get(repoUri(name, "/refs?glob=refs/*/7/*")).with(as("viewer")))
			.andExpect(jsonPath("$.refs[0].ref").value("refs/pull/7/head"));
		this.mvc.perform(get(repoUri(name, "/refs?glob=" + "**/".repeat(20) + "head")).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.refs[*].ref").value(org.hamcrest.Matchers.contains("refs/pull/7/head")));
		this.mvc.perform(get(repoUri(name, "/refs?glob=" + "**/".repeat(20) + "x")).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.refs.length()").value(0));
	}

	@Test
	void badParametersAreNamed() throws Exception {
		// a glob longer than 1,024 bytes, plain or made of '**/', is refused before any
		// work
		for (String query : new String[] { "limit=0", "limit=1001", "glob=refs/[", "after=a%01b",
				"glob=refs/" + "x".repeat(1020), "glob=" + "**/".repeat(342) + "x" }) {
			String parameter = query.substring(0, query.indexOf('='));
			this.mvc.perform(get(repoUri(name, "/refs?" + query)).with(as("viewer")))
				.andExpect(status().isBadRequest())
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
				.andExpect(jsonPath("$.parameter").value(parameter))
				.andExpect(jsonPath("$.detail").value(containsString(parameter)));
		}
		this.mvc.perform(get(repoUri(name, "/refs?limit=ten")).with(as("viewer")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.detail").value(containsString("limit")));
		this.mvc.perform(get(repoUri("no-such", "/refs")).with(as("viewer"))).andExpect(status().isNotFound());
	}

	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void etagAnswersNotModifiedUntilTheStoreChanges(String format) throws Exception {
		String other = uniqueName("etag-" + format);
		TempRepo changing = format.equals("files") ? bareRepo(other)
				: TempRepo.init(GitCli.reftable(), ROOT.resolve(other), "--bare", "--ref-format=reftable");
		String c1 = changing.commit("c1", null);
		changing.git("update-ref", "refs/heads/a", c1);
		changing.git("update-ref", "refs/heads/b", c1);
		URI uri = repoUri(other, "/refs");
		String etag = this.mvc.perform(get(uri).with(as("viewer")))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getHeader("ETag");
		assertThat(etag).startsWith("\"");
		this.mvc.perform(get(uri).with(as("viewer")).header("If-None-Match", etag))
			.andExpect(status().isNotModified())
			.andExpect(header().string("ETag", etag))
			.andExpect(header().string("Cache-Control", "no-cache, private"));
		changing.git("update-ref", "refs/heads/b", changing.commit("c2", c1));
		String changed = this.mvc.perform(get(uri).with(as("viewer")).header("If-None-Match", etag))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getHeader("ETag");
		assertThat(changed).isNotEqualTo(etag);
		changing.git("update-ref", "-d", "refs/heads/a");
		this.mvc.perform(get(uri).with(as("viewer")).header("If-None-Match", changed))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.refs[*].ref").value(org.hamcrest.Matchers.contains("refs/heads/b")));
	}

	@Test
	void etagFollowsTheContentWhileGitWritesConcurrently() throws Exception {
		String other = uniqueName("etag-concurrent");
		TempRepo changing = bareRepo(other);
		List<String> commits = changing.commits(40, "c");
		changing.git("update-ref", "refs/heads/x", commits.get(0));
		Thread writer = new Thread(() -> {
			for (String next : commits.subList(1, commits.size())) {
				changing.git("update-ref", "refs/heads/x", next);
			}
		});
		writer.start();
		Map<String, String> bodyByEtag = new java.util.HashMap<>();
		Map<String, String> etagByBody = new java.util.HashMap<>();
		while (writer.isAlive()) {
			MvcResult result = this.mvc.perform(get(repoUri(other, "/refs")).with(as("viewer"))).andReturn();
			String body = result.getResponse().getContentAsString();
			String etag = result.getResponse().getHeader("ETag");
			assertThat(bodyByEtag.computeIfAbsent(etag, (key) -> body)).as("one ETag, one content").isEqualTo(body);
			assertThat(etagByBody.computeIfAbsent(body, (key) -> etag)).as("one content, one ETag").isEqualTo(etag);
		}
		writer.join();
		assertThat(bodyByEtag).hasSizeGreaterThan(1);
	}

	@Test
	void pagingOverAStoreThatChangesBetweenPagesSeesEachSurvivingRefOnce() throws Exception {
		String other = uniqueName("paging-changes");
		TempRepo changing = bareRepo(other);
		String c1 = changing.commit("c1", null);
		StringBuilder stdin = new StringBuilder();
		for (int i = 0; i < 30; i++) {
			stdin.append("create refs/heads/r").append(String.format("%02d", i)).append(' ').append(c1).append('\n');
		}
		changing.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		String first = this.mvc.perform(get(repoUri(other, "/refs?limit=10")).with(as("viewer")))
			.andReturn()
			.getResponse()
			.getContentAsString();
		String next = JsonPath.read(first, "$.next");
		assertThat(next).isEqualTo("refs/heads/r09");
		// between pages git deletes a ref already seen, one not yet seen, and adds one
		// before and one after the cursor
		changing.git("update-ref", "-d", "refs/heads/r03");
		changing.git("update-ref", "-d", "refs/heads/r15");
		changing.git("update-ref", "refs/heads/r00a", c1);
		changing.git("update-ref", "refs/heads/r99", c1);
		String rest = this.mvc.perform(get(repoUri(other, "/refs?limit=1000&after=" + next)).with(as("viewer")))
			.andReturn()
			.getResponse()
			.getContentAsString();
		List<String> seen = new ArrayList<>(JsonPath.read(first, "$.refs[*].ref"));
		seen.addAll(JsonPath.read(rest, "$.refs[*].ref"));
		assertThat(seen).doesNotHaveDuplicates().contains("refs/heads/r99").doesNotContain("refs/heads/r15");
		List<String> expected = new ArrayList<>(gitRefNames(changing, "refs/"));
		expected.remove("refs/heads/r00a");
		expected.add(3, "refs/heads/r03");
		assertThat(seen).containsExactlyElementsOf(expected);
	}

	@Test
	void oneRefShowsTypePeeledValueAndSymref() throws Exception {
		this.mvc.perform(get(refUri(name, "refs/tags/v1.0", "")).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.ref").value("refs/tags/v1.0"))
			.andExpect(jsonPath("$.object.sha").value(tag))
			.andExpect(jsonPath("$.object.type").value("tag"))
			.andExpect(jsonPath("$.peeled").value(commit))
			.andExpect(jsonPath("$.symref").doesNotExist())
			.andExpect(header().string("ETag", "\"" + tag + "\""));
		this.mvc.perform(get(refUri(name, "refs/tags/light", "")).with(as("viewer")))
			.andExpect(jsonPath("$.object.type").value("commit"))
			.andExpect(jsonPath("$.peeled").doesNotExist());
		this.mvc.perform(get(refUri(name, "HEAD", "")).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.symref").value("refs/heads/branch-000"))
			.andExpect(jsonPath("$.object.sha").value(commit));
		assertThat(repo.git("rev-parse", "HEAD").trim()).isEqualTo(commit);
	}

	@Test
	void missingAndMalformedRefsAreProblems() throws Exception {
		this.mvc.perform(get(refUri(name, "refs/heads/nope", "")).with(as("viewer")))
			.andExpect(status().isNotFound())
			.andExpect(jsonPath("$.ref").value("refs/heads/nope"))
			.andExpect(jsonPath("$.detail").value(containsString("refs/heads/nope")));
		Map<String, String> rules = Map.of("refs/heads/a..b", "DOUBLE_DOT", "main", "ONE_LEVEL", "refs/heads/x.lock",
				"COMPONENT_ENDS_WITH_LOCK", "refs/heads/a b", "FORBIDDEN_CHARACTER", "refs/heads/", "EMPTY_COMPONENT");
		for (Map.Entry<String, String> rule : rules.entrySet()) {
			this.mvc.perform(get(refUri(name, rule.getKey(), "")).with(as("viewer")))
				.andExpect(status().isBadRequest())
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
				.andExpect(jsonPath("$.rule").value(rule.getValue()))
				.andExpect(jsonPath("$.ref").value(rule.getKey()));
		}
	}

	@Test
	void reflogComesNewestFirst() throws Exception {
		this.mvc.perform(get(refUri(name, "refs/heads/logged", "/log")).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.length()").value(2))
			.andExpect(jsonPath("$[0].message").value("second"))
			.andExpect(jsonPath("$[1].message").value("first"))
			.andExpect(jsonPath("$[1].old").value("0".repeat(40)))
			.andExpect(jsonPath("$[1].value").value(commit))
			.andExpect(jsonPath("$[0].email").value("committer@example.com"));
		this.mvc.perform(get(refUri(name, "refs/heads/logged", "/log?limit=1")).with(as("viewer")))
			.andExpect(jsonPath("$.length()").value(1));
		this.mvc.perform(get(refUri(name, "refs/heads/branch-001", "/log")).with(as("viewer")))
			.andExpect(status().isNotFound())
			.andExpect(jsonPath("$.type").value(containsString("reflog-not-found")));
		this.mvc.perform(get(refUri(name, "refs/heads/bad~1", "/log")).with(as("viewer")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.rule").value("FORBIDDEN_CHARACTER"));
		this.mvc.perform(get(refUri(name, "refs/heads/logged", "/log?limit=0")).with(as("viewer")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("limit"));
	}

	@Test
	void readsNeedARole() throws Exception {
		for (URI uri : List.of(repoUri(name, "/refs"), refUri(name, "HEAD", ""),
				refUri(name, "refs/heads/logged", "/log"))) {
			this.mvc.perform(get(uri)).andExpect(status().isUnauthorized());
			this.mvc.perform(get(uri).with(as("nobody"))).andExpect(status().isForbidden());
			for (String user : new String[] { "viewer", "operator", "admin" }) {
				this.mvc.perform(get(uri).with(as(user))).andExpect(status().isOk());
			}
		}
	}

	/** What {@code git for-each-ref} lists under {@code prefix}, in its order. */
	static List<String> gitRefNames(TempRepo repo, String prefix) {
		String out = repo.git("for-each-ref", "--format=%(refname)", prefix);
		return out.isEmpty() ? List.of() : Arrays.asList(out.split("\n"));
	}

}
