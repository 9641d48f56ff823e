package io.refstore.core.delete;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * What a plan file says it protects: its {@code select protect} lines (none: nothing, an
 * override), and for a version 1 plan, written before protection existed, the defaults,
 * so that executing it never deletes them. And when a plan is stale, against a repository
 * that git changes after the plan was written.
 */
class DeletionPlanTest {

	@TempDir
	Path tmp;

	private DeletionPlan.Summary read(String text) throws IOException {
		Path file = Files.writeString(this.tmp.resolve("plan"), text);
		return DeletionPlan.summary(file, 10);
	}

	@Test
	void aPlanProtectsWhatItsProtectLinesSay() throws IOException {
		DeletionPlan.Summary plan = read("refstore-deletion-plan 2\nselect prefix refs/\nselect protect refs/notes/**\n"
				+ "select protect HEAD\nref refs/heads/x 0123456789012345678901234567890123456789\nend 1\n");
		assertThat(plan.selection().protection().entries()).containsExactly("refs/notes/**", "HEAD");
		assertThat(plan.count()).isEqualTo(1);
		assertThat(plan.sample()).containsExactly("refs/heads/x");
	}

	@Test
	void aPlanWithoutProtectLinesProtectsNothing() throws IOException {
		assertThat(read("refstore-deletion-plan 2\nselect prefix refs/\nend 0\n").selection().protection().isEmpty())
			.isTrue();
	}

	@Test
	void aVersionOnePlanProtectsTheDefaults() throws IOException {
		assertThat(read("refstore-deletion-plan 1\nselect prefix refs/\nend 0\n").selection().protection())
			.isSameAs(ProtectedRefs.defaults());
	}

	@Test
	void anotherVersionIsRefused() {
		assertThatThrownBy(() -> read("refstore-deletion-plan 3\nend 0\n")).isInstanceOf(IOException.class)
			.hasMessageEndingWith("plan:1: not a refstore deletion plan (version 1 or 2)");
	}

	@Test
	void aPlanIsStaleOnceASelectedRefMovesOrAppearsButNotWhenOneGoes() throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), this.tmp.resolve("repo.git"), "--bare");
		String one = repo.commit("one", null);
		String two = repo.commit("two", one);
		repo.git("update-ref", "refs/heads/a", one);
		repo.git("update-ref", "refs/heads/b", one);
		repo.git("update-ref", "refs/heads/c", one);
		repo.git("symbolic-ref", "refs/heads/s", "refs/heads/a");
		repo.git("update-ref", "refs/tags/t", one);
		Path file = this.tmp.resolve("plans/1").resolve(DeletionPlan.FILE);
		try (Repository repository = Repository.open(repo.dir()); RefStore store = RefStores.open(repository)) {
			DeletionPlan.Summary plan = DeletionPlan.write(file, store, List.of("prefix refs/heads/"),
					ProtectedRefs.of(List.of("refs/heads/b")), 10);
			assertThat(plan.count()).isEqualTo(3);
			assertThat(plan.sample()).containsExactly("refs/heads/a", "refs/heads/c", "refs/heads/s");
			assertThat(plan.kept().count()).isEqualTo(1);
		}
		assertThat(Files.readString(file)).isEqualTo("refstore-deletion-plan 2\nselect prefix refs/heads/\n"
				+ "select protect refs/heads/b\nref refs/heads/a " + one + "\nref refs/heads/c " + one
				+ "\nsymref refs/heads/s refs/heads/a\nend 3\n");
		// gone since (deleted by someone else), protected, or outside the selection:
		// still covered
		repo.git("update-ref", "-d", "refs/heads/c");
		repo.git("update-ref", "refs/heads/b", two);
		repo.git("update-ref", "refs/tags/t", two);
		assertThat(checkNotStale(repo, file).entries()).containsExactly("refs/heads/b");
		repo.git("symbolic-ref", "refs/heads/s", "refs/heads/b");
		assertThatThrownBy(() -> checkNotStale(repo, file)).isInstanceOf(StalePlanException.class)
			.hasMessageContaining("'refs/heads/s' is ref: refs/heads/b, the plan has ref: refs/heads/a; plan again");
		repo.git("symbolic-ref", "refs/heads/s", "refs/heads/a");
		repo.git("update-ref", "refs/heads/new", one);
		assertThatThrownBy(() -> checkNotStale(repo, file)).isInstanceOf(StalePlanException.class)
			.hasMessageContaining("'refs/heads/new' is selected now but is not in the plan; plan again");
	}

	private static ProtectedRefs checkNotStale(TempRepo repo, Path file) throws IOException {
		try (Repository repository = Repository.open(repo.dir()); RefStore store = RefStores.open(repository)) {
			return DeletionPlan.checkNotStale(file, store);
		}
	}

}
