package io.refstore.core.repo;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads the config files git reads for a repository, lowest priority first: system,
 * global (XDG, then {@code ~/.gitconfig}), the repository's {@code config}, then
 * {@code config.worktree} when {@code extensions.worktreeConfig} is on. Stateless.
 * <p>
 * The environment decides the system and global files as for git:
 * {@code GIT_CONFIG_NOSYSTEM}, {@code GIT_CONFIG_SYSTEM}, {@code GIT_CONFIG_GLOBAL},
 * {@code XDG_CONFIG_HOME} and {@code HOME}.
 * {@code GIT_CONFIG_COUNT}/{@code GIT_CONFIG_PARAMETERS} (command-line {@code -c}) are
 * {@link CommandLineConfig}'s.
 */
final class ConfigFiles {

	private static final Path SYSTEM_CONFIG = Path.of("/etc/gitconfig");

	private ConfigFiles() {
	}

	static GitConfig userLevels(Map<String, String> env) throws IOException {
		return system(env).with(global(env));
	}

	static GitConfig repositoryLevel(Path commonDir) throws IOException {
		return GitConfig.read(commonDir.resolve("config"));
	}

	static GitConfig worktreeLevel(Path gitDir) throws IOException {
		return GitConfig.read(gitDir.resolve("config.worktree"));
	}

	private static GitConfig system(Map<String, String> env) throws IOException {
		String noSystem = env.get("GIT_CONFIG_NOSYSTEM");
		if (noSystem != null && isTrue(noSystem)) {
			return GitConfig.empty();
		}
		String file = env.get("GIT_CONFIG_SYSTEM");
		return GitConfig.read((file != null) ? Path.of(file) : SYSTEM_CONFIG);
	}

	private static GitConfig global(Map<String, String> env) throws IOException {
		String file = env.get("GIT_CONFIG_GLOBAL");
		if (file != null) {
			return GitConfig.read(Path.of(file));
		}
		String home = env.get("HOME");
		String xdg = env.get("XDG_CONFIG_HOME");
		GitConfig config = GitConfig.empty();
		if (xdg != null && !xdg.isEmpty()) {
			config = GitConfig.read(Path.of(xdg, "git", "config"));
		}
		else if (home != null && !home.isEmpty()) {
			config = GitConfig.read(Path.of(home, ".config", "git", "config"));
		}
		if (home != null && !home.isEmpty()) {
			config = config.with(GitConfig.read(Path.of(home, ".gitconfig")));
		}
		return config;
	}

	private static boolean isTrue(String value) {
		Boolean word = ConfigValues.booleanWord(value);
		if (word != null) {
			return word;
		}
		Long number = ConfigValues.parseSigned(value);
		return number != null && number != 0;
	}

}
