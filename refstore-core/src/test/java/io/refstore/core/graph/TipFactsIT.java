package io.refstore.core.graph;

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
import io.refstore.core.testing.GeneratedHistory;
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
		GeneratedHistory.generate(repo, new Random(seed), 400);
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

}
