package io.refstore.web.branches;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrlPattern;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MvcResult;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;

/**
 * A branch a deletion job deleted is restored alone from the job's manifest, where the
 * Branches view lists it under the job ("Recently deleted"), judged by git: the branch
 * comes back at its old value while the job's other branches stay deleted, and a branch
 * recreated meanwhile is refused and left as git has it. Only a role that may restore
 * (ADMIN) is offered the button or may post it.
 */
class BranchRestoreFromManifestTest extends ConsoleTestSupport {

	@Test
	void aBranchADeletionJobDeletedIsRestoredAloneAndOneRecreatedIsRefused() throws Exception {
		String name = uniqueName("restore-one") + ".git";
		TempRepo repo = bareRepo(name);
		String one = repo.commit("one", null);
		String two = repo.commit("two", one);
		repo.git("update-ref", "refs/heads/main", two);
		repo.git("update-ref", "refs/heads/topic/a", one);
		repo.git("update-ref", "refs/heads/topic/b", one);
		repo.git("update-ref", "refs/heads/topic/c", two);
		// the deletion of three branches: planned, then executed after its confirmation
		long plan = redirectedId(this.mvc
			.perform(post("/repo/branches/plan").param("name", name)
				.param("branch", "refs/heads/topic/a", "refs/heads/topic/b", "refs/heads/topic/c")
				.with(operator())
				.with(csrf()))
			.andExpect(redirectedUrlPattern("/jobs/*"))
			.andReturn());
		assertThat(awaitEnd(plan)).isEqualTo("COMPLETED");
		long deletion = redirectedId(this.mvc
			.perform(post("/jobs/" + plan + "/execute").param("confirmRepository", name)
				.param("confirmCount", "3")
				.with(admin())
				.with(csrf()))
			.andExpect(redirectedUrlPattern("/jobs/*"))
			.andReturn());
		assertThat(awaitEnd(deletion)).isEqualTo("COMPLETED");
		assertThat(repo.git("for-each-ref", "--format=%(refname)", "refs/heads/").strip()).isEqualTo("refs/heads/main");

		// the view lists the job's branches, with Restore for an admin only
		String view = this.mvc.perform(get("/repo/branches").param("name", name).with(admin()))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(view).contains("id=\"manifest-branches-" + deletion + "\"")
			.contains("data-branch=\"refs/heads/topic/a\"")
			.contains("aria-label=\"Restore refs/heads/topic/a from job " + deletion + "\"");
		assertThat(this.mvc.perform(get("/repo/branches").param("name", name).with(operator()))
			.andReturn()
			.getResponse()
			.getContentAsString()).contains("id=\"manifest-branches-" + deletion + "\"")
			.doesNotContain("/repo/branches/restore-from-job");
		this.mvc
			.perform(post("/repo/branches/restore-from-job").param("name", name)
				.param("job", Long.toString(deletion))
				.param("branch", "refs/heads/topic/a")
				.with(operator())
				.with(csrf()))
			.andExpect(status().isForbidden());

		// one branch back at its old value, the others still deleted
		MvcResult restored = this.mvc
			.perform(post("/repo/branches/restore-from-job").param("name", name)
				.param("job", Long.toString(deletion))
				.param("branch", "refs/heads/topic/a")
				.with(admin())
				.with(csrf()))
			.andExpect(redirectedUrlPattern("/jobs/*"))
			.andExpect(flash().attribute("message",
					"Restoring refs/heads/topic/a from the manifest of job " + deletion + "."))
			.andReturn();
		assertThat(awaitEnd(redirectedId(restored))).isEqualTo("COMPLETED");
		assertThat(repo.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/").strip())
			.isEqualTo("refs/heads/main " + two + "\nrefs/heads/topic/a " + one);
		repo.git("fsck", "--strict");

		// a branch created again meanwhile is refused, and left as it is
		repo.git("update-ref", "refs/heads/topic/c", one);
		this.mvc
			.perform(post("/repo/branches/restore-from-job").param("name", name)
				.param("job", Long.toString(deletion))
				.param("branch", "refs/heads/topic/c")
				.with(admin())
				.with(csrf()))
			.andExpect(redirectedUrl("/repo/branches?name=" + name))
			.andExpect(flash().attribute("problem", "Nothing was restored: refs/heads/topic/c exists again, at "
					+ one.substring(0, 12) + "; it was left as is."));
		assertThat(repo.git("rev-parse", "refs/heads/topic/c").strip()).isEqualTo(one);
		// the restored one is back already; a name the job did not delete is refused too
		this.mvc
			.perform(post("/repo/branches/restore-from-job").param("name", name)
				.param("job", Long.toString(deletion))
				.param("branch", "refs/heads/topic/a")
				.with(admin())
				.with(csrf()))
			.andExpect(flash().attribute("problem", "Nothing was restored: refs/heads/topic/a is back already, at "
					+ one.substring(0, 12) + "; it was left as is."));
		this.mvc
			.perform(post("/repo/branches/restore-from-job").param("name", name)
				.param("job", Long.toString(deletion))
				.param("branch", "refs/heads/main")
				.with(admin())
				.with(csrf()))
			.andExpect(flash().attribute("problem",
					"Nothing was restored: job " + deletion + " did not delete refs/heads/main."));
		this.mvc
			.perform(post("/repo/branches/restore-from-job").param("name", name)
				.param("job", Long.toString(plan))
				.param("branch", "refs/heads/topic/b")
				.with(admin())
				.with(csrf()))
			.andExpect(flash().attribute("problem",
					"Nothing was restored: job " + plan + " is no executed deletion of " + name + "."));
		assertThat(repo.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/").strip())
			.isEqualTo("refs/heads/main " + two + "\nrefs/heads/topic/a " + one + "\nrefs/heads/topic/c " + one);

		// the view says which are back and which exist again; the whole job's restore
		// stays offered, since restoring one branch did not restore the job
		String after = this.mvc.perform(get("/repo/branches").param("name", name).with(admin()))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(after).contains("aria-label=\"Restore refs/heads/topic/b from job " + deletion + "\"")
			.doesNotContain("aria-label=\"Restore refs/heads/topic/a from job")
			.doesNotContain("aria-label=\"Restore refs/heads/topic/c from job")
			.contains("not restored over it")
			.contains("#confirm-restore");
	}

	/** The id a launch redirected to. */
	private static long redirectedId(MvcResult result) {
		String url = result.getResponse().getRedirectedUrl();
		return Long.parseLong(url.substring(url.lastIndexOf('/') + 1));
	}

	/** Waits until execution {@code id} has ended; its status. */
	private String awaitEnd(long id) {
		String body = await("execution " + id + " to end").atMost(Duration.ofSeconds(90))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.mvc.perform(get("/api/jobs/" + id).with(as("operator")))
				.andReturn()
				.getResponse()
				.getContentAsString(), (now) -> !JsonPath.<Boolean>read(now, "$.running"));
		return JsonPath.read(body, "$.status");
	}

}
