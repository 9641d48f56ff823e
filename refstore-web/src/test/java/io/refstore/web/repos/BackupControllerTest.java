package io.refstore.web.repos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.refstore.core.migrate.FormatMigrator;
import io.refstore.core.migrate.MigrationOptions;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;

/**
 * The backups section of a repository's page over a repository git made and refstore
 * migrated: every user sees the list, only an ADMIN the drop control; a drop needs the
 * backup's name typed, and a VIEWER's POST is refused whatever the page showed.
 */
class BackupControllerTest extends ConsoleTestSupport {

	String name;

	Path backup;

	@BeforeEach
	void migratedRepository() throws IOException {
		this.name = uniqueName("console-backups");
		TempRepo repo = bareRepo(this.name);
		repo.git("update-ref", "refs/heads/main", repo.commit("one", null));
		try (Repository repository = Repository.open(repo.dir(), Map.of())) {
			this.backup = new FormatMigrator(repository).migrate(MigrationOptions.to(RefFormat.REFTABLE)).backup();
		}
	}

	private String backupName() {
		return this.backup.getFileName().toString();
	}

	@Test
	void theRepositoryPageLoadsTheBackupsSection() throws Exception {
		this.mvc.perform(get("/repo").param("name", this.name).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("<h2>Backups</h2>")))
			.andExpect(content().string(containsString("hx-get=\"/repo/backups?name=" + this.name + "\"")));
	}

	@Test
	void anAdminSeesTheDropControlAViewerOnlyTheList() throws Exception {
		this.mvc.perform(get("/repo/backups").param("name", this.name).with(admin()))
			.andExpect(status().isOk())
			.andExpect(view().name(BackupController.VIEWS_BACKUPS))
			.andExpect(content().string(containsString(backupName())))
			.andExpect(content().string(containsString("drop-backup")));
		this.mvc.perform(get("/repo/backups").param("name", this.name).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString(backupName())))
			.andExpect(content().string(not(containsString("drop-backup"))));
	}

	@Test
	void anAdminRollsBackFromTheBackupsTableWithTheBackupPickedNotTyped() throws Exception {
		String rollback = "/jobs/new/rollback?repo=" + this.name + "&amp;backup=" + backupName();
		this.mvc.perform(get("/repo/backups").param("name", this.name).with(admin()))
			.andExpect(content().string(containsString("href=\"" + rollback + "\">Roll back to this…</a>")));
		this.mvc.perform(get("/repo/backups").param("name", this.name).with(operator()))
			.andExpect(content().string(not(containsString("Roll back to this"))));
		this.mvc.perform(get("/jobs/new/rollback").param("repo", this.name).param("backup", backupName()).with(admin()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"backup-choices\"")))
			.andExpect(content()
				.string(containsString("type=\"radio\" name=\"backup\" value=\"" + backupName() + "\" checked")))
			.andExpect(content().string(containsString("files store</span> kept")))
			.andExpect(content().string(not(containsString("id=\"backup\""))));
		// without a repository, or one without backups: typed, saying so
		this.mvc.perform(get("/jobs/new/rollback").with(admin()))
			.andExpect(content().string(containsString("id=\"backup\"")))
			.andExpect(content().string(not(containsString("id=\"no-backups\""))));
		String bare = uniqueName("console-no-backups");
		bareRepo(bare).commit("one", null);
		this.mvc.perform(get("/jobs/new/rollback").param("repo", bare).with(admin()))
			.andExpect(content().string(containsString("id=\"no-backups\"")))
			.andExpect(content().string(containsString("id=\"backup\"")));
	}

	@Test
	void aDropIsConfirmedByTypingTheNameThenDone() throws Exception {
		this.mvc.perform(get("/repo/backups/drop").param("name", this.name).param("backup", backupName()).with(admin()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"confirm-drop\"")))
			.andExpect(content().string(containsString("name=\"_csrf\"")));
		this.mvc
			.perform(post("/repo/backups/drop").param("name", this.name)
				.param("backup", backupName())
				.param("confirmBackup", "something else")
				.with(admin())
				.with(csrf()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"confirm-error\"")));
		assertThat(this.backup).isDirectory();

		this.mvc
			.perform(post("/repo/backups/drop").param("name", this.name)
				.param("backup", backupName())
				.param("confirmBackup", backupName())
				.with(admin())
				.with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andExpect(redirectedUrl("/repo?name=" + this.name))
			.andExpect(flash().attribute("message", containsString(backupName())));

		assertThat(this.backup).doesNotExist();
	}

	@Test
	void aViewerCannotDropEvenWithTheForm() throws Exception {
		this.mvc
			.perform(get("/repo/backups/drop").param("name", this.name).param("backup", backupName()).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(not(containsString("id=\"confirm-drop\""))));
		this.mvc
			.perform(post("/repo/backups/drop").param("name", this.name)
				.param("backup", backupName())
				.param("confirmBackup", backupName())
				.with(viewer())
				.with(csrf()))
			.andExpect(status().isForbidden());
		assertThat(this.backup).isDirectory();
	}

}
