package io.refstore.web.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * One node on H2 as a fleet of one: it registers itself with its storage
 * ({@code default}, the one root), records its repositories (format and ref count as git
 * sees them), finds them by {@code <storage>/<name>}; a node that stopped (its heartbeat
 * older than {@code refstore.fleet.down-after}) is shown down, its repositories listed as
 * last seen but unavailable, and asked for they answer 503 with {@code Retry-After}; an
 * ADMIN retires it; a storage name another directory already has is refused.
 */
class FleetApiIT extends ApiTestSupport {

	@Autowired
	FleetMembership membership;

	@Autowired
	FleetStore store;

	@Autowired
	JdbcClient jdbc;

	@Test
	void theNodeListsItsStorageAndRepositoriesAndFindsThemByStorageAndName() throws Exception {
		String name = uniqueName("fleet-local") + ".git";
		TempRepo repo = bareRepo(name);
		String commit = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", commit);
		repo.git("update-ref", "refs/tags/v1", commit);
		long refs = repo.git("for-each-ref", "--format=%(refname)").lines().count();
		this.membership.refreshInventory();

		DocumentContext nodes = json(this.mvc.perform(get("/api/fleet/nodes").with(as("viewer")))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString());
		String here = this.membership.node();
		assertThat(nodes.read("$[?(@.name == '" + here + "')].up", List.class)).containsExactly(true);
		assertThat(nodes.read("$[?(@.name == '" + here + "')].storages[0]", List.class)).containsExactly("default");
		assertThat(Files.readString(ROOT.resolve(FleetMembership.STORAGE_ID_FILE)).strip()).isNotBlank();

		this.mvc.perform(get("/api/fleet/repositories").param("q", name).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.total").value(1))
			.andExpect(jsonPath("$.repositories[0].storage").value("default"))
			.andExpect(jsonPath("$.repositories[0].path").value(name))
			.andExpect(jsonPath("$.repositories[0].node").value(here))
			.andExpect(jsonPath("$.repositories[0].format").value("files"))
			.andExpect(jsonPath("$.repositories[0].refs").value(refs))
			.andExpect(jsonPath("$.repositories[0].available").value(true));
		this.mvc.perform(get("/api/fleet/repositories").param("q", name).param("format", "reftable").with(as("viewer")))
			.andExpect(jsonPath("$.total").value(0));
		// pages by keyset: a second repository of the same stem follows the first
		bareRepo(name + "-2.git");
		this.membership.refreshInventory();
		this.mvc.perform(get("/api/fleet/repositories").param("q", name).param("limit", "1").with(as("viewer")))
			.andExpect(jsonPath("$.total").value(2))
			.andExpect(jsonPath("$.repositories[0].path").value(name))
			.andExpect(jsonPath("$.next").value("default/" + name));
		this.mvc
			.perform(get("/api/fleet/repositories").param("q", name)
				.param("limit", "1")
				.param("after", "default/" + name)
				.with(as("viewer")))
			.andExpect(jsonPath("$.repositories[0].path").value(name + "-2.git"))
			.andExpect(jsonPath("$.next").doesNotExist());

		this.mvc.perform(get(repoUri("default/" + name, "")).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.storage").value("default"))
			.andExpect(jsonPath("$.node").value(here))
			.andExpect(jsonPath("$.refCount").value(refs));
		this.mvc.perform(get(repoUri(name, "")).with(as("viewer"))).andExpect(jsonPath("$.storage").value("default"));
	}

	@Test
	void aNodeThatStoppedIsShownDownItsRepositoriesAnswer503AndAnAdminRetiresIt() throws Exception {
		String node = uniqueName("stopped-node");
		String storage = uniqueName("far");
		Path root = Files.createTempDirectory("refstore-far-storage");
		this.store.register(node, "http://far.example:8080", "test", null, null,
				Map.of(storage, new FleetStore.StorageClaim(root.toString(), FleetMembership.storageId(root))));
		this.store.replaceInventory(node, storage,
				List.of(new FleetRepositoryRow("group/far.git", "reftable", 12L, 0L, 4096L, false, null)));
		this.mvc.perform(get("/api/fleet/repositories").param("node", node).with(as("viewer")))
			.andExpect(jsonPath("$.repositories[0].available").value(true));
		// the node stops: its last heartbeat grows older than refstore.fleet.down-after
		this.jdbc.sql("UPDATE refstore_node SET heartbeat_at = heartbeat_at - INTERVAL '1' HOUR WHERE name = ?")
			.param(node)
			.update();

		this.mvc.perform(get("/api/fleet/nodes").with(as("viewer")))
			.andExpect(jsonPath("$[?(@.name == '" + node + "')].up").value(false));
		this.mvc.perform(get("/api/fleet/repositories").param("storage", storage).with(as("viewer")))
			.andExpect(jsonPath("$.total").value(1))
			.andExpect(jsonPath("$.repositories[0].name").value(storage + "/group/far.git"))
			.andExpect(jsonPath("$.repositories[0].refs").value(12))
			.andExpect(jsonPath("$.repositories[0].available").value(false));
		for (String asked : List.of(storage + "/group/far.git", "group/far.git")) {
			this.mvc.perform(get(repoUri(asked, "/refs")).with(as("viewer")))
				.andExpect(status().isServiceUnavailable())
				.andExpect(header().string("Retry-After", "20"))
				.andExpect(jsonPath("$.type").value("https://refstore.io/problems/repository-unavailable"))
				.andExpect(jsonPath("$.node").value(node));
		}

		this.mvc.perform(delete("/api/fleet/nodes/{node}", node).with(as("operator")))
			.andExpect(status().isForbidden());
		this.mvc.perform(delete("/api/fleet/nodes/{node}", this.membership.node()).with(as("admin")))
			.andExpect(status().isConflict());
		this.mvc.perform(delete("/api/fleet/nodes/{node}", "no-such-node").with(as("admin")))
			.andExpect(status().isNotFound());
		this.mvc.perform(delete("/api/fleet/nodes/{node}", node).with(as("admin"))).andExpect(status().isNoContent());
		this.mvc.perform(get("/api/fleet/repositories").param("storage", storage).with(as("viewer")))
			.andExpect(jsonPath("$.total").value(0));
		this.mvc.perform(get(repoUri("group/far.git", "/refs")).with(as("viewer"))).andExpect(status().isNotFound());
	}

	@Test
	void aStorageNameThatAnotherDirectoryHasIsRefusedNamingIt() throws Exception {
		Path elsewhere = Files.createTempDirectory("refstore-other-default");
		assertThatThrownBy(() -> this.store.register(uniqueName("intruder"), null, "test", null, null,
				Map.of("default",
						new FleetStore.StorageClaim(elsewhere.toString(), FleetMembership.storageId(elsewhere)))))
			.isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("storage 'default' of node '" + this.membership.node() + "' is another directory");
		// the same directory mounted on a second node is shared storage, which is allowed
		String sharing = uniqueName("sharing");
		this.store.register(sharing, null, "test", null, null,
				Map.of("default", new FleetStore.StorageClaim(ROOT.toString(), FleetMembership.storageId(ROOT))));
		assertThat(this.store.retire(sharing)).isTrue();
	}

	@Test
	void badFiltersAreRefusedNamingTheParameter() throws Exception {
		this.mvc.perform(get("/api/fleet/repositories").param("format", "svn").with(as("viewer")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("format"));
		this.mvc.perform(get("/api/fleet/repositories").param("limit", "0").with(as("viewer")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("limit"));
		this.mvc.perform(get("/api/fleet/repositories").param("after", "no-storage").with(as("viewer")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("after"));
		this.mvc.perform(get("/api/fleet/nodes").with(as("nobody"))).andExpect(status().isForbidden());
	}

	private static DocumentContext json(String body) {
		return JsonPath.parse(body);
	}

}
