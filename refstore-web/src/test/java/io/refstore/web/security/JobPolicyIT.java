package io.refstore.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.console.ConsoleTestSupport;

/**
 * Every job type, and each parameter set that changes the answer, through the four ways
 * of launching it (the API, the console, a schedule, a campaign), as OPERATOR and as
 * ADMIN on the real application: OPERATOR is refused (403) on every path exactly where
 * {@link JobPolicy} says ADMIN, and ADMIN is refused nowhere. A schedule or campaign
 * never overrides the protection, whoever asks (400 naming the parameter).
 */
class JobPolicyIT extends ConsoleTestSupport {

	/**
	 * One job as each path asks for it; a {@code null} path does not offer it.
	 *
	 * @param unattended whether schedules and campaigns refuse it to everyone
	 */
	private record Case(String title, RefJobType type, Map<String, String> parameters, String expected, Request api,
			Request console, boolean unattended) {
	}

	@FunctionalInterface
	private interface Request {

		MockHttpServletRequestBuilder on(String repo);

	}

	private static Request api(String path, String json) {
		return (repo) -> post("/api/jobs/" + path).contentType(MediaType.APPLICATION_JSON)
			.content(json.replace("REPO", repo));
	}

	private static Request form(String path, String... params) {
		return (repo) -> {
			MockHttpServletRequestBuilder request = post(path.replace("REPO", repo)).param("repo", repo);
			for (int i = 0; i < params.length; i += 2) {
				request.param(params[i], params[i + 1]);
			}
			return request.with(csrf());
		};
	}

	private static List<Case> cases() {
		String plan = "refs/heads/b/";
		return List.of(
				new Case("migration", RefJobType.MIGRATE, Map.of(JobParameterNames.TARGET_FORMAT, "reftable"),
						Roles.ADMIN, api("migrations", "{\"repository\":\"REPO\",\"targetFormat\":\"reftable\"}"),
						form("/jobs/new/migration", "targetFormat", "reftable", "chunkSize", "100", "readersChecked",
								"true"),
						false),
				new Case("verification (a migration's dry run)", RefJobType.VERIFY, Map.of(), Roles.OPERATOR,
						api("verifications", "{\"repository\":\"REPO\"}"),
						form("/jobs/new/migration", "dryRun", "true", "chunkSize", "100"), false),
				new Case("inventory", RefJobType.INVENTORY, Map.of(), Roles.OPERATOR,
						api("inventories", "{\"repository\":\"REPO\"}"), form("/jobs/new/inventory"), false),
				new Case("maintenance", RefJobType.MAINTAIN, Map.of(JobParameterNames.FORCE, "true"), Roles.OPERATOR,
						api("maintenance", "{\"repository\":\"REPO\",\"force\":true}"),
						form("/jobs/new/maintenance", "force", "true"), false),
				new Case("deletion plan", RefJobType.DELETE,
						Map.of(JobParameterNames.PLAN_ONLY, "true", JobParameterNames.PREFIXES, plan), Roles.OPERATOR,
						api("deletion-plans", "{\"repository\":\"REPO\",\"prefixes\":[\"" + plan + "\"]}"),
						form("/jobs/new/deletion", "prefixes", plan, "chunkSize", "1000"), false),
				new Case("deletion plan overriding the protection", RefJobType.DELETE,
						Map.of(JobParameterNames.PLAN_ONLY, "true", JobParameterNames.PREFIXES, plan,
								JobParameterNames.OVERRIDE_PROTECTION, "true", JobParameterNames.OVERRIDE_REASON,
								"archived"),
						Roles.ADMIN,
						api("deletion-plans",
								"{\"repository\":\"REPO\",\"prefixes\":[\"" + plan
										+ "\"],\"overrideProtection\":true,\"overrideReason\":\"archived\"}"),
						form("/jobs/new/deletion", "prefixes", plan, "chunkSize", "1000", "overrideProtection", "true",
								"overrideReason", "archived"),
						true),
				new Case("deletion", RefJobType.DELETE, Map.of(JobParameterNames.PREFIXES, plan), Roles.ADMIN,
						api("deletions", "{\"plan\":987654321,\"confirmRepository\":\"REPO\",\"confirmCount\":\"1\"}"),
						form("/jobs/987654321/execute", "confirmRepository", "REPO", "confirmCount", "1"), false),
				new Case("restore", RefJobType.RESTORE, Map.of(JobParameterNames.MANIFEST, "none"), Roles.ADMIN,
						api("restores", "{\"repository\":\"REPO\",\"manifest\":\"none\"}"),
						form("/jobs/new/restore", "manifest", "none"), false),
				new Case("rollback", RefJobType.ROLLBACK, Map.of(JobParameterNames.BACKUP, "none"), Roles.ADMIN,
						api("rollbacks", "{\"repository\":\"REPO\",\"backup\":\"none\"}"),
						form("/jobs/new/rollback", "backup", "none"), false),
				new Case("journal retention", RefJobType.JOURNAL_RETENTION, Map.of(), Roles.ADMIN,
						api("journal-retentions", "{\"repository\":\"REPO\"}"),
						(repo) -> post("/schedules/new").param("name", uniqueName("policy-form"))
							.param("jobType", "JOURNAL_RETENTION")
							.param("targetKind", "REPOSITORY")
							.param("target", repo)
							.param("cron", "0 0 3 1 1 ? 2099")
							.param("timeZone", "UTC")
							.param("misfire", "SKIP")
							.with(csrf()),
						false),
				new Case("point-in-time restore", RefJobType.REWIND, Map.of(JobParameterNames.PLAN, "none"),
						Roles.ADMIN,
						(repo) -> post("/api/repos/" + repo + "/journal/rewind").contentType(MediaType.APPLICATION_JSON)
							.content("{\"at\":\"2026-01-01T00:00:00Z\"}"),
						(repo) -> post("/repo/rewind").param("name", repo)
							.param("at", "2026-01-01T00:00:00")
							.param("prefix", "refs/heads/")
							.param("confirmRepository", repo)
							.with(csrf()),
						true));
	}

	@Test
	void everyJobNeedsTheSameRoleOnEveryPath() throws Exception {
		List<RefJobType> walked = new ArrayList<>();
		for (Case job : cases()) {
			walked.add(job.type());
			assertThat(JobPolicy.role(job.type(), job.parameters())).as(job.title()).isEqualTo(job.expected());
			String repo = uniqueName("policy");
			bareRepo(repo).commit("one", null);
			for (String user : List.of("operator", "admin")) {
				boolean refused = user.equals("operator") && job.expected().equals(Roles.ADMIN);
				String what = job.title() + " as " + user;
				assertThat(status(job.api().on(repo).with(as(user)))).as("API: " + what)
					.matches((code) -> (code == 403) == refused, refused ? "403" : "not 403");
				assertThat(status(job.console().on(repo).with(console(user)))).as("console: " + what)
					.matches((code) -> (code == 403) == refused, refused ? "403" : "not 403");
				String json = json(job.parameters());
				int schedule = status(post("/api/schedules").with(as(user))
					.contentType(MediaType.APPLICATION_JSON)
					.content("""
							{"name":"%s","jobType":"%s","targetKind":"REPOSITORY","target":"%s",\
							"cron":"0 0 3 1 1 ? 2099","parameters":%s}""".formatted(uniqueName("policy"), job.type(),
							repo, json)));
				int campaign = status(post("/api/campaigns").with(as(user))
					.contentType(MediaType.APPLICATION_JSON)
					.content("""
							{"jobType":"%s","targetKind":"REPOSITORY","target":"%s","parameters":%s}"""
						.formatted(job.type(), repo, json)));
				for (int code : new int[] { schedule, campaign }) {
					if (job.unattended()) {
						assertThat(code).as("schedule and campaign: " + what).isEqualTo(refused ? 403 : 400);
					}
					else {
						assertThat(code).as("schedule and campaign: " + what)
							.matches((c) -> (c == 403) == refused, refused ? "403" : "not 403");
					}
				}
			}
		}
		assertThat(walked).containsAll(List.of(RefJobType.values()));
	}

	private static RequestPostProcessor console(String user) {
		return user.equals("admin") ? admin() : operator();
	}

	private int status(MockHttpServletRequestBuilder request) throws Exception {
		return this.mvc.perform(request).andReturn().getResponse().getStatus();
	}

	private static String json(Map<String, String> parameters) {
		StringBuilder out = new StringBuilder("{");
		parameters.forEach((key, value) -> out.append((out.length() > 1) ? "," : "")
			.append('"')
			.append(key)
			.append("\":\"")
			.append(value)
			.append('"'));
		return out.append('}').toString();
	}

}
