package io.refstore.web.repos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * Stores kept open between requests still see every change git makes, including a change of format: after
 * git migrates a repository to reftable, the API reads the new store, not the cached files one.
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
		this.mvc.perform(get(URI.create("/api/repos/" + seg(name) + "/refs/" + seg("refs/heads/after")))
			.with(as("viewer"))).andExpect(jsonPath("$.object.sha").value(c2));
		assertThat(repo.git("rev-parse", "--show-ref-format").trim()).isEqualTo("reftable");
	}

}
