package io.refstore.web.refs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.RequestPostProcessor;
import org.springframework.web.util.HtmlUtils;
import org.springframework.web.util.UriComponentsBuilder;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;

/**
 * The ref browser's commit columns, facts filters and date order, the Clean up link and
 * the stale and merged branches, over a repository git made with dates relative to now
 * (commits on main from 500 days ago to 10, branches merged at each of them, 60 side
 * branches a week apart, an annotated tag younger than its commit, a lightweight tag, a
 * symbolic ref, authors and committers that differ, a subject wrapped over two lines).
 * Every expectation is git's own answer: {@code for-each-ref} with
 * {@code %(creatordate:unix)}, {@code %(subject)}, {@code --merged}, {@code --no-merged},
 * {@code --sort=-creatordate}, and {@code rev-list --left-right --count}.
 */
class RefHygieneTest extends ConsoleTestSupport {

	private static final long DAY = 86_400;

	private static final Pattern HREF = Pattern.compile("id=\"%s\"[^>]*href=\"([^\"]*)\"");

	static String name;

	static TempRepo repo;

	static long now;

	@BeforeAll
	static void repository() {
		name = uniqueName("hygiene");
		repo = bareRepo(name);
		now = Instant.now().getEpochSecond();
		String tree = repo.git("hash-object", "-t", "tree", "-w", "--stdin").trim();
		StringBuilder updates = new StringBuilder();
		int[] mainAges = { 500, 400, 200, 100, 45, 10 };
		List<String> main = new ArrayList<>();
		String parent = null;
		for (int i = 0; i < mainAges.length; i++) {
			String message = (i == 2) ? "Wrap the\nsubject over two lines\n\nand a body\n" : "Main " + i + "\n";
			parent = commit(tree, parent, mainAges[i], "Main Author " + i, message);
			main.add(parent);
			for (char c = 'a'; c <= 'c'; c++) {
				updates.append("create refs/heads/merged/m")
					.append(i)
					.append('-')
					.append(c)
					.append(' ')
					.append(parent)
					.append('\n');
			}
		}
		updates.append("create refs/heads/main ").append(parent).append('\n');
		for (int k = 0; k < 60; k++) {
			String side = commit(tree, main.get(k % main.size()), k * 7, "Side Author " + k, "Side " + k + "\n");
			updates.append(String.format("create refs/heads/side/s%02d %s%n", k, side));
			if (k == 5) {
				updates.append("create refs/tags/light ").append(side).append('\n');
			}
		}
		String tag = "object " + main.get(2) + "\ntype commit\ntag v2\ntagger Tag Ger <tagger@example.com> "
				+ (now - 5 * DAY - DAY / 2) + " +0000\n\nRelease two\n";
		String tagId = repo.run(tag.getBytes(StandardCharsets.UTF_8), "hash-object", "-t", "tag", "-w", "--stdin")
			.requireOk()
			.stdout()
			.trim();
		updates.append("create refs/tags/v2 ").append(tagId).append('\n');
		repo.run(updates.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		repo.git("symbolic-ref", "HEAD", "refs/heads/main");
		repo.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/heads/side/s03");
		repo.git("pack-refs", "--all");
	}

	/**
	 * A commit of the empty tree dated {@code daysAgo} and a half days ago (its author a
	 * day earlier), so that no date falls on a filter's boundary.
	 */
	private static String commit(String tree, String parent, int daysAgo, String author, String message) {
		long committed = now - daysAgo * DAY - DAY / 2;
		String text = "tree " + tree + "\n" + ((parent != null) ? "parent " + parent + "\n" : "") + "author " + author
				+ " <author@example.com> " + (committed - DAY) + " +0100\ncommitter C O Mitter <committer@example.com> "
				+ committed + " +0000\n\n" + message;
		return repo.run(text.getBytes(StandardCharsets.UTF_8), "hash-object", "-t", "commit", "-w", "--stdin")
			.requireOk()
			.stdout()
			.trim();
	}

	@Test
	void showsGitsDateAuthorAndSubjectPerRef() throws Exception {
		Map<String, String> expected = new LinkedHashMap<>();
		for (String line : lines(repo.git("for-each-ref",
				"--format=%(refname)|%(creatordate:unix)|%(authorname)%(taggername)|%(subject)", "refs/"))) {
			String[] fields = line.split("\\|", 2);
			expected.put(fields[0], fields[1]);
		}
		MvcResult result = this.mvc.perform(get("/repo").param("name", name).param("limit", "500").with(viewer()))
			.andExpect(status().isOk())
			.andReturn();
		Map<String, String> shown = rows(result);
		assertThat(shown).isEqualTo(expected);
		String html = result.getResponse().getContentAsString();
		String wrapped = "Wrap the subject over two lines";
		assertThat(html).contains("title=\"" + wrapped + "\"");
		assertThat(html).contains("datetime=\"" + Instant.ofEpochSecond(now - 5 * DAY - DAY / 2) + "\"");
		assertThat(html).contains("data-relative");
		// the root refs have their columns too
		RefCommit head = ((List<RefCommit>) result.getModelAndView().getModel().get("rootCommits")).get(0);
		assertThat(head.subject()).isEqualTo("Main 5");
	}

	@Test
	void mergedAndNotMergedAreGitsLists() throws Exception {
		assertThat(listed(filtered().param("merged", "yes"), viewer()))
			.isEqualTo(lines(repo.git("for-each-ref", "--merged", "refs/heads/main", "--format=%(refname)", "refs/")));
		assertThat(listed(filtered().param("merged", "no"), viewer())).isEqualTo(
				lines(repo.git("for-each-ref", "--no-merged", "refs/heads/main", "--format=%(refname)", "refs/")));
		assertThat(listed(filtered().param("merged", "yes").param("into", "merged/m2-a").param("prefix", "refs/heads/"),
				viewer()))
			.isEqualTo(lines(repo.git("for-each-ref", "--merged", "refs/heads/merged/m2-a", "--format=%(refname)",
					"refs/heads/")));
		this.mvc
			.perform(get("/repo/count").param("name", name)
				.param("merged", "yes")
				.param("prefix", "refs/heads/")
				.with(viewer()))
			.andExpect(model().attribute("count", (long) lines(
					repo.git("for-each-ref", "--merged", "refs/heads/main", "--format=%(refname)", "refs/heads/"))
				.size()));
	}

	@Test
	void olderAndNewerThanAreGitsCreatorDates() throws Exception {
		Map<String, Long> dates = new LinkedHashMap<>();
		for (String line : lines(repo.git("for-each-ref", "--format=%(refname) %(creatordate:unix)", "refs/"))) {
			dates.put(line.substring(0, line.indexOf(' ')), Long.parseLong(line.substring(line.indexOf(' ') + 1)));
		}
		long cutoff90 = Instant.now().getEpochSecond() - 90 * DAY;
		long cutoff180 = Instant.now().getEpochSecond() - 180 * DAY;
		assertThat(listed(filtered().param("older", "90"), viewer()))
			.isEqualTo(dates.keySet().stream().filter((ref) -> dates.get(ref) < cutoff90).toList())
			.isNotEmpty();
		assertThat(listed(filtered().param("older", "90").param("newer", "180"), viewer()))
			.isEqualTo(dates.keySet()
				.stream()
				.filter((ref) -> dates.get(ref) < cutoff90 && dates.get(ref) >= cutoff180)
				.toList())
			.isNotEmpty();
		Set<String> merged = new HashSet<>(
				lines(repo.git("for-each-ref", "--merged", "refs/heads/main", "--format=%(refname)", "refs/")));
		assertThat(listed(filtered().param("older", "90").param("merged", "yes"), viewer())).isEqualTo(
				dates.keySet().stream().filter((ref) -> dates.get(ref) < cutoff90 && merged.contains(ref)).toList());
	}

	@Test
	void sortsByDateAsGitDoesPageAfterPage() throws Exception {
		assertThat(listed(filtered().param("sort", "newest"), viewer()))
			.isEqualTo(lines(repo.git("for-each-ref", "--sort=-creatordate", "--format=%(refname)", "refs/")));
		assertThat(listed(filtered().param("sort", "oldest").param("prefix", "refs/heads/"), viewer()))
			.isEqualTo(lines(repo.git("for-each-ref", "--sort=creatordate", "--format=%(refname)", "refs/heads/")));
		// Previous comes back to the page before
		MvcResult first = this.mvc.perform(filtered().param("sort", "newest").with(viewer())).andReturn();
		MvcResult second = this.mvc.perform(get(link(first, "next-page")).with(viewer())).andReturn();
		assertThat(second.getResponse().getContentAsString()).contains("id=\"first-page\"");
		MvcResult back = this.mvc.perform(get(link(second, "previous-page")).with(viewer())).andReturn();
		assertThat(page(back).refs()).isEqualTo(page(first).refs());
		assertThat(back.getResponse().getContentAsString()).doesNotContain("id=\"previous-page\"");
	}

	@Test
	void cleanUpCarriesTheFilterToTheDeletionPlan() throws Exception {
		assertThat(cleanup(filtered().param("prefix", "refs/heads/").param("merged", "yes").param("older", "30")))
			.isEqualTo(Map.of("repo", name, "prefixes", "refs/heads/", "namespaces", "refs/heads/", "mergedInto",
					"refs/heads/main", "olderThan", "30d"));
		assertThat(cleanup(filtered().param("glob", "refs/heads/side/s1*").param("older", "90"))).isEqualTo(
				Map.of("repo", name, "globs", "refs/heads/side/s1*", "namespaces", "refs/heads/", "olderThan", "90d"));
		assertThat(cleanup(filtered().param("prefix", "refs/heads/side/").param("glob", "refs/heads/*/s1*")))
			.isEqualTo(Map.of("repo", name, "globs", "refs/heads/*/s1*", "namespaces", "refs/heads/side/"));
		assertThat(cleanup(filtered().param("prefix", "refs/tags/").param("merged", "yes").param("into", "side/s07")))
			.isEqualTo(Map.of("repo", name, "prefixes", "refs/tags/", "namespaces", "refs/tags/", "mergedInto",
					"refs/heads/side/s07"));
		this.mvc.perform(filtered().param("merged", "no").with(operator()))
			.andExpect(content().string(not(containsString("id=\"cleanup-link\""))))
			.andExpect(content().string(containsString("id=\"cleanup-reason\"")));
		this.mvc.perform(filtered().param("merged", "yes").with(viewer()))
			.andExpect(content().string(not(containsString("id=\"cleanup"))));
	}

	/**
	 * A list nothing narrows offers no Clean up: its plan would take every branch and
	 * tag.
	 */
	@Test
	void anUnfilteredListOffersNoCleanUp() throws Exception {
		for (String prefix : new String[] { "", "refs/", "ref" }) {
			this.mvc.perform(filtered().param("prefix", prefix).with(operator()))
				.andExpect(status().isOk())
				.andExpect(content().string(not(containsString("id=\"cleanup-link\""))))
				.andExpect(content().string(containsString("Narrow the list first")));
		}
		this.mvc.perform(filtered().param("sort", "newest").with(operator()))
			.andExpect(content().string(not(containsString("id=\"cleanup-link\""))));
		assertThat(cleanup(filtered().param("prefix", "refs/heads/")))
			.isEqualTo(Map.of("repo", name, "prefixes", "refs/heads/", "namespaces", "refs/heads/"));
	}

	@Test
	void branchAgesAreGitsCounts() throws Exception {
		Map<String, Long> dates = new LinkedHashMap<>();
		for (String line : lines(repo.git("for-each-ref", "--format=%(refname) %(creatordate:unix)", "refs/heads/"))) {
			dates.put(line.substring(0, line.indexOf(' ')), Long.parseLong(line.substring(line.indexOf(' ') + 1)));
		}
		Set<String> merged = new HashSet<>(
				lines(repo.git("for-each-ref", "--merged", "refs/heads/main", "--format=%(refname)", "refs/heads/")));
		MvcResult result = this.mvc.perform(get("/repo/hygiene").param("name", name).with(operator()))
			.andExpect(status().isOk())
			.andReturn();
		BranchAges ages = (BranchAges) result.getModelAndView().getModel().get("ages");
		assertThat(ages.base()).isEqualTo("refs/heads/main");
		assertThat(ages.total()).isEqualTo(dates.size());
		long nowSeconds = Instant.now().getEpochSecond();
		for (BranchAges.Bucket bucket : ages.buckets()) {
			List<String> inBucket = dates.keySet()
				.stream()
				.filter((ref) -> dates.get(ref) < nowSeconds - bucket.olderThanDays() * DAY
						&& (bucket.newerThanDays() == 0 || dates.get(ref) >= nowSeconds - bucket.newerThanDays() * DAY))
				.toList();
			assertThat(bucket.merged()).as(bucket.label())
				.isEqualTo(inBucket.stream().filter(merged::contains).count());
			assertThat(bucket.notMerged()).as(bucket.label())
				.isEqualTo(inBucket.stream().filter((ref) -> !merged.contains(ref)).count());
		}
		assertThat(ages.buckets()).extracting(BranchAges.Bucket::label)
			.containsExactly("< 30 days", "30–90 days", "90–180 days", "180–365 days", "> 1 year");
		// each count links to the browser listing exactly those branches
		List<RepoController.HygieneRow> rows = (List<RepoController.HygieneRow>) result.getModelAndView()
			.getModel()
			.get("rows");
		RepoController.HygieneRow old = rows.get(3);
		assertThat(listed(get(old.mergedLink()), viewer())).hasSize((int) old.bucket().merged());
		assertThat(listed(get(old.notMergedLink()), viewer())).hasSize((int) old.bucket().notMerged());
	}

	/**
	 * A row of the stale and merged branches offers a plan only of exactly its branches:
	 * a plan has no upper bound on age, so only the oldest row has one, its merged
	 * branches and all of them, each the browser's list of that row.
	 */
	@Test
	void eachRowPlansExactlyItsOwnBranches() throws Exception {
		MvcResult result = this.mvc.perform(get("/repo/hygiene").param("name", name).with(operator()))
			.andExpect(status().isOk())
			.andReturn();
		List<RepoController.HygieneRow> rows = (List<RepoController.HygieneRow>) result.getModelAndView()
			.getModel()
			.get("rows");
		for (RepoController.HygieneRow row : rows.subList(0, rows.size() - 1)) {
			assertThat(row.cleanupMerged().href()).as(row.bucket().label()).isNull();
			assertThat(row.cleanupAll().href()).as(row.bucket().label()).isNull();
		}
		RepoController.HygieneRow oldest = rows.get(rows.size() - 1);
		assertThat(oldest.bucket().newerThanDays()).isZero();
		Map<String, String> merged = query(oldest.cleanupMerged().href());
		assertThat(merged).isEqualTo(Map.of("repo", name, "prefixes", "refs/heads/", "namespaces", "refs/heads/",
				"mergedInto", "refs/heads/main", "olderThan", "365d"));
		Map<String, String> all = query(oldest.cleanupAll().href());
		assertThat(all).isEqualTo(
				Map.of("repo", name, "prefixes", "refs/heads/", "namespaces", "refs/heads/", "olderThan", "365d"));
		// the plans' criteria, as the browser applies them, list exactly the row's
		// branches
		assertThat(listed(filtered().param("prefix", "refs/heads/").param("merged", "yes").param("older", "365"),
				viewer()))
			.hasSize((int) oldest.bucket().merged())
			.isNotEmpty();
		assertThat(listed(filtered().param("prefix", "refs/heads/").param("older", "365"), viewer()))
			.hasSize((int) (oldest.bucket().merged() + oldest.bucket().notMerged()));
		String html = result.getResponse().getContentAsString();
		assertThat(html).contains("Clean up " + oldest.bucket().merged() + " merged…")
			.contains("Clean up all " + (oldest.bucket().merged() + oldest.bucket().notMerged()) + "…")
			.doesNotContain("older than 30 days")
			.contains("id=\"cleanup-bound\"");
		assertThat(html.split("class=\"cleanup ", -1)).hasSize(3);
		this.mvc.perform(get("/repo/hygiene").param("name", name).with(viewer()))
			.andExpect(content().string(not(containsString("class=\"cleanup"))))
			.andExpect(content().string(containsString("id=\"branch-ages\"")));
		this.mvc.perform(get("/repo").param("name", name).with(viewer()))
			.andExpect(content().string(containsString("hx-get=\"/repo/hygiene?name=" + name + "\"")));
	}

	/**
	 * The table judges merged against the branch HEAD names, even when the browser last
	 * judged the same branches against another (its facts are kept per branch judged).
	 */
	@Test
	void theTableJudgesMergedAgainstHeadsBranchWhateverTheBrowserJudgedLast() throws Exception {
		this.mvc
			.perform(filtered().param("prefix", "refs/heads/")
				.param("merged", "yes")
				.param("into", "merged/m2-a")
				.with(viewer()))
			.andExpect(status().isOk());
		BranchAges ages = (BranchAges) this.mvc.perform(get("/repo/hygiene").param("name", name).with(viewer()))
			.andExpect(status().isOk())
			.andReturn()
			.getModelAndView()
			.getModel()
			.get("ages");
		assertThat(ages.base()).isEqualTo("refs/heads/main");
		assertThat(ages.buckets().stream().mapToLong(BranchAges.Bucket::merged).sum()).isEqualTo(
				lines(repo.git("for-each-ref", "--merged", "refs/heads/main", "--format=%(refname)", "refs/heads/"))
					.size());
	}

	@Test
	void aRefsPageShowsItsCommitAndDivergenceFromHeadsBranch() throws Exception {
		String ref = "refs/heads/side/s08";
		MvcResult result = this.mvc.perform(get("/repo/ref").param("name", name).param("ref", ref).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"ahead-behind\"")))
			.andReturn();
		RefTipDetails tip = (RefTipDetails) result.getModelAndView().getModel().get("tip");
		String[] counts = repo.git("rev-list", "--left-right", "--count", ref + "...refs/heads/main")
			.trim()
			.split("\\s+");
		assertThat(tip.ahead()).isEqualTo(Integer.parseInt(counts[0]));
		assertThat(tip.behind()).isEqualTo(Integer.parseInt(counts[1]));
		assertThat(tip.merged()).isFalse();
		assertThat(tip.base()).isEqualTo("refs/heads/main");
		String[] git = repo.git("for-each-ref", "--format=%(authorname)|%(subject)|%(creatordate:unix)", ref)
			.trim()
			.split("\\|");
		assertThat(tip.commit().author()).isEqualTo(git[0]);
		assertThat(tip.commit().subject()).isEqualTo(git[1]);
		assertThat(tip.commit().date().getEpochSecond()).isEqualTo(Long.parseLong(git[2]));
		RefTipDetails mergedTip = (RefTipDetails) this.mvc
			.perform(get("/repo/ref").param("name", name).param("ref", "refs/heads/merged/m1-a").with(viewer()))
			.andReturn()
			.getModelAndView()
			.getModel()
			.get("tip");
		assertThat(mergedTip.merged()).isTrue();
		assertThat(mergedTip.ahead()).isZero();
		assertThat(mergedTip.behind()).isEqualTo(4);
	}

	@Test
	void theApiAddsGitsFactsWhenAsked() throws Exception {
		String[] git = repo
			.git("for-each-ref", "--format=%(creatordate:unix)|%(authorname)|%(authoremail:trim)|%(subject)",
					"refs/heads/side/s08")
			.trim()
			.split("\\|");
		this.mvc
			.perform(get(repoUri(name, "/refs")).param("prefix", "refs/heads/side/s0")
				.param("facts", "true")
				.with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.refs[8].ref").value("refs/heads/side/s08"))
			.andExpect(jsonPath("$.refs[8].date").value(Instant.ofEpochSecond(Long.parseLong(git[0])).toString()))
			.andExpect(jsonPath("$.refs[8].author").value(git[1]))
			.andExpect(jsonPath("$.refs[8].email").value(git[2]))
			.andExpect(jsonPath("$.refs[8].subject").value(git[3]))
			.andExpect(jsonPath("$.refs[8].merged").value(false));
		this.mvc
			.perform(get(repoUri(name, "/refs")).param("prefix", "refs/heads/merged/m1-a")
				.param("facts", "true")
				.with(as("viewer")))
			.andExpect(jsonPath("$.refs[0].merged").value(true))
			.andExpect(jsonPath("$.refs[0].subject").value("Main 1"));
		this.mvc.perform(get(repoUri(name, "/refs")).param("prefix", "refs/heads/merged/m1-a").with(as("viewer")))
			.andExpect(jsonPath("$.refs[0].ref").value("refs/heads/merged/m1-a"))
			.andExpect(jsonPath("$.refs[0].subject").doesNotExist());
	}

	private static MockHttpServletRequestBuilder filtered() {
		return get("/repo").param("name", name).param("limit", "50");
	}

	/** Every ref the browser lists for the request, following Next to the end. */
	private List<String> listed(MockHttpServletRequestBuilder request, RequestPostProcessor user) throws Exception {
		List<String> names = new ArrayList<>();
		MvcResult result = this.mvc.perform(request.with(user)).andExpect(status().isOk()).andReturn();
		for (int pages = 0; pages < 20; pages++) {
			page(result).refs().stream().map(RefView::ref).forEach(names::add);
			String next = link(result, "next-page");
			if (next == null) {
				return names;
			}
			result = this.mvc.perform(get(next).with(user)).andExpect(status().isOk()).andReturn();
		}
		throw new AssertionError("more than 20 pages");
	}

	/** The Clean up link's query, as an operator sees it. */
	private Map<String, String> cleanup(MockHttpServletRequestBuilder request) throws Exception {
		MvcResult result = this.mvc.perform(request.with(operator())).andExpect(status().isOk()).andReturn();
		String href = link(result, "cleanup-link");
		assertThat(href).startsWith("/jobs/new/deletion?");
		return query(href);
	}

	private static Map<String, String> query(String href) {
		Map<String, String> query = new LinkedHashMap<>();
		UriComponentsBuilder.fromUriString(href)
			.build(true)
			.getQueryParams()
			.forEach((key, values) -> query.put(key,
					org.springframework.web.util.UriUtils.decode(values.get(0), StandardCharsets.UTF_8)));
		return query;
	}

	/** The decoded href of the element with this id, or {@code null}. */
	private static String link(MvcResult result, String id) throws Exception {
		Matcher matcher = Pattern.compile(String.format(HREF.pattern(), id))
			.matcher(result.getResponse().getContentAsString());
		return matcher.find() ? HtmlUtils.htmlUnescape(matcher.group(1)) : null;
	}

	private static RefPage page(MvcResult result) {
		return (RefPage) result.getModelAndView().getModel().get("page");
	}

	/**
	 * Each listed ref as {@code date|author|subject}, as git's format above writes it.
	 */
	@SuppressWarnings("unchecked")
	private static Map<String, String> rows(MvcResult result) {
		RefPage page = page(result);
		List<RefCommit> commits = (List<RefCommit>) result.getModelAndView().getModel().get("commits");
		Map<String, String> rows = new LinkedHashMap<>();
		for (int i = 0; i < page.refs().size(); i++) {
			RefCommit commit = commits.get(i);
			rows.put(page.refs().get(i).ref(),
					((commit.date() != null) ? commit.date().getEpochSecond() : "") + "|"
							+ ((commit.author() != null) ? commit.author() : "") + "|"
							+ ((commit.subject() != null) ? commit.subject() : ""));
		}
		return rows;
	}

	private static List<String> lines(String text) {
		return text.isBlank() ? List.of() : List.of(text.strip().split("\n"));
	}

}
