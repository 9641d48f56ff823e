package io.refstore.core.graph;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link CommitHistory#facts} against git 2.55 on generated histories: for every ref its
 * {@code %(creatordate:unix)}, whether {@code for-each-ref --merged main} lists it, and
 * its {@code %(ahead-behind:main)}, in both ref formats and both object formats, with and
 * without a commit-graph. The histories merge side branches into main (so tips fork from
 * commits off main's first-parent chain), have octopus merges, an unrelated root, tags of
 * commits, of tags, of a tree and of a blob, and a symbolic ref.
 */
class TipFactsIT {

	@TempDir
	Path temp;

	@ParameterizedTest(name = "{0} {1} seed {2} graph {3}")
	@CsvSource({ "files, sha1, 1, false", "files, sha1, 2, true", "reftable, sha1, 3, true",
			"reftable, sha256, 4, false", "files, sha256, 5, true", "reftable, sha1, 6, false" })
	void factsAreGitsAnswers(String refFormat, String objectFormat, long seed, boolean graph) throws Exception {
		TempRepo repo = TempRepo.init(GitCli.reftable(), this.temp.resolve("repo"), "--ref-format=" + refFormat,
				"--object-format=" + objectFormat);
		generate(repo, new Random(seed), 400);
		if (graph) {
			repo.git("commit-graph", "write", "--reachable");
		}
		else {
			repo.git("repack", "-adq");
		}
		Map<String, String> expected = new LinkedHashMap<>();
		String merged = repo.git("for-each-ref", "--merged", "main", "--format=%(refname)");
		for (String line : repo
			.git("for-each-ref",
					"--format=%(refname)|%(creatordate:unix)|%(ahead-behind:main)|%(*objecttype)%(objecttype)")
			.split("\n")) {
			String[] fields = line.split("\\|", -1);
			boolean isMerged = List.of(merged.split("\n")).contains(fields[0]);
			expected.put(fields[0], fields[1] + "|" + isMerged + "|" + fields[2]);
		}
		Map<String, String> actual = new LinkedHashMap<>();
		try (Repository repository = Repository.open(repo.dir()); RefStore store = RefStores.open(repository)) {
			HashAlgorithm hash = store.hashAlgorithm();
			List<String> names = new ArrayList<>();
			byte[] ids = new byte[0];
			try (RefCursor cursor = store.refs(RefQuery.ALL)) {
				List<ObjectId> values = new ArrayList<>();
				while (cursor.next()) {
					Ref ref = cursor.ref();
					DirectRef direct = (ref instanceof DirectRef d) ? d : store.resolve(ref.name()).orElseThrow();
					names.add(ref.name());
					values.add(direct.id());
				}
				ids = new byte[values.size() * hash.rawLength()];
				for (int i = 0; i < values.size(); i++) {
					values.get(i).copyRawTo(ids, i * hash.rawLength());
				}
			}
			ObjectId main = store.resolve("refs/heads/main").orElseThrow().id();
			TipFacts facts = CommitHistory.open(repository).facts(ids, names.size(), main, true);
			for (int i = 0; i < names.size(); i++) {
				String date = (facts.date(i) == TipFacts.NO_DATE) ? "" : Long.toString(facts.date(i));
				String counts = facts.isCommit(i) ? facts.ahead(i) + " " + facts.behind(i) : "";
				actual.put(names.get(i), date + "|" + facts.merged(i) + "|" + counts);
			}
		}
		assertThat(actual).hasSizeGreaterThan(60).isEqualTo(expected);
	}

	/**
	 * A random history by {@code git fast-import}: several lines of work that fork from
	 * each other and merge (main merges most of them), branches and tags on random
	 * commits.
	 */
	static void generate(TempRepo repo, Random random, int commits) throws IOException {
		StringBuilder stream = new StringBuilder();
		List<Integer> lineTips = new ArrayList<>();
		int mainTip = 0;
		long time = 1_600_000_000L;
		for (int mark = 1; mark <= commits; mark++) {
			time += 60 + random.nextInt(86_400 * 3);
			List<Integer> parents = new ArrayList<>();
			String ref;
			int choice = random.nextInt(10);
			if (mark == 1 || (mark == commits / 2)) {
				ref = "refs/heads/root" + mark;
			}
			else if (choice < 4) {
				// main moves on, sometimes merging a line of work (or two: an octopus)
				ref = "refs/heads/main";
				parents.add(mainTip);
				if (!lineTips.isEmpty() && random.nextInt(3) == 0) {
					parents.add(lineTips.remove(random.nextInt(lineTips.size())));
					if (!lineTips.isEmpty() && random.nextInt(5) == 0) {
						parents.add(lineTips.remove(random.nextInt(lineTips.size())));
					}
				}
			}
			else if (choice < 6 || lineTips.isEmpty()) {
				// a new line of work forks from main or from another line
				ref = "refs/heads/work";
				int from = (random.nextBoolean() || lineTips.isEmpty()) ? mainTip
						: lineTips.get(random.nextInt(lineTips.size()));
				parents.add(from);
				lineTips.add(mark);
			}
			else {
				ref = "refs/heads/work";
				int line = random.nextInt(lineTips.size());
				parents.add(lineTips.get(line));
				lineTips.set(line, mark);
			}
			parents.removeIf((parent) -> parent == 0);
			stream.append("commit ").append(ref).append('\n');
			stream.append("mark :").append(mark).append('\n');
			stream.append("committer C <c@example.com> ").append(time).append(" +0100\n");
			stream.append("data <<END\ncommit ").append(mark).append("\nEND\n");
			for (int p = 0; p < parents.size(); p++) {
				stream.append((p == 0) ? "from :" : "merge :").append(parents.get(p)).append('\n');
			}
			stream.append("M 644 inline f").append(mark % 7).append("\ndata <<END\n").append(mark).append("\nEND\n\n");
			if (ref.equals("refs/heads/main") || mark == 1) {
				mainTip = mark;
			}
			if (random.nextInt(4) == 0) {
				stream.append("reset refs/heads/topic/").append(mark).append("\nfrom :").append(mark).append("\n\n");
			}
			if (random.nextInt(25) == 0) {
				stream.append("tag v").append(mark).append("\nfrom :").append(mark).append('\n');
				stream.append("tagger T <t@example.com> ").append(time + 30).append(" -0500\n");
				stream.append("data <<END\nrelease ").append(mark).append("\nEND\n\n");
			}
			if (random.nextInt(30) == 0) {
				stream.append("reset refs/tags/light").append(mark).append("\nfrom :").append(mark).append("\n\n");
			}
		}
		for (int line = 0; line < lineTips.size(); line++) {
			stream.append("reset refs/heads/line/")
				.append(line)
				.append("\nfrom :")
				.append(lineTips.get(line))
				.append("\n\n");
		}
		stream.append("reset refs/heads/main\nfrom :").append(mainTip).append("\n\n");
		repo.run(stream.toString().getBytes(StandardCharsets.UTF_8), "fast-import", "--quiet").requireOk();
		repo.git("update-ref", "-d", "refs/heads/work");
		String tree = repo.git("rev-parse", "main^{tree}").trim();
		String blob = repo.git("rev-parse", "main:f1").trim();
		repo.git("update-ref", "refs/tags/tree", tree);
		repo.git("update-ref", "refs/tags/blob", blob);
		repo.git("tag", "-a", "-m", "a tree", "tree-tag", tree);
		repo.git("tag", "-a", "-m", "a tag", "tag-of-tag", repo.git("rev-parse", "refs/tags/tree-tag").trim());
		String firstTag = repo.git("for-each-ref", "--count=1", "--format=%(refname)", "refs/tags/v*").trim();
		if (!firstTag.isEmpty()) {
			repo.git("tag", "-a", "-m", "nested", "nested", firstTag);
		}
		repo.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/heads/main");
		repo.git("update-ref", "refs/pull/1/head", "main~3");
	}

}
