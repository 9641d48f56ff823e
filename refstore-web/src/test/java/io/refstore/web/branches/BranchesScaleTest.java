package io.refstore.web.branches;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.setup.SecurityMockMvcConfigurers.springSecurity;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;
import io.refstore.web.refs.BranchList;
import io.refstore.web.refs.BranchService;

/**
 * The Branches view of a repository of 100,000 branches, in both formats, made by git
 * ({@code fast-import} for a main line of 2,000 commits and 5,000 side commits over two
 * years, {@code update-ref --stdin} for the branches: half on the main line, merged, half
 * on a side commit, ten to each): the server's time for the first page (which reads the
 * branches' facts once for the store's fingerprint), the same page again, the last page
 * by name, a search as htmx asks for it and the stale tab oldest first, each measured
 * around the request in the server: its first request, then the median of a few more.
 * Every page holds 50 rows, never more, and its counts are git's. The times are printed
 * for the record, not judged here: speed is judged by benchmarks, not by tests. The build
 * makes 100,000 branches; {@code -Drefstore.branches.scale=500000} makes the same fixture
 * with 500,000 (about a minute per format) to measure the view at that scale.
 */
class BranchesScaleTest extends ConsoleTestSupport {

	/**
	 * How many branches besides {@code main}: 100,000 in the build; a benchmark run asks
	 * for more with {@code -Drefstore.branches.scale=500000} (a multiple of 100).
	 */
	private static final int BRANCHES = Integer.getInteger("refstore.branches.scale", 100_000);

	/**
	 * How many times each page is asked for again after its first request: the median of
	 * these is printed as its warm time.
	 */
	private static final int AGAIN = Integer.getInteger("refstore.branches.again", 3);

	private static final int MAIN = 2_000;

	/** Side commits: the unmerged branches point to them in turn, ten to each. */
	private static final int SIDE = 5_000;

	private static final long DAY = 86_400;

	@Autowired
	private WebApplicationContext context;

	/** A MockMvc of the application that prints nothing; made by the first request. */
	private MockMvc quiet;

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "reftable", "files" })
	void aPageOfOneHundredThousandBranchesHoldsFiftyRowsAndGitsCounts(String format) throws Exception {
		String name = uniqueName("branches-100k-" + format);
		long made = System.nanoTime();
		// written as reftable by git 2.55 (one table), then migrated to files by git
		// (one packed-refs file): 100,000 loose refs would take minutes to write
		TempRepo repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(name), "--bare", "--ref-format=reftable");
		long now = Instant.now().getEpochSecond();
		Map<Integer, String> marks = fastImport(repo, now);
		StringBuilder updates = new StringBuilder(BRANCHES * 80);
		for (int i = 0; i < BRANCHES; i++) {
			// half merged (a main-line commit), half one commit ahead of one
			String value = (i % 2 == 0) ? marks.get(1 + (i / 2) % MAIN) : marks.get(MAIN + 1 + (i / 2) % SIDE);
			updates.append("create refs/heads/team-")
				.append(i % 20)
				.append("/feature/topic-")
				.append(String.format(Locale.ROOT, "%06d", i))
				.append(' ')
				.append(value)
				.append('\n');
		}
		updates.append("delete refs/heads/side\n");
		repo.run(updates.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		if (format.equals("files")) {
			repo.git("refs", "migrate", "--ref-format=files");
			assertThat(repo.git("rev-parse", "--show-ref-format").trim()).isEqualTo("files");
		}
		repo.git("symbolic-ref", "HEAD", "refs/heads/main");
		double fixture = (System.nanoTime() - made) / 1e9;
		long cutoff = Instant.now().getEpochSecond() - 90 * DAY;
		long stale = repo.git("for-each-ref", "--format=%(creatordate:unix)", "refs/heads/")
			.lines()
			.filter((line) -> Long.parseLong(line) < cutoff)
			.count();

		Timed cold = timed(get("/repo/branches").param("name", name));
		Timed last = timed(get("/repo/branches").param("name", name).param("sort", "name").param("page", "999999"));
		Timed search = timed(get("/repo/branches").param("name", name)
			.param("q", "TOPIC-09999")
			.header("HX-Request", "true")
			.header("HX-Target", "branch-list"));
		Timed oldest = timed(get("/repo/branches").param("name", name).param("tab", "stale").param("sort", "oldest"));
		Timed broad = timed(get("/repo/branches").param("name", name).param("q", "Feature").param("sort", "name"));
		System.out.printf(Locale.ROOT,
				"Branches view, %,d branches (%s; fixture %.1f s), first request then median of %d more"
						+ " (and of their CPU time): first page %s (the first reads the facts), last page by name %s,"
						+ " search %s, stale oldest first %s, a search that matches every branch but main %s%n",
				BRANCHES + 1, format, fixture, AGAIN, cold, last, search, oldest, broad);

		int pages = (BRANCHES + 1 + BranchService.PAGE_SIZE - 1) / BranchService.PAGE_SIZE;
		assertThat(cold.list.all()).isEqualTo(BRANCHES + 1);
		assertThat(cold.list.stale()).isEqualTo(stale);
		assertThat(cold.list.rows()).hasSize(BranchService.PAGE_SIZE);
		assertThat(cold.repeated).allSatisfy((list) -> assertThat(list).isEqualTo(cold.list));
		assertThat(last.list.page()).isEqualTo(last.list.pages()).isEqualTo(pages);
		// the greatest name: team-9 sorts after team-19, and its last topic is 11 before
		// the count
		assertThat(last.list.rows()).extracting((row) -> row.name())
			.containsExactly(String.format(Locale.ROOT, "refs/heads/team-9/feature/topic-%06d", BRANCHES - 11));
		List<String> found = new ArrayList<>();
		for (int i = 99_990; i < 100_000; i++) {
			found.add("refs/heads/team-" + (i % 20) + "/feature/topic-0" + i);
		}
		assertThat(search.list.rows()).extracting((row) -> row.name()).containsExactlyInAnyOrderElementsOf(found);
		assertThat(search.list.total()).isEqualTo(found.size());
		// a search matching nearly all stops counting after 1,000: its first page is
		// git's first 50 by name of those it matches
		List<String> firstByName = repo
			.git("for-each-ref", "--sort=refname", "--count=51", "--format=%(refname)", "refs/heads/")
			.lines()
			.filter((ref) -> !ref.equals("refs/heads/main"))
			.toList();
		assertThat(broad.list.capped()).isTrue();
		assertThat(broad.list.total()).isEqualTo(BranchService.SEARCH_COUNT + 1);
		assertThat(broad.list.pages()).isEqualTo(2);
		assertThat(broad.list.rows()).extracting((row) -> row.name()).containsExactlyElementsOf(firstByName);
		assertThat(broad.html).contains("1–50 of more than 1,000")
			.contains("id=\"next-page\"")
			.doesNotContain("id=\"last-page\"")
			.containsPattern("id=\"tab-all\"[^>]*>All <span class=\"count\"[^>]*>1,001\\+</span>");
		assertThat(search.list.capped()).isFalse();
		assertThat(oldest.list.rows()).hasSize(BranchService.PAGE_SIZE)
			.allSatisfy((row) -> assertThat(row.stale()).isTrue());
		assertThat(oldest.list.rows()).extracting((row) -> row.name())
			.containsExactlyElementsOf(
					repo.git("for-each-ref", "--sort=creatordate", "--count=50", "--format=%(refname)", "refs/heads/")
						.lines()
						.toList());
	}

	/**
	 * Commits by {@code git fast-import}: the main line ({@code :1} to {@code :2000},
	 * from two years ago to now) and {@value #SIDE} side commits on top of it, each an
	 * hour after its parent; their ids by mark.
	 */
	private static Map<Integer, String> fastImport(TempRepo repo, long now) {
		StringBuilder stream = new StringBuilder((MAIN + SIDE) * 120);
		long start = now - 730 * DAY;
		long step = (730 * DAY) / MAIN;
		for (int m = 1; m <= MAIN; m++) {
			stream.append("commit refs/heads/main\nmark :")
				.append(m)
				.append("\ncommitter C O Mitter <committer@example.com> ")
				.append(start + m * step)
				.append(" +0000\ndata <<EOF\nMain ")
				.append(m)
				.append("\nEOF\n");
			if (m > 1) {
				stream.append("from :").append(m - 1).append('\n');
			}
			stream.append('\n');
		}
		for (int s = 0; s < SIDE; s++) {
			int parent = 1 + s % MAIN;
			stream.append("commit refs/heads/side\nmark :")
				.append(MAIN + 1 + s)
				.append("\ncommitter C O Mitter <committer@example.com> ")
				.append(start + parent * step + 3_600)
				.append(" +0000\ndata <<EOF\nSide ")
				.append(s)
				.append("\nEOF\nfrom :")
				.append(parent)
				.append("\n\n");
		}
		repo.run(stream.toString().getBytes(StandardCharsets.UTF_8), "fast-import", "--quiet", "--force",
				"--export-marks=" + repo.gitDir().resolve("marks"))
			.requireOk();
		Map<Integer, String> marks = new HashMap<>();
		try {
			for (String line : Files.readAllLines(repo.gitDir().resolve("marks"))) {
				marks.put(Integer.parseInt(line.substring(1, line.indexOf(' '))),
						line.substring(line.indexOf(' ') + 1));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return marks;
	}

	/**
	 * The request's first time and list, then {@value #AGAIN} more times and their lists.
	 */
	private Timed timed(MockHttpServletRequestBuilder request) throws Exception {
		if (this.quiet == null) {
			// the application's MockMvc prints each exchange for a failure's report,
			// which took half of a request's time here: the server's time is measured
			// without it, through the same security filter chain
			this.quiet = MockMvcBuilders.webAppContextSetup(this.context).apply(springSecurity()).build();
		}
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		long[] millis = new long[1 + AGAIN];
		long[] cpu = new long[AGAIN];
		List<BranchList> lists = new ArrayList<>();
		String html = null;
		for (int k = 0; k < millis.length; k++) {
			long started = System.nanoTime();
			long startedCpu = threads.getCurrentThreadCpuTime();
			// MockMvc serves the request on this thread
			MvcResult result = this.quiet.perform(request.with(admin())).andExpect(status().isOk()).andReturn();
			millis[k] = (System.nanoTime() - started) / 1_000_000;
			if (k > 0) {
				cpu[k - 1] = (threads.getCurrentThreadCpuTime() - startedCpu) / 1_000_000;
			}
			lists.add((BranchList) result.getModelAndView().getModel().get("list"));
			if (k == 0) {
				html = result.getResponse().getContentAsString();
			}
		}
		long[] again = Arrays.copyOfRange(millis, 1, millis.length);
		Arrays.sort(again);
		Arrays.sort(cpu);
		return new Timed(millis[0], (AGAIN == 0) ? -1 : again[AGAIN / 2], (AGAIN == 0) ? -1 : cpu[AGAIN / 2],
				lists.get(0), lists.subList(1, lists.size()), html);
	}

	/**
	 * A page's first time, the median of its repeats and of their CPU time, its first
	 * list and page, and the lists repeated.
	 */
	private record Timed(long millis, long again, long cpu, BranchList list, List<BranchList> repeated, String html) {

		@Override
		public String toString() {
			return String.format(Locale.ROOT, "%d then %d ms (CPU %d ms)", this.millis, this.again, this.cpu);
		}

	}

}
