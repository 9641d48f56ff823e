package io.refstore.web.repos;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.http.MediaType;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * {@code GET /api/repos} and {@code GET /api/repos/{repo}} over repositories made by git,
 * of both formats and with a slash in the name; names that try to leave the root are
 * refused with problems.
 */
class RepoApiIT extends ApiTestSupport {

	static String files;

	static String reftable;

	static String nested;

	@BeforeAll
	static void repositories() {
		files = uniqueName("repo-files");
		TempRepo repo = bareRepo(files);
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		repo.git("update-ref", "refs/heads/topic", c1);
		repo.git("update-ref", "refs/tags/v1", c1);
		repo.git("update-ref", "refs/pull/1/head", c1);
		reftable = uniqueName("repo-reftable");
		TempRepo table = TempRepo.init(GitCli.reftable(), ROOT.resolve(reftable), "--bare", "--ref-format=reftable");
		table.git("update-ref", "refs/heads/main", table.commit("one", null));
		nested = "team-" + uniqueName("x") + "/project.git";
		bareRepo(nested);
	}

	@Test
	void listsRepositoriesOfBothFormatsWithCounts() throws Exception {
		this.mvc.perform(get("/api/repos").with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[?(@.name == '" + files + "')].format").value("files"))
			.andExpect(jsonPath("$[?(@.name == '" + files + "')].refCount").value(4))
			.andExpect(jsonPath("$[?(@.name == '" + files + "')].namespaces['refs/heads']").value(2))
			.andExpect(jsonPath("$[?(@.name == '" + reftable + "')].format").value("reftable"))
			.andExpect(jsonPath("$[*].name").value(hasItem(nested)));
	}

	@Test
	void showsOneRepositoryByItsEncodedName() throws Exception {
		this.mvc.perform(get(URI.create("/api/repos/" + seg(files))).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.name").value(files))
			.andExpect(jsonPath("$.objectFormat").value("sha1"))
			.andExpect(jsonPath("$.bare").value(true))
			.andExpect(jsonPath("$.namespaces['refs/tags']").value(1))
			.andExpect(jsonPath("$.namespaces['refs/pull']").value(1))
			.andExpect(jsonPath("$.looseRefs").value(4))
			.andExpect(jsonPath("$.packedRefs").value(0))
			.andExpect(jsonPath("$.bytes").value(4 * 41))
			.andExpect(jsonPath("$.maintenanceDue").value(false))
			.andExpect(jsonPath("$.maintenanceReason").isNotEmpty());
		this.mvc.perform(get(URI.create("/api/repos/" + seg(reftable))).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.tables").value(org.hamcrest.Matchers.greaterThanOrEqualTo(1)))
			.andExpect(jsonPath("$.looseRefs").value(0));
		this.mvc.perform(get(URI.create("/api/repos/" + seg(nested))).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.name").value(nested))
			.andExpect(jsonPath("$.refCount").value(0));
	}

	@Test
	void countsFollowGitsWrites() throws Exception {
		String name = uniqueName("counted");
		TempRepo repo = bareRepo(name);
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/a", c1);
		URI uri = URI.create("/api/repos/" + seg(name));
		this.mvc.perform(get(uri).with(as("viewer"))).andExpect(jsonPath("$.refCount").value(1));
		this.mvc.perform(get(uri).with(as("viewer"))).andExpect(jsonPath("$.refCount").value(1));
		repo.git("update-ref", "refs/tags/t", c1);
		this.mvc.perform(get(uri).with(as("viewer")))
			.andExpect(jsonPath("$.refCount").value(2))
			.andExpect(jsonPath("$.namespaces['refs/tags']").value(1));
		repo.git("pack-refs", "--all");
		repo.git("update-ref", "-d", "refs/heads/a");
		this.mvc.perform(get(uri).with(as("viewer")))
			.andExpect(jsonPath("$.refCount").value(1))
			.andExpect(jsonPath("$.namespaces['refs/heads']").doesNotExist());
	}

	@Test
	void unknownRepositoryIsANotFoundProblem() throws Exception {
		this.mvc.perform(get(URI.create("/api/repos/no-such-repo")).with(as("viewer")))
			.andExpect(status().isNotFound())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.detail").value(containsString("no-such-repo")))
			.andExpect(jsonPath("$.repository").value("no-such-repo"));
	}

	@Test
	void namesLeadingOutsideTheRootAreRefused() throws Exception {
		for (String name : new String[] { "..", "../" + files, "/etc", "a/../" + files, "%2e%2e", "x\\y" }) {
			this.mvc.perform(get(URI.create("/api/repos/" + seg(name))).with(as("viewer")))
				.andExpect(status().isBadRequest())
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
				// Spring Security's firewall turns away some forms (a literal "..", "//")
				// before they reach the API
				.andExpect(jsonPath("$.detail").value(anyOf(containsString("refused"), containsString("rejected"))))
				.andExpect(jsonPath("$.detail").value(not(containsString("Exception"))));
		}
	}

	@Test
	void symbolicLinkOutOfTheRootIsRefused(@TempDir Path outside) throws Exception {
		TempRepo.init(GitCli.system(), outside.resolve("secret.git"), "--bare");
		String link = uniqueName("link");
		Files.createSymbolicLink(ROOT.resolve(link), outside);
		this.mvc.perform(get(URI.create("/api/repos/" + seg(link + "/secret.git"))).with(as("viewer")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.detail").value(containsString("symbolic link")));
		this.mvc.perform(get("/api/repos").with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[*].name").value(not(hasItem(link + "/secret.git"))));
	}

	@Test
	void aDirectoryThatIsNoRepositoryIsNotFound() throws Exception {
		String plain = uniqueName("plain");
		Files.createDirectories(ROOT.resolve(plain));
		this.mvc.perform(get(URI.create("/api/repos/" + seg(plain))).with(as("viewer")))
			.andExpect(status().isNotFound());
	}

	@Test
	void anonymousIsChallengedAndARoleIsNeeded() throws Exception {
		this.mvc.perform(get("/api/repos"))
			.andExpect(status().isUnauthorized())
			.andExpect(header().stringValues("WWW-Authenticate", hasItem(containsString("Basic"))))
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
		this.mvc.perform(get("/api/repos").with(as("nobody")))
			.andExpect(status().isForbidden())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
		this.mvc.perform(get("/api/repos")
			.with(org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors
				.httpBasic("viewer", "wrong")))
			.andExpect(status().isUnauthorized());
		for (String user : new String[] { "viewer", "operator", "admin" }) {
			this.mvc.perform(get(URI.create("/api/repos/" + seg(files))).with(as(user))).andExpect(status().isOk());
		}
	}

}
