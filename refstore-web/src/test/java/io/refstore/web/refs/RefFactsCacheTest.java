package io.refstore.web.refs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoRegistry;

/**
 * The branches' facts are read once per state of the store and kept: asked again at the
 * same fingerprint, the index is the one kept, also where {@code HEAD} names a branch
 * that has no commit (a bare repository whose default branch was never pushed, common on
 * servers), which has no base to judge merged against. Such a repository rebuilt its
 * index on every request: 0.5 to 1 s of CPU per Branches page at 500,000 branches.
 */
class RefFactsCacheTest extends ConsoleTestSupport {

	@Autowired
	RefFactsService facts;

	@Autowired
	RepoRegistry registry;

	@Test
	void theBranchesIndexIsKeptWhileTheStoreIsUnchangedAlsoWithHeadUnborn() throws Exception {
		String name = uniqueName("facts-cache") + ".git";
		TempRepo repo = bareRepo(name);
		String commit = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/topic", commit);
		repo.git("update-ref", "refs/heads/other", commit);
		repo.git("symbolic-ref", "HEAD", "refs/heads/never-pushed");
		assertThat(repo.run(new byte[0], "rev-parse", "--verify", "-q", "HEAD").exitCode()).isNotZero();
		// the store's files no longer within the fingerprint's racy window
		Thread.sleep(2_100);

		RefFactsService.BranchIndex first;
		RefFactsService.BranchIndex again;
		try (OpenRepo open = this.registry.open(name)) {
			first = this.facts.branchIndex(open);
		}
		try (OpenRepo open = this.registry.open(name)) {
			again = this.facts.branchIndex(open);
		}

		assertThat(first.index().count()).isEqualTo(2);
		assertThat(again.index()).isSameAs(first.index());

		repo.git("update-ref", "refs/heads/third", commit);
		Thread.sleep(2_100);
		try (OpenRepo open = this.registry.open(name)) {
			assertThat(this.facts.branchIndex(open).index().count()).isEqualTo(3);
		}
	}

}
