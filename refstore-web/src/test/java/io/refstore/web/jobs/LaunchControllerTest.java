package io.refstore.web.jobs;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import org.junit.jupiter.api.Test;

import io.refstore.web.console.ConsoleTestSupport;

/**
 * The launch forms: shown to the roles that may launch them, refused to others, and shown
 * again with the batch module's refusal on the field it names; unknown execution pages
 * are a 404.
 */
class LaunchControllerTest extends ConsoleTestSupport {

	@Test
	void showsTheMigrationFormToOperatorsOnly() throws Exception {
		this.mvc.perform(get("/jobs/new/migration").param("repo", "x.git").with(operator()))
			.andExpect(status().isOk())
			.andExpect(view().name(LaunchController.VIEWS_LAUNCH_FORM))
			.andExpect(model().attribute("kind", LaunchKind.MIGRATION));
		this.mvc.perform(get("/jobs/new/migration").with(viewer())).andExpect(status().isForbidden());
		this.mvc.perform(get("/jobs/new/restore").with(operator())).andExpect(status().isForbidden());
		this.mvc.perform(get("/jobs/new/restore").with(admin())).andExpect(status().isOk());
		this.mvc.perform(get("/jobs/new/nothing").with(admin())).andExpect(status().isNotFound());
	}

	@Test
	void aRefusedParameterIsShownOnItsField() throws Exception {
		String name = uniqueName("launch");
		bareRepo(name);
		this.mvc
			.perform(post("/jobs/new/migration").param("repo", name)
				.param("targetFormat", "cvs")
				.param("chunkSize", "100")
				.with(admin())
				.with(csrf()))
			.andExpect(status().isOk())
			.andExpect(view().name(LaunchController.VIEWS_LAUNCH_FORM))
			.andExpect(model().attributeHasFieldErrors("launchForm", "targetFormat"));
		this.mvc
			.perform(post("/jobs/new/migration").param("repo", "../out")
				.param("chunkSize", "100")
				.param("readersChecked", "true")
				.with(admin())
				.with(csrf()))
			.andExpect(model().attributeHasFieldErrors("launchForm", "repo"));
		this.mvc.perform(
				post("/jobs/new/migration").param("repo", name).param("chunkSize", "lots").with(admin()).with(csrf()))
			.andExpect(model().attributeHasFieldErrors("launchForm", "chunkSize"));
	}

	@Test
	void eachFormLaunchesItsJobOrShowsTheRefusalOnTheFormAndABusyRepositoryIsAFormError() throws Exception {
		String name = uniqueName("launch-all");
		io.refstore.core.testing.TempRepo repo = bareRepo(name);
		String commit = repo.commit("one", null);
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < 1000; i++) {
			updates.append("create refs/heads/b/").append(i).append(' ').append(commit).append('\n');
		}
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		this.mvc.perform(get("/jobs/new/deletion").param("repo", name).with(operator()))
			.andExpect(model().attribute("launchForm",
					org.hamcrest.Matchers.hasProperty("chunkSize", org.hamcrest.Matchers.is(1000))))
			.andExpect(model().attribute("launchForm",
					org.hamcrest.Matchers.hasProperty("repo", org.hamcrest.Matchers.is(name))));
		this.mvc.perform(post("/jobs/new/deletion").param("repo", name).with(operator()).with(csrf()))
			.andExpect(status().isOk())
			.andExpect(view().name(LaunchController.VIEWS_LAUNCH_FORM))
			.andExpect(model().attributeHasErrors("launchForm"))
			.andExpect(model().attribute("kind", LaunchKind.DELETION));
		this.mvc
			.perform(post("/jobs/new/restore").param("repo", name)
				.param("manifest", "../x")
				.param("confirmRepository", name)
				.with(admin())
				.with(csrf()))
			.andExpect(model().attributeHasFieldErrors("launchForm", "manifest"));
		this.mvc
			.perform(post("/jobs/new/rollback").param("repo", name)
				.param("backup", "none")
				.param("confirmRepository", name)
				.with(admin())
				.with(csrf()))
			.andExpect(model().attributeHasFieldErrors("launchForm", "backup"));
		// a rollback or restore is confirmed by typing the repository's name
		this.mvc
			.perform(post("/jobs/new/rollback").param("repo", name).param("backup", "none").with(admin()).with(csrf()))
			.andExpect(model().attributeHasFieldErrors("launchForm", "confirmRepository"));
		this.mvc
			.perform(get("/jobs/new/rollback").param("repo", name)
				.param("backup", "20260101-120000-000-files")
				.with(admin()))
			.andExpect(model().attribute("launchForm",
					org.hamcrest.Matchers.hasProperty("backup", org.hamcrest.Matchers.is("20260101-120000-000-files"))))
			.andExpect(content().string(containsString("id=\"confirmRepository\"")));
		this.mvc
			.perform(post("/jobs/new/migration").param("repo", name)
				.param("throttleMillis", "-1")
				.param("readersChecked", "true")
				.with(admin())
				.with(csrf()))
			.andExpect(model().attributeHasFieldErrors("launchForm", "throttleMillis"));
		// to reftable only once the administrator confirms its readers are git 2.45 or
		// later
		this.mvc
			.perform(post("/jobs/new/migration").param("repo", name)
				.param("targetFormat", "reftable")
				.param("chunkSize", "20")
				.with(admin())
				.with(csrf()))
			.andExpect(status().isOk())
			.andExpect(model().attributeHasFieldErrors("launchForm", "readersChecked"))
			.andExpect(content().string(containsString("Confirm that every git opening this repository is 2.45")));
		String running = this.mvc
			.perform(post("/jobs/new/migration").param("repo", name)
				.param("targetFormat", "reftable")
				.param("chunkSize", "20")
				.param("throttleMillis", "200")
				.param("readersChecked", "true")
				.with(admin())
				.with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andExpect(
					org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrlPattern("/jobs/*"))
			.andReturn()
			.getResponse()
			.getRedirectedUrl();
		String id = running.substring(running.lastIndexOf('/') + 1);
		// the form says which job holds the repository, with a link to it, and nothing of
		// the batch module's lease, job name or the repository's path
		this.mvc.perform(post("/jobs/new/maintenance").param("repo", name).with(operator()).with(csrf()))
			.andExpect(status().isOk())
			.andExpect(view().name(LaunchController.VIEWS_LAUNCH_FORM))
			.andExpect(model().attributeHasErrors("launchForm"))
			.andExpect(model().attribute("busyJob", Long.parseLong(id)))
			.andExpect(content().string(containsString("Job " + id + " (Migration) is changing " + name + " now")))
			.andExpect(content().string(containsString("href=\"/jobs/" + id + "\" id=\"busy-job\"")))
			.andExpect(content().string(not(containsString("migrateRefsJob"))))
			.andExpect(content().string(not(containsString("its lease"))))
			.andExpect(content().string(not(containsString("on instance"))))
			.andExpect(content().string(not(containsString(repo.dir().toString()))));
		this.mvc.perform(post("/jobs/" + id + "/stop").with(operator()).with(csrf()))
			.andExpect(status().is3xxRedirection());
	}

	@Test
	void theMigrationFormPicksTheOtherFormatAndAChunkForTheRepositorysSize() throws Exception {
		String files = uniqueName("defaults-files") + ".git";
		io.refstore.core.testing.TempRepo repo = bareRepo(files);
		String commit = repo.commit("one", null);
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < 30_000; i++) {
			updates.append("create refs/heads/b/").append(i).append(' ').append(commit).append('\n');
		}
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		repo.git("pack-refs", "--all");
		this.mvc.perform(get("/jobs/new/migration").param("repo", files).with(admin()))
			.andExpect(model().attribute("launchForm",
					org.hamcrest.Matchers.hasProperty("targetFormat", org.hamcrest.Matchers.is("reftable"))))
			.andExpect(model().attribute("launchForm",
					org.hamcrest.Matchers.hasProperty("chunkSize", org.hamcrest.Matchers.is(300))))
			.andExpect(content().string(containsString("<option value=\"" + files + "\">")))
			// the pre-flight: the store now, who can open it afterwards, this server's
			// git,
			// the backup and the swap, and the confirmation a reftable target needs
			.andExpect(content().string(containsString("<strong>files</strong> store,")))
			.andExpect(content().string(containsString("30,000 refs")))
			.andExpect(content().string(containsString("opens only with git 2.45 or later")))
			.andExpect(content().string(containsString("This server's git is")))
			.andExpect(content().string(containsString("id=\"preflight-backup\"")))
			.andExpect(content().string(containsString("id=\"preflight-swap\"")))
			.andExpect(content().string(containsString("name=\"readersChecked\"")));
		String reftable = uniqueName("defaults-reftable") + ".git";
		io.refstore.core.testing.TempRepo.init(io.refstore.core.testing.GitCli.reftable(), ROOT.resolve(reftable),
				"--bare", "--ref-format=reftable");
		this.mvc.perform(get("/jobs/new/migration").param("repo", reftable).with(admin()))
			.andExpect(model().attribute("launchForm",
					org.hamcrest.Matchers.hasProperty("targetFormat", org.hamcrest.Matchers.is("files"))))
			.andExpect(model().attribute("launchForm",
					org.hamcrest.Matchers.hasProperty("chunkSize", org.hamcrest.Matchers.is(100))));
	}

	/**
	 * An operator is offered only the migration's dry run, which an operator may launch;
	 * a real migration posted anyway shows the form again, as a dry run, saying why.
	 */
	@Test
	void anOperatorIsOfferedOnlyTheDryRunAndARealMigrationIsRefusedOnTheForm() throws Exception {
		String name = uniqueName("launch-operator");
		bareRepo(name).commit("one", null);
		this.mvc.perform(get("/jobs/new/migration").param("repo", name).with(operator()))
			.andExpect(status().isOk())
			.andExpect(model().attribute("mayMigrate", false))
			.andExpect(model().attribute("launchForm",
					org.hamcrest.Matchers.hasProperty("dryRun", org.hamcrest.Matchers.is(true))))
			.andExpect(content().string(containsString("id=\"dry-run-only\"")))
			.andExpect(content().string(not(containsString("id=\"dryRun"))))
			.andExpect(content().string(not(containsString("id=\"targetFormat\""))));
		this.mvc.perform(get("/jobs/new/migration").param("repo", name).with(admin()))
			.andExpect(model().attribute("mayMigrate", true))
			.andExpect(content().string(containsString("id=\"dryRun1\"")))
			.andExpect(content().string(containsString("id=\"targetFormat\"")))
			.andExpect(content().string(not(containsString("id=\"dry-run-only\""))));
		this.mvc.perform(get("/repo").param("name", name).with(operator()))
			.andExpect(content().string(containsString("Dry run a migration…")))
			.andExpect(content().string(not(containsString(">Migrate…<"))));
		this.mvc
			.perform(post("/jobs/new/migration").param("repo", name)
				.param("targetFormat", "reftable")
				.param("chunkSize", "100")
				.with(operator())
				.with(csrf()))
			.andExpect(status().isForbidden())
			.andExpect(view().name(LaunchController.VIEWS_LAUNCH_FORM))
			.andExpect(model().attributeHasErrors("launchForm"))
			.andExpect(model().attribute("launchForm",
					org.hamcrest.Matchers.hasProperty("repo", org.hamcrest.Matchers.is(name))))
			.andExpect(content().string(containsString("Only an administrator may run a real migration.")))
			.andExpect(content().string(containsString("id=\"dry-run-only\"")));
		this.mvc.perform(
				post("/jobs/new/migration").param("repo", name).param("dryRun", "true").with(operator()).with(csrf()))
			.andExpect(status().is3xxRedirection());
	}

	@Test
	void aViewerPostingAnywayIsRefused() throws Exception {
		this.mvc.perform(post("/jobs/new/migration").param("repo", "x").with(viewer()).with(csrf()))
			.andExpect(status().isForbidden());
	}

	@Test
	void anUnknownExecutionIsNotFound() throws Exception {
		this.mvc.perform(get("/jobs/987654").with(viewer()))
			.andExpect(status().isNotFound())
			.andExpect(model().attribute("explanation", containsString("987654")));
	}

}
