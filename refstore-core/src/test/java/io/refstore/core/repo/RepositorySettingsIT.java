package io.refstore.core.repo;

import static io.refstore.core.repo.RepositoryOpenIT.ENV;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.refstore.core.ref.ReflogPolicy;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * The settings ref storage reads from config: the reflog policy agrees with which reflogs
 * git 2.39 actually creates, the lock timeouts follow their defaults and units, and
 * {@code config.worktree} counts only with {@code extensions.worktreeConfig}.
 */
class RepositorySettingsIT {

	private final GitCli git = GitCli.system();

	@TempDir
	Path tmp;

	@ParameterizedTest(name = "bare={0} core.logAllRefUpdates={1}")
	@CsvSource({ "false, (unset), NORMAL", "true, (unset), EXISTING_ONLY", "false, true, NORMAL", "true, true, NORMAL",
			"false, false, EXISTING_ONLY", "true, always, ALWAYS", "false, Always, ALWAYS", "true, yes, NORMAL",
			"false, 0, EXISTING_ONLY" })
	void reflogPolicyMatchesTheReflogsGitCreates(boolean bare, String value, ReflogPolicy expected) throws IOException {
		TempRepo repo = bare ? TempRepo.init(this.git, this.tmp.resolve("r"), "--bare")
				: TempRepo.init(this.git, this.tmp.resolve("r"));
		// git init writes core.logAllRefUpdates = true into non-bare repositories: remove
		// it to see the default
		repo.run(new byte[0], "config", "--unset-all", "core.logAllRefUpdates");
		if (!value.equals("(unset)")) {
			repo.git("config", "core.logAllRefUpdates", value);
		}
		String commit = repo.commit("c", null);
		try (Repository opened = Repository.open(repo.dir(), ENV)) {
			assertThat(opened.reflogPolicy()).isEqualTo(expected);
			for (String ref : new String[] { "refs/heads/topic", "refs/remotes/origin/x", "refs/notes/n",
					"refs/tags/v1", "refs/custom/y" }) {
				repo.git("update-ref", ref, commit);
				boolean gitLogged = Files.exists(repo.gitDir().resolve("logs").resolve(ref));
				assertThat(opened.reflogPolicy().createsLogFor(ref)).as(ref).isEqualTo(gitLogged);
			}
		}
	}

	@Test
	void badReflogSettingIsAConfigErrorNamingTheLine() throws IOException {
		TempRepo repo = TempRepo.init(this.git, this.tmp.resolve("r"));
		repo.git("config", "core.logAllRefUpdates", "sometimes");
		Path config = repo.gitDir().toRealPath().resolve("config");
		// git's words, which name no file for a boolean
		assertThatThrownBy(() -> Repository.open(repo.dir(), ENV)).isInstanceOf(IllegalArgumentException.class)
			.hasMessage("bad boolean config value 'sometimes' for 'core.logallrefupdates'");
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource({ "(unset), (unset), 100, 1000", "0, 0, 0, 0", "250, 5000, 250, 5000", "1k, 2k, 1024, 2048",
			"-1, -5, forever, forever" })
	void lockTimeoutsFollowConfig(String files, String packed, String filesMillis, String packedMillis)
			throws IOException {
		TempRepo repo = TempRepo.init(this.git, this.tmp.resolve("r"));
		if (!files.equals("(unset)")) {
			repo.git("config", "core.filesRefLockTimeout", files);
			repo.git("config", "core.packedRefsTimeout", packed);
		}
		try (Repository opened = Repository.open(repo.dir(), ENV)) {
			assertThat(opened.filesRefLockTimeout()).isEqualTo(duration(filesMillis));
			assertThat(opened.packedRefsTimeout()).isEqualTo(duration(packedMillis));
		}
	}

	@Test
	void waitForeverDoesNotOverflowDeadlines() {
		assertThat(Repository.WAIT_FOREVER.toNanos()).isPositive();
		assertThat(System.nanoTime() + Repository.WAIT_FOREVER.toNanos() - System.nanoTime()).isPositive();
	}

	@Test
	void malformedTimeoutIsAConfigError() {
		TempRepo repo = TempRepo.init(this.git, this.tmp.resolve("r"));
		repo.git("config", "core.packedRefsTimeout", "soon");
		// git's words, naming the file
		assertThatThrownBy(() -> Repository.open(repo.dir(), ENV)).isInstanceOf(ConfigValueException.class)
			.hasMessageContaining("bad numeric config value 'soon' for 'core.packedrefstimeout' in file ")
			.hasMessageEndingWith("config: invalid unit");
	}

	@Test
	void worktreeConfigCountsOnlyWithItsExtension() throws IOException {
		TempRepo main = TempRepo.init(this.git, this.tmp.resolve("main"));
		main.git("update-ref", "refs/heads/main", main.commit("c", null));
		Path linked = this.tmp.resolve("linked");
		main.git("worktree", "add", "-q", "--detach", linked.toString(), "main");
		main.git("config", "user.name", "Shared Name");
		main.git("config", "extensions.worktreeConfig", "true");
		this.git.ok(linked, "config", "--worktree", "user.name", "Linked Name");
		try (Repository opened = Repository.open(linked, ENV); Repository top = Repository.open(main.dir(), ENV)) {
			assertThat(opened.config().getString("user", null, "name")).contains("Linked Name")
				.contains(this.git.ok(linked, "config", "user.name").trim());
			assertThat(top.config().getString("user", null, "name")).contains("Shared Name");
		}
		main.git("config", "--unset", "extensions.worktreeConfig");
		try (Repository opened = Repository.open(linked, ENV)) {
			assertThat(opened.config().getString("user", null, "name")).contains("Shared Name")
				.contains(this.git.ok(linked, "config", "user.name").trim());
		}
	}

	@Test
	void globalAndSystemConfigComeFromTheEnvironment() throws IOException {
		TempRepo repo = TempRepo.init(this.git, this.tmp.resolve("r"));
		Path system = this.tmp.resolve("system-config");
		Path global = this.tmp.resolve("global-config");
		Files.writeString(system,
				"[user]\n\tname = System\n\temail = sys@example.com\n[core]\n\tfilesRefLockTimeout = 333\n");
		Files.writeString(global, "[user]\n\tname = Global\n");
		Map<String, String> env = Map.of("GIT_CONFIG_SYSTEM", system.toString(), "GIT_CONFIG_GLOBAL",
				global.toString());
		try (Repository opened = Repository.open(repo.dir(), env)) {
			assertThat(opened.config().getString("user", null, "name")).contains("Global");
			assertThat(opened.config().getString("user", null, "email")).contains("sys@example.com");
			assertThat(opened.filesRefLockTimeout()).isEqualTo(Duration.ofMillis(333));
		}
		GitCli withFiles = this.git.withEnv("GIT_CONFIG_NOSYSTEM", "0")
			.withEnv("GIT_CONFIG_SYSTEM", system.toString())
			.withEnv("GIT_CONFIG_GLOBAL", global.toString());
		assertThat(withFiles.ok(repo.dir(), "config", "user.name").trim()).isEqualTo("Global");
		Map<String, String> noSystem = Map.of("GIT_CONFIG_SYSTEM", system.toString(), "GIT_CONFIG_NOSYSTEM", "1",
				"GIT_CONFIG_GLOBAL", "/dev/null");
		try (Repository opened = Repository.open(repo.dir(), noSystem)) {
			assertThat(opened.config().getString("user", null, "name")).isEmpty();
			assertThat(opened.filesRefLockTimeout()).isEqualTo(Duration.ofMillis(100));
		}
	}

	private static Duration duration(String millis) {
		return millis.equals("forever") ? Repository.WAIT_FOREVER : Duration.ofMillis(Long.parseLong(millis));
	}

	private static String lineOf(Path file, String needle) throws IOException {
		List<String> lines = Files.readAllLines(file);
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).toLowerCase(Locale.ROOT).contains(needle)) {
				return Integer.toString(i + 1);
			}
		}
		throw new AssertionError(needle + " not in " + file);
	}

}
