package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.ResultActions;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.core.testing.TestFiles;

/**
 * Job inputs stay in their repository: a deletion plan, a deletion's manifests and a
 * migration's backup that repository {@code b} made through the API are handed to
 * repository {@code a} as a symbolic link, through a link to a directory outside the
 * root, and as a copy. Restores, rollbacks, backup drops, deletions of a plan, and
 * schedules and campaigns created with such inputs are each refused with a 400 naming the
 * parameter, and neither repository changes (judged by git's {@code for-each-ref}).
 */
class JobInputsApiIT extends JobApiTestSupport {

	/** B's inputs, made once for the class: a plan, its deletion and a migration. */
	private static Inputs inputs;

	/** What b made, as paths in its git directory, and its refs afterwards. */
	private record Inputs(TempRepo b, Path planDir, Path backup) {
	}

	private TempRepo a;

	private String aName;

	@BeforeEach
	void repositories() throws Exception {
		synchronized (JobInputsApiIT.class) {
			if (inputs == null) {
				inputs = makeInputs();
			}
		}
		this.aName = uniqueName("inputs-a");
		this.a = repoWithBranches(this.aName, 5);
	}

	private Inputs makeInputs() throws Exception {
		String name = uniqueName("inputs-b");
		TempRepo b = repoWithBranches(name, 5);
		long plan = launch("/api/jobs/deletion-plans", """
				{"repository": "%s", "prefixes": ["refs/heads/b/"]}""".formatted(name), "operator");
		awaitResult(plan, "plan.count");
		long deletion = launch("/api/jobs/deletions", """
				{"plan": %d, "confirmRepository": "%s", "confirmCount": "5"}""".formatted(plan, name), "admin");
		assertThat(awaitEnd(deletion).read("$.status", String.class)).isEqualTo("COMPLETED");
		long migration = launch("/api/jobs/migrations", """
				{"repository": "%s", "targetFormat": "reftable"}""".formatted(name), "admin");
		assertThat(awaitResult(migration, "migration.backup").read("$.status", String.class)).isEqualTo("COMPLETED");
		return new Inputs(b, only(b.gitDir().resolve("refstore-plans")), only(b.gitDir().resolve("refstore-backup")));
	}

	private static Path only(Path dir) throws IOException {
		try (Stream<Path> entries = Files.list(dir)) {
			List<Path> all = entries.toList();
			assertThat(all).hasSize(1);
			return all.get(0);
		}
	}

	private long launch(String path, String json, String user) throws Exception {
		return id(this.mvc.perform(postJson(path, json).with(as(user)))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString());
	}

	private Path manifestOfB() throws IOException {
		try (Stream<Path> files = Files.list(inputs.planDir())) {
			return files.filter((file) -> file.getFileName().toString().startsWith("manifest-"))
				.findFirst()
				.orElseThrow();
		}
	}

	/** Both repositories' refs as git lists them ({@code b} is reftable now). */
	private String refs() {
		return this.a.git("for-each-ref") + "--\n" + GitCli.reftable().ok(inputs.b().gitDir(), "for-each-ref");
	}

	private Path inA(String relative) throws IOException {
		Path path = this.a.gitDir().resolve(relative);
		Files.createDirectories(path.getParent());
		return path;
	}

	/** A directory outside the root holding a copy of {@code input}. */
	private Path outside(Path input) throws IOException {
		Path dir = Files.createTempDirectory("refstore-outside");
		return TestFiles.copyTree(input, dir.resolve(input.getFileName().toString()), true).getParent();
	}

	private static void refused(ResultActions result, String parameter, String reason) throws Exception {
		result.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")))
			.andExpect(jsonPath("$.parameter").value(parameter))
			.andExpect(jsonPath("$.detail").value(containsString(reason)))
			.andExpect(jsonPath("$.detail").value(not(containsString(ROOT.toString()))));
	}

	private ResultActions restore(String manifest) throws Exception {
		return this.mvc.perform(postJson("/api/jobs/restores", """
				{"repository": "%s", "manifest": "%s"}""".formatted(this.aName, manifest)).with(as("admin")));
	}

	private ResultActions rollback(String backup) throws Exception {
		return this.mvc.perform(postJson("/api/jobs/rollbacks", """
				{"repository": "%s", "backup": "%s"}""".formatted(this.aName, backup)).with(as("admin")));
	}

	private ResultActions schedule(String jobType, String key, String value) throws Exception {
		return this.mvc.perform(postJson("/api/schedules", """
				{"name": "%s", "jobType": "%s", "targetKind": "REPOSITORY", "target": "%s", "cron": "0 0 2 * * ?",
				 "parameters": {"%s": "%s"}}""".formatted(uniqueName("inputs"), jobType, this.aName, key, value))
			.with(as("admin")));
	}

	private ResultActions campaign(String jobType, String key, String value) throws Exception {
		return this.mvc.perform(postJson("/api/campaigns", """
				{"jobType": "%s", "targetKind": "REPOSITORY", "target": "%s", "parameters": {"%s": "%s"}}"""
			.formatted(jobType, this.aName, key, value)).with(as("admin")));
	}

	/** The launch, a schedule and a campaign with {@code value} are each refused. */
	private void refusedEverywhere(String jobType, String key, String value, String reason) throws Exception {
		refused(schedule(jobType, key, value), "parameters." + key, reason);
		refused(campaign(jobType, key, value), "parameters." + key, reason);
	}

	@Test
	void aRestoreTakesNoManifestOfAnotherRepository() throws Exception {
		String before = refs();
		Files.createSymbolicLink(inA("refstore-plans/linked"), inputs.planDir());
		Files.createSymbolicLink(inA("refstore-plans/file/" + manifestOfB().getFileName()), manifestOfB());
		Files.createSymbolicLink(inA("refstore-plans/outside"), outside(inputs.planDir()));
		TestFiles.copyTree(inputs.planDir(), inA("refstore-plans/copied"), true);
		for (String manifest : List.of("linked", "file", "outside")) {
			refused(restore(manifest), "manifest", "is a symbolic link");
			refusedEverywhere("restore", "manifest", manifest, "is a symbolic link");
		}
		refused(restore("outside/" + inputs.planDir().getFileName()), "manifest", "is a symbolic link");
		refused(restore("copied"), "manifest", "written for another repository");
		refusedEverywhere("restore", "manifest", "copied", "written for another repository");
		assertThat(refs()).isEqualTo(before);
	}

	@Test
	void aRollbackOrADropTakesNoBackupOfAnotherRepository() throws Exception {
		String before = refs();
		String name = inputs.backup().getFileName().toString();
		Files.createSymbolicLink(inA("refstore-backup/20200101-000000-000-files"), inputs.backup());
		Files.createSymbolicLink(inA("refstore-backup/20200101-000000-001-files"),
				outside(inputs.backup()).resolve(name));
		TestFiles.copyTree(inputs.backup(), inA("refstore-backup/" + name), true);
		for (String backup : List.of("20200101-000000-000-files", "20200101-000000-001-files")) {
			refused(rollback(backup), "backup", "is a symbolic link");
			refusedEverywhere("rollback", "backup", backup, "is a symbolic link");
			refused(this.mvc.perform(delete(repoUri(this.aName, "/backups/" + backup)).with(as("admin"))), "name",
					"symbolic link");
		}
		refused(rollback(name), "backup", "written for another repository");
		refusedEverywhere("rollback", "backup", name, "written for another repository");
		refused(this.mvc.perform(delete(repoUri(this.aName, "/backups/" + name)).with(as("admin"))), "name",
				"written for another repository");
		assertThat(inA("refstore-backup/" + name)).isDirectory();
		assertThat(inputs.backup()).isDirectory();
		assertThat(refs()).isEqualTo(before);
	}

	@Test
	void aDropTakesNoBackupDirectoryThatIsALink() throws Exception {
		String name = inputs.backup().getFileName().toString();
		Files.createSymbolicLink(inA("refstore-backup"), inputs.backup().getParent());
		refused(this.mvc.perform(delete(repoUri(this.aName, "/backups/" + name)).with(as("admin"))), "name",
				"refstore-backup/ is a symbolic link");
		refused(rollback(name), "backup", "'refstore-backup' is a symbolic link");
		assertThat(inputs.backup()).isDirectory();
	}

	@Test
	void aDeletionTakesNoPlanOfAnotherRepository() throws Exception {
		long plan = launch("/api/jobs/deletion-plans", """
				{"repository": "%s", "prefixes": ["refs/heads/b/"]}""".formatted(this.aName), "operator");
		awaitResult(plan, "plan.count");
		String before = refs();
		Path own = only(this.a.gitDir().resolve("refstore-plans")).resolve("plan");
		String execute = """
				{"plan": %d, "confirmRepository": "%s", "confirmCount": "5"}""".formatted(plan, this.aName);

		Files.move(own, own.resolveSibling("plan.own"));
		Files.createSymbolicLink(own, inputs.planDir().resolve("plan"));
		refused(this.mvc.perform(postJson("/api/jobs/deletions", execute).with(as("admin"))), "plan",
				"is a symbolic link");
		Files.delete(own);
		Files.copy(inputs.planDir().resolve("plan"), own);
		refused(this.mvc.perform(postJson("/api/jobs/deletions", execute).with(as("admin"))), "plan",
				"written for another repository");

		Files.createSymbolicLink(inA("refstore-plans/linked"), inputs.planDir());
		Files.createSymbolicLink(inA("refstore-plans/outside"), outside(inputs.planDir()));
		refusedEverywhere("delete", "plan", "linked/plan", "is a symbolic link");
		refusedEverywhere("delete", "plan", "outside/" + inputs.planDir().getFileName() + "/plan",
				"is a symbolic link");
		refusedEverywhere("delete", "plan", own.getParent().getFileName() + "/plan", "written for another repository");
		assertThat(refs()).isEqualTo(before);
	}

}
