package io.refstore.web.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * One node with two storages holding a repository of the same path: the journal keeps
 * each under its storage and path, so their journals stay apart. Each is read by its
 * qualified name; the path alone finds the first storage's, as every other page does, and
 * reads the same source row; the ingestion sweep ingests both files, each once; the
 * fleet-wide answers name each repository with its storage.
 */
class JournalStoragesIT extends ApiTestSupport {

	/** The second storage's root. */
	static final Path SECOND = createSecond();

	@Autowired
	JournalIngester ingester;

	@Autowired
	JdbcClient jdbc;

	@DynamicPropertySource
	static void secondStorage(DynamicPropertyRegistry registry) {
		registry.add("refstore.repositories.storages.second", SECOND::toString);
	}

	@Test
	void twoStoragesHoldingOnePathKeepTwoJournalsEachIngestedOnce() throws Exception {
		String path = uniqueName("twin") + ".git";
		TempRepo first = TempRepo.init(GitCli.system(), ROOT.resolve(path), "--bare");
		TempRepo second = TempRepo.init(GitCli.system(), SECOND.resolve(path), "--bare");
		String inFirst = "default/" + path;
		String inSecond = "second/" + path;
		for (String name : List.of(inFirst, inSecond)) {
			this.mvc
				.perform(put(repoUri(name, "/journal/settings")).with(as("admin"))
					.contentType(MediaType.APPLICATION_JSON)
					.content("{\"enabled\": true}"))
				.andExpect(status().isOk());
		}
		String c1 = first.commit("one", null);
		assertThat(second.commit("one", null)).isEqualTo(c1);
		first.git("update-ref", "refs/heads/only-first", c1);
		first.git("update-ref", "refs/heads/main", c1);
		second.git("update-ref", "refs/heads/only-second", c1);

		assertThat(refs(inFirst)).containsExactly("refs/heads/main", "refs/heads/only-first");
		assertThat(refs(inSecond)).containsExactly("refs/heads/only-second");
		assertThat(read(repoUri(inSecond, "/journal")).read("$.items[*].repository", List.class))
			.containsOnly(inSecond);
		// the path alone is the first storage's, and its journal the same rows
		assertThat(refs(path)).containsExactly("refs/heads/main", "refs/heads/only-first");
		assertThat(read(repoUri(path, "/journal")).read("$.items[*].repository", List.class))
			.as("named as the console names it: the node has two storages")
			.containsOnly(inFirst);

		this.ingester.sweep();
		second.git("update-ref", "-d", "refs/heads/only-second", c1);
		this.ingester.sweep();
		this.ingester.sweep();
		assertThat(this.jdbc
			.sql("SELECT s.repository, COUNT(e.id) FROM refstore_journal_source s LEFT JOIN refstore_journal_entry e"
					+ " ON e.source_id = s.id AND e.ref_name LIKE 'refs/heads/%' WHERE s.repository LIKE ? GROUP BY s.repository ORDER BY s.repository")
			.params("%" + path)
			.query((rs, row) -> rs.getString(1) + " " + rs.getLong(2))
			.list()).containsExactly(inFirst + " 2", inSecond + " 2");

		DocumentContext fleet = read(URI.create("/api/journal?prefix=refs/heads/only-"));
		assertThat(fleet.read("$.items[?(@.ref == 'refs/heads/only-first')].repository", List.class))
			.containsExactly(inFirst);
		assertThat(fleet.read("$.items[?(@.ref == 'refs/heads/only-second')].repository", List.class))
			.containsExactly(inSecond, inSecond);
		assertThat(read(repoUri(inSecond, "/journal/deleted")).read("$.items[*].ref", List.class))
			.containsExactly("refs/heads/only-second");
		assertThat(read(repoUri(path, "/journal/deleted")).read("$.items", List.class)).isEmpty();
	}

	private List<String> refs(String name) throws Exception {
		List<String> refs = read(repoUri(name, "/journal?prefix=refs/heads/")).read("$.items[*].ref", List.class);
		return refs.stream().sorted().toList();
	}

	private DocumentContext read(URI uri) throws Exception {
		String body = this.mvc.perform(get(uri).with(as("viewer")))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		return JsonPath.parse(body);
	}

	private static Path createSecond() {
		try {
			return Files.createDirectories(HOME.resolve("second-storage")).toRealPath();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
