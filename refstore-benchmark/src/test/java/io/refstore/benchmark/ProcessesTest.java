package io.refstore.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.refstore.core.testing.GitCli;

/**
 * The benchmark's git: the reftable-capable one the tests use is taken, the system's 2.39
 * is refused.
 */
class ProcessesTest {

	@Test
	void theReftableGitIsTakenAndAnOlderOneRefused() throws Exception {
		String reftable = GitCli.reftable().command().get(0);
		assertThat(Processes.reftableGit(Map.of("REFSTORE_REFTABLE_GIT", reftable))).isEqualTo(reftable);
		assertThatThrownBy(() -> Processes.reftableGit(Map.of("REFSTORE_REFTABLE_GIT", "git")))
			.isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("git says 'git version 2.39")
			.hasMessageContaining(".ci/install-reftable-git.sh");
		assertThatThrownBy(() -> Processes.reftableGit(Map.of())).hasMessageStartingWith("set REFSTORE_REFTABLE_GIT");
	}

}
