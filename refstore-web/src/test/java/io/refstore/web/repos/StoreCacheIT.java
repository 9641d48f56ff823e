package io.refstore.web.repos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * Stores kept open between requests still see every change git makes, including a change
 * of format: after git migrates a repository to reftable, the API reads the new store,
 * not the cached files one.
 */
class StoreCacheIT extends ApiTestSupport {

	@Test
	void aFormatMigrationByGitIsSeenAtOnce() throws Exception {
		String name = uniqueName("migrated");
		TempRepo repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(name), "--bare");
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		repo.git("pack-refs", "--all");
		URI uri = URI.create("/api/repos/" + seg(name));
		this.mvc.perform(get(uri).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.format").value("files"))
			.andExpect(jsonPath("$.packedRefs").value(1));
		repo.git("refs", "migrate", "--ref-format=reftable");
		String c2 = repo.commit("two", c1);
		repo.git("update-ref", "refs/heads/after", c2);
		this.mvc.perform(get(uri).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.format").value("reftable"))
			.andExpect(jsonPath("$.refCount").value(2));
		this.mvc
			.perform(get(URI.create("/api/repos/" + seg(name) + "/refs/" + seg("refs/heads/after"))).with(as("viewer")))
			.andExpect(jsonPath("$.object.sha").value(c2));
		assertThat(repo.git("rev-parse", "--show-ref-format").trim()).isEqualTo("reftable");
	}

	@Test
	void aRepositoryReplacedOnDiskUnderItsNameIsReadAnew() throws Exception {
		String name = uniqueName("replaced");
		Path dir = ROOT.resolve(name);
		String old = packedMain(TempRepo.init(GitCli.system(), dir, "--bare"), "old");
		URI ref = URI.create("/api/repos/" + seg(name) + "/refs/" + seg("refs/heads/main"));
		// enough lookups for the store to stop checking packed-refs by name (it watches
		// its directory)
		for (int i = 0; i < 5; i++) {
			this.mvc.perform(get(ref).with(as("viewer"))).andExpect(jsonPath("$.object.sha").value(old));
		}
		Path other = Files.createTempDirectory(ROOT, "other");
		String replacement = packedMain(TempRepo.init(GitCli.system(), other.resolve("r.git"), "--bare"), "new");
		Files.move(dir, other.resolve("old.git"));
		Files.move(other.resolve("r.git"), dir);
		this.mvc.perform(get(ref).with(as("viewer"))).andExpect(jsonPath("$.object.sha").value(replacement));
	}

	/**
	 * Commits, points a packed {@code refs/heads/main} at it and ages the directory past
	 * "racily recent".
	 */
	private static String packedMain(TempRepo repo, String message) throws Exception {
		String commit = repo.commit(message, null);
		repo.git("update-ref", "refs/heads/main", commit);
		repo.git("pack-refs", "--all");
		Files.setLastModifiedTime(repo.gitDir(), FileTime.from(Instant.now().minus(Duration.ofHours(1))));
		return commit;
	}

}
