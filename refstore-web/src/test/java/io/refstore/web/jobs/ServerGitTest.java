package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.refstore.core.testing.GitCli;

/**
 * This server's git as a migration's pre-flight names it: read from {@code git --version}
 * (the git on this machine, whatever it is, is judged by the same rule), reftable read by
 * 2.45 and later only.
 */
class ServerGitTest {

	@Test
	void theVersionIsReadFromGitsOwnWords() {
		ServerGit.Version version = ServerGit.parse("git version 2.39.5\n").orElseThrow();
		assertThat(version.text()).isEqualTo("2.39.5");
		assertThat(version.readsReftable()).isFalse();
		assertThat(ServerGit.parse("git version 2.45.0.windows.1").orElseThrow().readsReftable()).isTrue();
		assertThat(ServerGit.parse("git version 2.55.0").orElseThrow().readsReftable()).isTrue();
		assertThat(ServerGit.parse("git version 3.0.0").orElseThrow().readsReftable()).isTrue();
		assertThat(ServerGit.parse("git version 2.44.9").orElseThrow().readsReftable()).isFalse();
		assertThat(ServerGit.parse("bash: git: command not found")).isEmpty();
	}

	@Test
	void theGitOnThisMachineIsAsked() {
		String expected = GitCli.system()
			.run(Path.of(System.getProperty("java.io.tmpdir")), "--version")
			.stdout()
			.trim()
			.substring("git version ".length());
		Optional<ServerGit.Version> version = new ServerGit().version();
		assertThat(version).map(ServerGit.Version::text).hasValue(expected);
	}

}
