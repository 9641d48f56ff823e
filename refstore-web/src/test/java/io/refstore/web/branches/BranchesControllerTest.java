package io.refstore.web.branches;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrlPattern;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.RequestPostProcessor;
import org.springframework.web.util.HtmlUtils;

import io.refstore.core.journal.JournalHook;
import io.refstore.core.repo.Repository;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;
import io.refstore.web.refs.BranchList;
import io.refstore.web.refs.BranchRow;

/**
 * The Branches view over a repository git made with dates relative to now (a main line
 * from 400 days ago to 2, branches merged at several of its commits, branches ahead of
 * and behind it, 60 more a day apart around the stale age, a name in upper case), every
 * expectation git's own answer: the tabs and their counts from {@code for-each-ref}'s
 * creator dates and the hygiene's 90 days, merged from {@code git branch --merged}, ahead
 * and behind from {@code rev-list --left-right --count}, the orders from
 * {@code for-each-ref --sort}. Then the search (plain and as htmx asks for it), the
 * pager, the empty states and refused parameters; what each role is offered, and a
 * viewer's or operator's forged POSTs refused with nothing changed; an admin's delete of
 * one branch after its confirmation (refused for a moved branch and for HEAD's), with its
 * restore at the old value and, from the journal, under Recently deleted; a plan of the
 * selected branches by name and a plan of the merged ones, each counting what the view
 * said.
 */
class BranchesControllerTest extends ConsoleTestSupport {

	private static final long DAY = 86_400;

	private static final Pattern ROW = Pattern.compile("<tr data-branch=\"([^\"]*)\"");

	static String name;

	static TempRepo repo;

	static long now;

	@BeforeAll
	static void repository() {
		name = uniqueName("branches");
		repo = bareRepo(name);
		now = Instant.now().getEpochSecond();
		String tree = repo.git("hash-object", "-t", "tree", "-w", "--stdin").trim();
		int[] mainAges = { 400, 300, 200, 100, 20, 2 };
		List<String> main = new ArrayList<>();
		String parent = null;
		for (int i = 0; i < mainAges.length; i++) {
			parent = commit(tree, parent, mainAges[i], "Main " + i);
			main.add(parent);
		}
		String feature = commit(tree, commit(tree, main.get(3), 5, "Start the form"), 4, "Validate the form");
		StringBuilder updates = new StringBuilder();
		updates.append("create refs/heads/main ").append(main.get(5)).append('\n');
		updates.append("create refs/heads/merged/ancient ").append(main.get(0)).append('\n');
		updates.append("create refs/heads/merged/old ").append(main.get(2)).append('\n');
		updates.append("create refs/heads/merged/recent ").append(main.get(4)).append('\n');
		updates.append("create refs/heads/feature/login/Form-Validation ").append(feature).append('\n');
		updates.append("create refs/heads/stale/abandoned ")
			.append(commit(tree, main.get(1), 250, "Abandoned work"))
			.append('\n');
		updates.append("create refs/heads/TOPIC/upper ").append(commit(tree, main.get(5), 3, "Upper")).append('\n');
		for (int i = 0; i < 60; i++) {
			updates.append(String.format("create refs/heads/bulk/b%02d %s%n", i,
					commit(tree, main.get(4), 61 + i, "Bulk " + i)));
		}
		updates.append("create refs/tags/v1 ").append(main.get(3)).append('\n');
		repo.run(updates.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		repo.git("symbolic-ref", "HEAD", "refs/heads/main");
	}

	/** A commit of the empty tree dated {@code daysAgo} and a half days ago. */
	private static String commit(String tree, String parent, int daysAgo, String subject) {
		long committed = now - daysAgo * DAY - DAY / 2;
		String text = "tree " + tree + "\n" + ((parent != null) ? "parent " + parent + "\n" : "")
				+ "author A U Thor <author@example.com> " + committed + " +0000\ncommitter C O Mitter "
				+ "<committer@example.com> " + committed + " +0000\n\n" + subject + "\n";
		return repo.run(text.getBytes(StandardCharsets.UTF_8), "hash-object", "-t", "commit", "-w", "--stdin")
			.requireOk()
			.stdout()
			.trim();
	}

	@Test
	void theTabsAndTheirCountsAreGitsCreatorDatesAgainstTheStaleAge() throws Exception {
		Map<String, Long> dates = dates(repo);
		long cutoff = Instant.now().getEpochSecond() - 90 * DAY;
		List<String> stale = dates.keySet().stream().filter((ref) -> dates.get(ref) < cutoff).toList();
		List<String> active = dates.keySet().stream().filter((ref) -> dates.get(ref) >= cutoff).toList();
		assertThat(stale).hasSizeGreaterThan(30).contains("refs/heads/merged/old", "refs/heads/stale/abandoned");
		assertThat(active).hasSizeGreaterThan(30).contains("refs/heads/main", "refs/heads/TOPIC/upper");
		assertThat(everyName("active", "name", viewer())).isEqualTo(active);
		assertThat(everyName("stale", "name", viewer())).isEqualTo(stale);
		assertThat(everyName("all", "name", viewer())).isEqualTo(new ArrayList<>(dates.keySet()));
		MvcResult result = this.mvc.perform(branches().param("tab", "stale").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(view().name(BranchesController.VIEWS_BRANCHES))
			.andReturn();
		BranchList list = list(result);
		assertThat(list.active()).isEqualTo(active.size());
		assertThat(list.stale()).isEqualTo(stale.size());
		assertThat(list.all()).isEqualTo(dates.size());
		String html = result.getResponse().getContentAsString();
		assertThat(tabCount(html, "active")).isEqualTo(Integer.toString(active.size()));
		assertThat(tabCount(html, "stale")).isEqualTo(Integer.toString(stale.size()));
		assertThat(tabCount(html, "all")).isEqualTo(Integer.toString(dates.size()));
		assertThat(html).containsPattern("id=\"tab-stale\"[^>]*aria-current=\"page\"");
		// the repository page links here
		this.mvc.perform(get("/repo").param("name", name).with(viewer()))
			.andExpect(content().string(containsString("href=\"/repo/branches?name=" + name + "\"")));
	}

	@Test
	void eachRowIsGitsMergedAheadBehindDateAndSubject() throws Exception {
		Set<String> merged = new HashSet<>(lines(repo.git("branch", "--merged", "main", "--format=%(refname)")));
		assertThat(merged).contains("refs/heads/merged/old", "refs/heads/main")
			.doesNotContain("refs/heads/stale/abandoned");
		Map<String, String> subjects = new LinkedHashMap<>();
		for (String line : lines(repo.git("for-each-ref", "--format=%(refname) %(subject)", "refs/heads/"))) {
			subjects.put(line.substring(0, line.indexOf(' ')), line.substring(line.indexOf(' ') + 1));
		}
		Map<String, Long> dates = dates(repo);
		List<BranchRow> rows = new ArrayList<>();
		for (int page = 1; page <= 2; page++) {
			rows.addAll(list(this.mvc
				.perform(branches().param("sort", "name").param("page", Integer.toString(page)).with(viewer()))
				.andReturn()).rows());
		}
		assertThat(rows).hasSize(dates.size());
		for (BranchRow row : rows) {
			assertThat(row.merged()).as(row.name()).isEqualTo(merged.contains(row.name()));
			String[] counts = repo.git("rev-list", "--left-right", "--count", "refs/heads/main..." + row.name())
				.trim()
				.split("\\s+");
			assertThat(row.behind()).as(row.name() + " behind").isEqualTo(Integer.parseInt(counts[0]));
			assertThat(row.ahead()).as(row.name() + " ahead").isEqualTo(Integer.parseInt(counts[1]));
			assertThat(row.commit().date().getEpochSecond()).as(row.name()).isEqualTo(dates.get(row.name()));
			assertThat(row.commit().subject()).as(row.name()).isEqualTo(subjects.get(row.name()));
			assertThat(row.head()).isEqualTo(row.name().equals("refs/heads/main"));
			assertThat(row.protectedBy()).isEqualTo(row.head() ? "HEAD" : null);
		}
		BranchRow feature = rows.stream()
			.filter((row) -> row.name().equals("refs/heads/feature/login/Form-Validation"))
			.findFirst()
			.orElseThrow();
		assertThat(feature.ahead()).isEqualTo(2);
		assertThat(feature.behind()).isEqualTo(2);
		String html = this.mvc.perform(branches().param("q", "Form-Validation").with(viewer()))
			.andReturn()
			.getResponse()
			.getContentAsString();
		// the name wraps between its components only, and the date is the console's UTC
		assertThat(html)
			.contains("<span>feature/</span><wbr><span>login/</span><wbr><span>Form-Validation</span><wbr>");
		assertThat(html).contains("2 behind · 2 ahead");
		assertThat(html).containsPattern("datetime=\"[^\"]*\">\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC</time>");
	}

	@Test
	void sortsByNameBothWaysAndByLastCommitAsGitDoes() throws Exception {
		List<String> byName = lines(repo.git("for-each-ref", "--sort=refname", "--format=%(refname)", "refs/heads/"));
		assertThat(everyName("all", "name", viewer())).isEqualTo(byName);
		List<String> backwards = new ArrayList<>(byName);
		Collections.reverse(backwards);
		assertThat(everyName("all", "name-desc", viewer())).isEqualTo(backwards);
		assertThat(everyName("all", "newest", viewer()))
			.isEqualTo(lines(repo.git("for-each-ref", "--sort=-creatordate", "--format=%(refname)", "refs/heads/")));
		assertThat(everyName("stale", "oldest", viewer())).isEqualTo(
				lines(repo.git("for-each-ref", "--sort=creatordate", "--format=%(refname)", "refs/heads/")).stream()
					.filter((ref) -> dates(repo).get(ref) < Instant.now().getEpochSecond() - 90 * DAY)
					.toList());
		// the headers are links that turn the order around, and say which order is shown
		String html = this.mvc.perform(branches().param("sort", "name").param("q", "bulk").with(viewer()))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(href(html, "sort-name")).contains("sort=name-desc").contains("q=bulk");
		assertThat(href(html, "sort-date")).contains("sort=newest");
		assertThat(html).containsPattern("aria-sort=\"ascending\">\\s*<a id=\"sort-name\"");
		html = this.mvc.perform(branches().param("sort", "newest").with(viewer()))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(href(html, "sort-date")).contains("sort=oldest");
		assertThat(html).containsPattern("aria-sort=\"descending\">\\s*<a id=\"sort-date\"");
	}

	@Test
	void eachTabInEachOrderListsGitsOrderOfItsBranchesWithOrWithoutASearch() throws Exception {
		Map<String, Long> dates = dates(repo);
		long cutoff = Instant.now().getEpochSecond() - 90 * DAY;
		Map<String, String> gitSorts = Map.of("name", "refname", "name-desc", "-refname", "newest", "-creatordate",
				"oldest", "creatordate");
		for (Map.Entry<String, String> sort : gitSorts.entrySet()) {
			List<String> order = lines(
					repo.git("for-each-ref", "--sort=" + sort.getValue(), "--format=%(refname)", "refs/heads/"));
			List<String> stale = order.stream().filter((ref) -> dates.get(ref) < cutoff).toList();
			List<String> active = order.stream().filter((ref) -> dates.get(ref) >= cutoff).toList();
			assertThat(everyName("all", sort.getKey(), viewer())).as(sort.getKey()).isEqualTo(order);
			assertThat(everyName("stale", sort.getKey(), viewer())).as(sort.getKey()).isEqualTo(stale);
			assertThat(everyName("active", sort.getKey(), viewer())).as(sort.getKey()).isEqualTo(active);
			// a search keeps the order: "B" matches bulk/ and stale/abandoned, without
			// case
			assertThat(everyName("active", sort.getKey(), "B", viewer())).as(sort.getKey())
				.isEqualTo(active.stream()
					.filter((ref) -> ref.substring(11).toLowerCase(Locale.ROOT).contains("b"))
					.toList());
			assertThat(everyName("stale", sort.getKey(), "B", viewer())).as(sort.getKey())
				.isEqualTo(stale.stream()
					.filter((ref) -> ref.substring(11).toLowerCase(Locale.ROOT).contains("b"))
					.toList());
		}
	}

	@Test
	void searchesNamesWithoutCaseAndAnswersHtmxWithTheListAlone() throws Exception {
		BranchList topic = list(this.mvc.perform(branches().param("q", "topic").with(viewer())).andReturn());
		assertThat(topic.rows()).extracting(BranchRow::name).containsExactly("refs/heads/TOPIC/upper");
		assertThat(topic.active()).isEqualTo(1);
		assertThat(topic.stale()).isZero();
		// "heads" is in every full name but in no branch's own name
		assertThat(list(this.mvc.perform(branches().param("q", "heads").with(viewer())).andReturn()).total()).isZero();
		MvcResult htmx = this.mvc
			.perform(branches().param("q", "merged/")
				.header("HX-Request", "true")
				.header("HX-Target", "branch-list")
				.with(viewer()))
			.andExpect(status().isOk())
			.andExpect(view().name(BranchesController.VIEWS_BRANCH_LIST))
			.andReturn();
		String fragment = htmx.getResponse().getContentAsString();
		assertThat(fragment).startsWith("<div id=\"branch-list\"")
			.doesNotContain("<html")
			.doesNotContain("branch-search");
		assertThat(rowNames(fragment)).containsExactlyInAnyOrder("refs/heads/merged/ancient", "refs/heads/merged/old",
				"refs/heads/merged/recent");
		assertThat(htmx.getResponse().getHeader("Vary")).contains("HX-Target");
		// the page itself carries the search as htmx sends it, debounced, and as a plain
		// form
		String page = this.mvc.perform(branches().with(viewer())).andReturn().getResponse().getContentAsString();
		assertThat(page).contains("hx-trigger=\"input changed delay:300ms, search\"")
			.contains("hx-target=\"#branch-list\"")
			.containsPattern("<form class=\"filters\" id=\"branch-search\" method=\"get\" action=\"/repo/branches\"");
		this.mvc.perform(branches().param("q", "zzz-nothing").with(viewer()))
			.andExpect(content().string(containsString("id=\"no-match\"")))
			.andExpect(content().string(containsString("zzz-nothing")))
			.andExpect(content().string(not(containsString("id=\"branches\""))));
	}

	@Test
	void pagesSayWhereTheyAreAndAPagePastTheEndShowsTheLast() throws Exception {
		int total = dates(repo).size();
		String first = this.mvc.perform(branches().param("sort", "name").with(viewer()))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(text(first, "page-position")).isEqualTo("1–50 of " + total);
		assertThat(first).doesNotContain("id=\"previous-page\"");
		assertThat(href(first, "next-page")).contains("page=2").contains("sort=name");
		String second = this.mvc.perform(get(HtmlUtils.htmlUnescape(href(first, "next-page"))).with(viewer()))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(text(second, "page-position")).isEqualTo("51–" + total + " of " + total);
		assertThat(second).contains("id=\"previous-page\"").doesNotContain("id=\"next-page\"");
		BranchList past = list(this.mvc.perform(branches().param("page", "99").with(viewer())).andReturn());
		assertThat(past.page()).isEqualTo(2);
		assertThat(past.rows()).hasSize(total - 50);
	}

	@Test
	void everyListHasItsEmptyState() throws Exception {
		String empty = uniqueName("no-branches");
		bareRepo(empty);
		this.mvc.perform(get("/repo/branches").param("name", empty).with(admin()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"no-branches\"")))
			.andExpect(content().string(containsString("id=\"no-recently-deleted\"")))
			.andExpect(content().string(not(containsString("id=\"delete-merged\""))));
		String fresh = uniqueName("fresh-branches");
		TempRepo freshRepo = bareRepo(fresh);
		String today = freshRepo
			.with(GitCli.system().withEnv("GIT_COMMITTER_DATE", "@" + Instant.now().getEpochSecond() + " +0000"))
			.commit("new", null);
		freshRepo.git("update-ref", "refs/heads/main", today);
		this.mvc.perform(get("/repo/branches").param("name", fresh).param("tab", "stale").with(viewer()))
			.andExpect(content().string(containsString("id=\"no-stale\"")))
			.andExpect(content().string(containsString("id=\"tab-active\"")));
	}

	@Test
	void refusedParametersAreBadRequestsNamingThem() throws Exception {
		this.mvc.perform(branches().param("tab", "old").with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(model().attribute("explanation", containsString("'tab'")));
		this.mvc.perform(branches().param("sort", "size").with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(model().attribute("explanation", containsString("'sort'")));
		this.mvc.perform(branches().param("page", "0").with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(model().attribute("explanation", containsString("'page'")));
		this.mvc.perform(branches().param("q", "x".repeat(201)).with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(model().attribute("explanation", containsString("'q'")));
		this.mvc.perform(get("/repo/branches").param("name", "no-such-repo").with(viewer()))
			.andExpect(status().isNotFound());
		this.mvc.perform(get("/repo/branches/delete").param("name", name).param("branch", "refs/tags/v1").with(admin()))
			.andExpect(status().isBadRequest())
			.andExpect(model().attribute("explanation", containsString("'branch'")));
		this.mvc.perform(
				get("/repo/branches/delete").param("name", name).param("branch", "refs/heads/no-such").with(admin()))
			.andExpect(status().isNotFound());
	}

	@Test
	void eachRoleIsOfferedWhatItCanComplete() throws Exception {
		String viewer = this.mvc.perform(branches().param("sort", "name").with(viewer()))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(viewer).doesNotContain("type=\"checkbox\"")
			.doesNotContain("id=\"plan-selected\"")
			.doesNotContain("Delete…")
			.doesNotContain("id=\"delete-merged\"")
			.doesNotContain("class=\"secondary restore\"");
		String operator = this.mvc.perform(branches().param("sort", "name").with(operator()))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(operator).contains("type=\"checkbox\"", "id=\"plan-selected\"", "id=\"delete-merged\"")
			.doesNotContain("class=\"delete\"");
		String admin = this.mvc.perform(branches().param("q", "main").with(admin()))
			.andReturn()
			.getResponse()
			.getContentAsString();
		// HEAD's branch: no checkbox, no delete, and why
		assertThat(admin).doesNotContain("value=\"refs/heads/main\"")
			.contains("The default branch (the one HEAD names) cannot be deleted.");
		admin = this.mvc.perform(branches().param("q", "merged/recent").with(admin()))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(admin).contains("value=\"refs/heads/merged/recent\"")
			.contains("href=\"/repo/branches/delete?name=" + name + "&amp;branch=refs/heads/merged/recent\"");
		// the confirmation offers its button to an admin alone
		this.mvc
			.perform(get("/repo/branches/delete").param("name", name)
				.param("branch", "refs/heads/merged/recent")
				.with(operator()))
			.andExpect(content().string(not(containsString("id=\"delete-branch\""))))
			.andExpect(content().string(containsString("id=\"delete-needs-admin\"")));
		this.mvc.perform(get("/repo/branches/merged").param("name", name).with(viewer()))
			.andExpect(content().string(not(containsString("id=\"plan-merged\""))))
			.andExpect(content().string(containsString("id=\"plan-needs-operator\"")));
	}

	@Test
	void forgedPostsOfRolesThatMayNotAreRefusedAndChangeNothing() throws Exception {
		String before = repo.git("for-each-ref");
		int jobs = jobCount();
		String[][] posts = { { "/repo/branches/delete", "viewer" }, { "/repo/branches/plan", "viewer" },
				{ "/repo/branches/merged", "viewer" }, { "/repo/branches/restore", "viewer" },
				{ "/repo/branches/recreate", "viewer" }, { "/repo/branches/delete", "operator" },
				{ "/repo/branches/restore", "operator" }, { "/repo/branches/recreate", "operator" } };
		for (String[] forged : posts) {
			this.mvc
				.perform(post(forged[0]).param("name", name)
					.param("branch", "refs/heads/merged/recent")
					.param("expected", repo.git("rev-parse", "refs/heads/merged/recent").trim())
					.param("value", repo.git("rev-parse", "refs/heads/main").trim())
					.with(forged[1].equals("viewer") ? viewer() : operator())
					.with(csrf()))
				.andExpect(status().isForbidden());
		}
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		assertThat(jobCount()).isEqualTo(jobs);
	}

	@Test
	void anAdminDeletesOneBranchAfterItsConfirmationAndRestoresIt() throws Exception {
		String own = uniqueName("delete-one");
		TempRepo repo = bareRepo(own);
		try (Repository repository = Repository.open(repo.gitDir(), GitCli.system().environment())) {
			JournalHook.install(repository, JournalHook.DEFAULT_WRITER_ENV);
		}
		String base = repo.commit("base", null);
		String topic = repo.commit("topic", base);
		repo.git("update-ref", "refs/heads/main", base);
		repo.git("update-ref", "refs/heads/topic", topic);
		repo.git("symbolic-ref", "HEAD", "refs/heads/main");

		String confirmation = this.mvc
			.perform(get("/repo/branches/delete").param("name", own).param("branch", "refs/heads/topic").with(admin()))
			.andExpect(status().isOk())
			.andExpect(view().name(BranchesController.VIEWS_DELETE_BRANCH))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(confirmation).contains("name=\"expected\" value=\"" + topic + "\"")
			.contains("id=\"not-merged-warning\"");
		// a value it no longer holds deletes nothing
		this.mvc
			.perform(post("/repo/branches/delete").param("name", own)
				.param("branch", "refs/heads/topic")
				.param("expected", base)
				.with(admin())
				.with(csrf()))
			.andExpect(redirectedUrl("/repo/branches?name=" + own))
			.andExpect(flash().attribute("problem", containsString("Nothing was deleted")));
		assertThat(repo.git("rev-parse", "refs/heads/topic").trim()).isEqualTo(topic);
		// HEAD's branch offers no delete, and a POST for it deletes nothing
		this.mvc
			.perform(get("/repo/branches/delete").param("name", own).param("branch", "refs/heads/main").with(admin()))
			.andExpect(content().string(containsString("id=\"delete-refused\"")))
			.andExpect(content().string(not(containsString("id=\"delete-branch\""))));
		this.mvc
			.perform(post("/repo/branches/delete").param("name", own)
				.param("branch", "refs/heads/main")
				.param("expected", base)
				.with(admin())
				.with(csrf()))
			.andExpect(flash().attribute("problem", containsString("the branch HEAD names")));
		assertThat(repo.git("rev-parse", "refs/heads/main").trim()).isEqualTo(base);

		this.mvc
			.perform(post("/repo/branches/delete").param("name", own)
				.param("branch", "refs/heads/topic")
				.param("expected", topic)
				.with(admin())
				.with(csrf()))
			.andExpect(redirectedUrl("/repo/branches?name=" + own))
			.andExpect(flash().attribute("message", "Deleted refs/heads/topic."))
			.andExpect(flash().attribute("deletedBranch", "refs/heads/topic"))
			.andExpect(flash().attribute("deletedValue", topic));
		assertThat(repo.run(new byte[0], "rev-parse", "--verify", "-q", "refs/heads/topic").exitCode()).isNotZero();
		// the next page offers its restore right there, and the journal lists it
		String after = this.mvc
			.perform(get("/repo/branches").param("name", own)
				.flashAttr("deletedBranch", "refs/heads/topic")
				.flashAttr("deletedValue", topic)
				.with(admin()))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(after).contains("id=\"undo-delete-button\"").contains("name=\"value\" value=\"" + topic + "\"");
		assertThat(after).containsPattern("<tr data-branch=\"refs/heads/topic\">[\\s\\S]*?class=\"secondary restore\"");
		this.mvc
			.perform(post("/repo/branches/recreate").param("name", own)
				.param("branch", "refs/heads/topic")
				.param("value", topic)
				.with(admin())
				.with(csrf()))
			.andExpect(flash().attribute("message", "Restored refs/heads/topic."));
		assertThat(repo.git("rev-parse", "refs/heads/topic").trim()).isEqualTo(topic);

		// deleted by git, it comes back from the journal
		repo.git("update-ref", "-d", "refs/heads/topic");
		this.mvc
			.perform(post("/repo/branches/restore").param("name", own)
				.param("branch", "refs/heads/topic")
				.with(admin())
				.with(csrf()))
			.andExpect(flash().attribute("message", "Restored refs/heads/topic."));
		assertThat(repo.git("rev-parse", "refs/heads/topic").trim()).isEqualTo(topic);
		this.mvc.perform(get("/repo/branches").param("name", own).with(admin()))
			.andExpect(content().string(containsString("id=\"no-recently-deleted\"")));
	}

	@Test
	void anOperatorPlansTheDeletionOfTheSelectedBranchesByName() throws Exception {
		String before = repo.git("for-each-ref");
		MvcResult planned = this.mvc
			.perform(post("/repo/branches/plan").param("name", name)
				.param("branch", "refs/heads/bulk/b07", "refs/heads/merged/old")
				.with(operator())
				.with(csrf()))
			.andExpect(redirectedUrlPattern("/jobs/*"))
			.andReturn();
		DocumentContext plan = awaitJob(planned.getResponse().getRedirectedUrl());
		assertThat(plan.read("$.status", String.class)).isEqualTo("COMPLETED");
		assertThat(plan.read("$.results['plan.count']", String.class)).isEqualTo("2");
		assertThat(plan.read("$.results['plan.sample']", String.class).lines()).containsExactly("refs/heads/bulk/b07",
				"refs/heads/merged/old");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		// nothing selected, or more names than a plan takes, plans nothing
		this.mvc.perform(post("/repo/branches/plan").param("name", name).with(operator()).with(csrf()))
			.andExpect(redirectedUrl("/repo/branches?name=" + name))
			.andExpect(flash().attribute("problem", containsString("Select at least one branch")));
		List<String> many = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			many.add("refs/heads/some/rather/long/branch/name/number-" + i);
		}
		this.mvc
			.perform(post("/repo/branches/plan").param("name", name)
				.param("branch", many.toArray(String[]::new))
				.with(operator())
				.with(csrf()))
			.andExpect(flash().attribute("problem", containsString("Select fewer branches")));
		this.mvc
			.perform(post("/repo/branches/plan").param("name", name)
				.param("branch", "refs/tags/v1")
				.with(operator())
				.with(csrf()))
			.andExpect(status().isBadRequest());
	}

	@Test
	void deleteMergedPlansGitsMergedBranchesLessHeadsWithTheirCountShownFirst() throws Exception {
		List<String> expected = lines(repo.git("branch", "--merged", "main", "--format=%(refname)")).stream()
			.filter((ref) -> !ref.equals("refs/heads/main"))
			.toList();
		assertThat(expected).containsExactly("refs/heads/merged/ancient", "refs/heads/merged/old",
				"refs/heads/merged/recent");
		String offer = this.mvc.perform(branches().with(operator())).andReturn().getResponse().getContentAsString();
		assertThat(text(offer, "delete-merged")).isEqualTo("Delete merged branches (" + expected.size() + ")…");
		String confirmation = this.mvc.perform(get("/repo/branches/merged").param("name", name).with(operator()))
			.andExpect(view().name(BranchesController.VIEWS_DELETE_MERGED))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(text(confirmation, "merged-count")).isEqualTo(Integer.toString(expected.size()));
		assertThat(text(confirmation, "merged-kept")).isEqualTo("1");
		assertThat(text(confirmation, "plan-merged"))
			.isEqualTo("Plan deletion of " + expected.size() + " merged branches");
		String before = repo.git("for-each-ref");
		MvcResult planned = this.mvc
			.perform(post("/repo/branches/merged").param("name", name).with(operator()).with(csrf()))
			.andExpect(redirectedUrlPattern("/jobs/*"))
			.andReturn();
		DocumentContext plan = awaitJob(planned.getResponse().getRedirectedUrl());
		assertThat(plan.read("$.results['plan.count']", String.class)).isEqualTo(Integer.toString(expected.size()));
		assertThat(plan.read("$.results['plan.sample']", String.class).lines()).isSubsetOf(expected);
		assertThat(plan.read("$.results['plan.protected.sample']", String.class)).contains("refs/heads/main");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
	}

	private static MockHttpServletRequestBuilder branches() {
		return get("/repo/branches").param("name", name);
	}

	private static BranchList list(MvcResult result) {
		return (BranchList) result.getModelAndView().getModel().get("list");
	}

	/** Every name a tab lists in an order, page after page. */
	private List<String> everyName(String tab, String sort, RequestPostProcessor user) throws Exception {
		return everyName(tab, sort, "", user);
	}

	/** Every name a tab lists for a search in an order, page after page. */
	private List<String> everyName(String tab, String sort, String q, RequestPostProcessor user) throws Exception {
		List<String> names = new ArrayList<>();
		int page = 1;
		BranchList list;
		do {
			list = list(this.mvc
				.perform(branches().param("tab", tab)
					.param("sort", sort)
					.param("q", q)
					.param("page", Integer.toString(page++))
					.with(user))
				.andExpect(status().isOk())
				.andReturn());
			list.rows().forEach((row) -> names.add(row.name()));
		}
		while (list.page() < list.pages());
		assertThat(names).hasSize((int) list.total());
		return names;
	}

	private int jobCount() throws Exception {
		return JsonPath
			.parse(this.mvc.perform(get("/api/jobs").param("repository", name).param("size", "100").with(as("viewer")))
				.andReturn()
				.getResponse()
				.getContentAsString())
			.read("$.jobs.length()", Integer.class);
	}

	/** Waits (up to 60 s) for the job a redirect names to end; its JSON. */
	private DocumentContext awaitJob(String jobUrl) throws Exception {
		String id = jobUrl.substring(jobUrl.lastIndexOf('/') + 1);
		Awaitility.await("job " + id).atMost(Duration.ofSeconds(60)).until(() -> {
			String status = JsonPath.parse(job(id)).read("$.status", String.class);
			return !status.equals("STARTING") && !status.equals("STARTED");
		});
		return JsonPath.parse(job(id));
	}

	private String job(String id) throws Exception {
		return this.mvc.perform(get("/api/jobs/" + id).with(as("operator")))
			.andReturn()
			.getResponse()
			.getContentAsString();
	}

	/** Each branch's creator date, in git's order. */
	private static Map<String, Long> dates(TempRepo repo) {
		Map<String, Long> dates = new LinkedHashMap<>();
		for (String line : lines(repo.git("for-each-ref", "--format=%(refname) %(creatordate:unix)", "refs/heads/"))) {
			dates.put(line.substring(0, line.indexOf(' ')), Long.parseLong(line.substring(line.indexOf(' ') + 1)));
		}
		return dates;
	}

	private static List<String> rowNames(String html) {
		List<String> names = new ArrayList<>();
		Matcher matcher = ROW.matcher(html);
		while (matcher.find()) {
			names.add(HtmlUtils.htmlUnescape(matcher.group(1)));
		}
		return names;
	}

	private static String tabCount(String html, String tab) {
		Matcher matcher = Pattern.compile("id=\"tab-" + tab + "\"[^>]*>[^<]*<span class=\"count\">([^<]*)</span>")
			.matcher(html);
		assertThat(matcher.find()).as("tab " + tab).isTrue();
		return matcher.group(1);
	}

	private static String href(String html, String id) {
		Matcher matcher = Pattern.compile("id=\"" + id + "\"[^>]*href=\"([^\"]*)\"").matcher(html);
		assertThat(matcher.find()).as("link " + id).isTrue();
		return matcher.group(1);
	}

	/** The text of the element with {@code id}, tags stripped, blanks collapsed. */
	private static String text(String html, String id) {
		Matcher matcher = Pattern.compile("id=\"" + id + "\"[^>]*>([\\s\\S]*?)</(a|span|strong|button|p)>")
			.matcher(html);
		assertThat(matcher.find()).as("element " + id).isTrue();
		return HtmlUtils.htmlUnescape(matcher.group(1).replaceAll("<[^>]*>", "").replaceAll("\\s+", " ").strip());
	}

	private static List<String> lines(String text) {
		return text.lines().filter((line) -> !line.isEmpty()).toList();
	}

}
