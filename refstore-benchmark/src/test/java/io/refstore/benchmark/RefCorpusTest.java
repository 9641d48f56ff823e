package io.refstore.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.refstore.core.ref.RefName;

class RefCorpusTest {

	private final RefCorpus corpus = new RefCorpus(20_000);

	@Test
	void everyNameIsAValidUniqueRefName() {
		Set<String> names = new HashSet<>();
		List<String> bad = new ArrayList<>();
		for (int i = 0; i < this.corpus.size(); i++) {
			String name = this.corpus.name(i);
			if (RefName.violation(name, false) != null || !names.add(name)) {
				bad.add(name);
			}
		}
		assertThat(bad).isEmpty();
		assertThat(names).hasSize(20_000);
	}

	@Test
	void noNameIsTheDirectoryOfAnother() {
		Set<String> all = new HashSet<>();
		for (int i = 0; i < this.corpus.size(); i++) {
			all.add(this.corpus.name(i));
		}
		List<String> conflicts = new ArrayList<>();
		for (String name : all) {
			for (int slash = name.indexOf('/'); slash > 0; slash = name.indexOf('/', slash + 1)) {
				if (all.contains(name.substring(0, slash))) {
					conflicts.add(name);
				}
			}
		}
		assertThat(conflicts).isEmpty();
	}

	@Test
	void kindsComeInTheDocumentedSharesWithMainFirst() {
		Map<RefCorpus.Kind, Integer> seen = new EnumMap<>(RefCorpus.Kind.class);
		for (int i = 0; i < this.corpus.size(); i++) {
			RefCorpus.Kind kind = this.corpus.kind(i);
			seen.merge(kind, 1, Integer::sum);
			String expectedPrefix = switch (kind) {
				case BRANCH -> "refs/heads/";
				case LIGHTWEIGHT_TAG, ANNOTATED_TAG -> "refs/tags/";
				case PULL -> "refs/pull/";
				case CHANGE -> "refs/changes/";
			};
			assertThat(this.corpus.name(i)).startsWith(expectedPrefix);
		}
		assertThat(seen).containsEntry(RefCorpus.Kind.BRANCH, 1200)
			.containsEntry(RefCorpus.Kind.LIGHTWEIGHT_TAG, 800)
			.containsEntry(RefCorpus.Kind.ANNOTATED_TAG, 1000)
			.containsEntry(RefCorpus.Kind.PULL, 9000)
			.containsEntry(RefCorpus.Kind.CHANGE, 8000);
		for (RefCorpus.Kind kind : RefCorpus.Kind.values()) {
			assertThat(this.corpus.count(kind)).isEqualTo(seen.get(kind));
		}
		assertThat(this.corpus.name(0)).isEqualTo("refs/heads/main");
	}

	@Test
	void changesFollowGerritsLayout() {
		int first = this.corpus.count(RefCorpus.Kind.BRANCH) + this.corpus.count(RefCorpus.Kind.LIGHTWEIGHT_TAG)
				+ this.corpus.count(RefCorpus.Kind.ANNOTATED_TAG) + this.corpus.count(RefCorpus.Kind.PULL);
		for (int i = first; i < this.corpus.size(); i++) {
			String[] parts = this.corpus.name(i).split("/");
			assertThat(parts).hasSize(5);
			assertThat(parts[2]).hasSize(2).isEqualTo(String.format("%02d", Integer.parseInt(parts[3]) % 100));
			assertThat(Integer.parseInt(parts[4])).isBetween(1, 3);
		}
	}

	@Test
	void annotatedTagsHaveTheirShortNameAsTagName() {
		int first = this.corpus.count(RefCorpus.Kind.BRANCH) + this.corpus.count(RefCorpus.Kind.LIGHTWEIGHT_TAG);
		assertThat(this.corpus.tagName(first)).isEqualTo("v0.0.0");
		assertThat(this.corpus.name(first + 123)).isEqualTo("refs/tags/" + this.corpus.tagName(first + 123))
			.isEqualTo("refs/tags/v0.1.23");
		assertThatIllegalArgumentException().isThrownBy(() -> this.corpus.tagName(0))
			.withMessageContaining("refs/heads/main");
	}

	@Test
	void deletionsSpreadOverEveryNamespaceAndSpareMain() {
		int[] indexes = this.corpus.deleteIndexes(1000);
		assertThat(indexes).hasSize(1000).doesNotContain(0).isSorted();
		assertThat(Arrays.stream(indexes).distinct().count()).isEqualTo(1000);
		Set<RefCorpus.Kind> kinds = new HashSet<>();
		for (int i : indexes) {
			kinds.add(this.corpus.kind(i));
		}
		assertThat(kinds).containsExactlyInAnyOrder(RefCorpus.Kind.values());
		assertThatIllegalArgumentException().isThrownBy(() -> this.corpus.deleteIndexes(20_000));
	}

	@Test
	void theLookupIsAPullRequest() {
		assertThat(this.corpus.kind(this.corpus.lookupIndex())).isEqualTo(RefCorpus.Kind.PULL);
		assertThat(this.corpus.name(this.corpus.lookupIndex())).isEqualTo("refs/pull/4501/head");
	}

	@Test
	void theSameSizeGivesTheSameNames() {
		RefCorpus again = new RefCorpus(20_000);
		for (int i = 0; i < 20_000; i += 997) {
			assertThat(again.name(i)).isEqualTo(this.corpus.name(i));
		}
	}

	@Test
	void tooFewRefsAreRefusedNamingTheMinimum() {
		assertThatIllegalArgumentException().isThrownBy(() -> new RefCorpus(99)).withMessageContaining("100");
	}

}
