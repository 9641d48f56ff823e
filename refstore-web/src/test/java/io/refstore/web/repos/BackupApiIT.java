package io.refstore.web.repos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

import io.refstore.core.migrate.FormatMigrator;
import io.refstore.core.migrate.MigrationOptions;
import io.refstore.core.migrate.MigrationReport;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * Listing and dropping a repository's migration backups through the API: VIEWER lists,
 * only ADMIN drops (audited), an unknown name is a 404 and a name that is no backup's a
 * 400 naming the parameter; no body names a server path, and git sees the same refs, and
 * a sound repository, after a drop.
 */
class BackupApiIT extends ApiTestSupport {

	String name;

	TempRepo repo;

	MigrationReport there;

	MigrationReport back;

	@BeforeEach
	void repositoryMigratedThereAndBack() throws IOException {
		this.name = uniqueName("backups");
		this.repo = bareRepo(this.name);
		String commit = this.repo.commit("one", null);
		this.repo.git("update-ref", "-m", "made", "refs/heads/main", commit);
		this.repo.git("tag", "v1", commit);
		this.there = migrate(RefFormat.REFTABLE);
		this.back = migrate(RefFormat.FILES);
	}

	private MigrationReport migrate(RefFormat target) throws IOException {
		try (Repository repository = Repository.open(this.repo.dir(), Map.of())) {
			return new FormatMigrator(repository).migrate(MigrationOptions.to(target));
		}
	}

	private static String nameOf(Path backup) {
		return backup.getFileName().toString();
	}

	@Test
	void aViewerListsBothBackupsByNameWithTheirRecordsAndNoServerPath() throws Exception {
		this.mvc.perform(get(repoUri(this.name, "/backups")).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.length()").value(2))
			.andExpect(jsonPath("$[0].name").value(nameOf(this.there.backup())))
			.andExpect(jsonPath("$[0].format").value("files"))
			.andExpect(jsonPath("$[0].refs").value(this.there.refs()))
			.andExpect(jsonPath("$[0].logEntries").value(this.there.logEntries()))
			.andExpect(jsonPath("$[0].digest").value(this.there.sourceDigest()))
			.andExpect(jsonPath("$[0].recorded").value(true))
			.andExpect(jsonPath("$[1].name").value(nameOf(this.back.backup())))
			.andExpect(jsonPath("$[1].format").value("reftable"))
			.andExpect(content().string(not(containsString(ROOT.toString()))));
	}

	@Test
	void onlyAnAdminDropsABackupAndTheDropIsAuditedAndLeavesGitsViewAlone() throws Exception {
		String before = this.repo.git("for-each-ref", "--format=%(refname) %(objectname) %(symref)");
		String backup = nameOf(this.there.backup());
		this.mvc.perform(delete(repoUri(this.name, "/backups/" + seg(backup))).with(as("operator")))
			.andExpect(status().isForbidden());
		assertThat(this.there.backup()).isDirectory();

		this.mvc.perform(delete(repoUri(this.name, "/backups/" + seg(backup))).with(as("admin")))
			.andExpect(status().isNoContent());

		assertThat(this.there.backup()).doesNotExist();
		assertThat(this.back.backup()).isDirectory();
		this.mvc.perform(get(repoUri(this.name, "/backups")).with(as("viewer")))
			.andExpect(jsonPath("$.length()").value(1))
			.andExpect(jsonPath("$[0].name").value(nameOf(this.back.backup())));
		assertThat(this.repo.git("for-each-ref", "--format=%(refname) %(objectname) %(symref)")).isEqualTo(before);
		this.repo.git("fsck", "--no-progress");
		this.mvc.perform(
				get("/api/audit").param("action", "backup.drop").param("repository", this.name).with(as("operator")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.entries.length()").value(1))
			.andExpect(jsonPath("$.entries[0].actor").value("admin"))
			.andExpect(jsonPath("$.entries[0].target").value(backup))
			.andExpect(jsonPath("$.entries[0].outcome").value("SUCCESS"));
	}

	@Test
	void anUnknownBackupIsA404Problem() throws Exception {
		this.mvc.perform(delete(repoUri(this.name, "/backups/20200101-000000-000-files")).with(as("admin")))
			.andExpect(status().isNotFound())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value(endsWith("/backup-not-found")))
			.andExpect(jsonPath("$.detail").value(containsString("20200101-000000-000-files")));
		assertThat(this.there.backup()).isDirectory();
	}

	@Test
	void aNameThatIsNoBackupsIsA400NamingTheParameterAndNothingIsDeleted() throws Exception {
		// '..' segments, '//' and '\' never reach the API: the firewall refuses the URL,
		// with a problem too
		for (String bad : new String[] { "..", "../objects", "../../" + this.name, "/etc", "..\\x" }) {
			this.mvc.perform(delete(repoUri(this.name, "/backups/" + seg(bad))).with(as("admin")))
				.andExpect(status().isBadRequest())
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
		}
		Path outside = Files.createDirectories(this.repo.dir().resolveSibling(this.name + "-elsewhere"));
		Files.createSymbolicLink(this.there.backup().resolveSibling("20200101-000000-000-files"), outside);
		for (String bad : new String[] { ".restored-x", ".x", "x/" + nameOf(this.there.backup()),
				"20200101-000000-000-files" }) {
			this.mvc.perform(delete(repoUri(this.name, "/backups/" + seg(bad))).with(as("admin")))
				.andExpect(status().isBadRequest())
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
				.andExpect(jsonPath("$.parameter").value("name"))
				.andExpect(content().string(not(containsString(ROOT.toString()))));
		}
		assertThat(this.repo.gitDir().resolve("objects")).isDirectory();
		assertThat(outside).isDirectory();
		assertThat(this.there.backup()).isDirectory();
		assertThat(this.back.backup()).isDirectory();
		this.mvc
			.perform(get("/api/audit").param("action", "backup.drop")
				.param("repository", this.name)
				.param("outcome", "REJECTED")
				.with(as("operator")))
			.andExpect(jsonPath("$.entries.length()").value(4));
	}

	@Test
	void theApiDescriptionHasBothOperations() throws Exception {
		this.mvc.perform(get("/v3/api-docs"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.paths['/api/repos/{repo}/backups'].get").exists())
			.andExpect(jsonPath("$.paths['/api/repos/{repo}/backups/{name}'].delete").exists());
	}

}
