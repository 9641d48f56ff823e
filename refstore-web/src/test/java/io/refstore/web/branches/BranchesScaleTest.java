package io.refstore.web.branches;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

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
 * around the request in the server. Every page holds 50 rows, never more, and its counts
 * are git's. The times are printed for the record, not judged here: speed is judged by
 * benchmarks, not by tests.
 */
class BranchesScaleTest extends ConsoleTestSupport {

	private static final int BRANCHES = 100_000;

	private static final int MAIN = 2_000;

	/** Side commits: the unmerged branches point to them in turn, ten to each. */
	private static final int SIDE = 5_000;

	private static final long DAY = 86_400;

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
		Timed warm = timed(get("/repo/branches").param("name", name));
		Timed last = timed(get("/repo/branches").param("name", name).param("sort", "name").param("page", "2001"));
		Timed search = timed(get("/repo/branches").param("name", name)
			.param("q", "TOPIC-09999")
			.header("HX-Request", "true")
			.header("HX-Target", "branch-list"));
		Timed oldest = timed(get("/repo/branches").param("name", name).param("tab", "stale").param("sort", "oldest"));
		System.out.printf(Locale.ROOT,
				"Branches view, %,d branches (%s; fixture %.1f s): first page %d ms (reads the facts), again %d ms,"
						+ " last page by name %d ms, search %d ms, stale oldest first %d ms%n",
				BRANCHES + 1, format, fixture, cold.millis, warm.millis, last.millis, search.millis, oldest.millis);

		assertThat(cold.list.all()).isEqualTo(BRANCHES + 1);
		assertThat(cold.list.stale()).isEqualTo(stale);
		assertThat(cold.list.rows()).hasSize(BranchService.PAGE_SIZE);
		assertThat(warm.list.rows()).hasSize(BranchService.PAGE_SIZE);
		assertThat(last.list.page()).isEqualTo(last.list.pages()).isEqualTo(2001);
		assertThat(last.list.rows()).extracting((row) -> row.name())
			.containsExactly("refs/heads/team-9/feature/topic-099989");
		List<String> found = new ArrayList<>();
		for (int i = 99_990; i < 100_000; i++) {
			found.add("refs/heads/team-" + (i % 20) + "/feature/topic-0" + i);
		}
		assertThat(search.list.rows()).extracting((row) -> row.name()).containsExactlyInAnyOrderElementsOf(found);
		assertThat(oldest.list.rows()).hasSize(BranchService.PAGE_SIZE)
			.allSatisfy((row) -> assertThat(row.stale()).isTrue());
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

	private Timed timed(MockHttpServletRequestBuilder request) throws Exception {
		long started = System.nanoTime();
		MvcResult result = this.mvc.perform(request.with(admin())).andExpect(status().isOk()).andReturn();
		long millis = (System.nanoTime() - started) / 1_000_000;
		return new Timed(millis, (BranchList) result.getModelAndView().getModel().get("list"));
	}

	private record Timed(long millis, BranchList list) {
	}

}
