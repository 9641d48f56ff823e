package io.refstore.core.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.refstore.core.ref.PersonIdent;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@link Repository#committer()} gives the identity {@code git var GIT_COMMITTER_IDENT}
 * (git 2.39) gives for the same environment and config: name, e-mail, seconds and zone.
 */
class CommitterIT {

	@TempDir
	Path tmp;

	private TempRepo repo;

	@BeforeEach
	void init() {
		this.repo = TempRepo.init(GitCli.system(), this.tmp.resolve("r"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "@1700000000 +0530", "1700000000 -0800", "@1700000000", "1700000000", "@12 +0000",
			"2005-04-07T22:13:13+0200", "2005-04-07 22:13:13 +0200", "2005-04-07T22:13:13+02:00",
			"2005-04-07T22:13:13Z", "2005-04-07T22:13:13.250+0200", "2005-04-07T22:13+0200", "2005-04-07T22:13:13+05",
			"2005-04-07 22:13:13", "2005-07-07 22:13:13", "2005-04-07T22:13:13 -0000",
			"Thu, 07 Apr 2005 22:13:13 +0200", "thu, 07 apr 2005 22:13:13 +0200", "7 Apr 2005 22:13 -0130",
			"Thu, 07 Apr 2005 22:13:13 GMT" })
	void dateFormatsMatchGit(String date) throws IOException {
		Map<String, String> env = env("GIT_COMMITTER_NAME", "C O Mitter", "GIT_COMMITTER_EMAIL", "c@example.com",
				"GIT_COMMITTER_DATE", date, "TZ", "America/New_York");
		assertThat(format(committer(env))).isEqualTo(gitVar(env));
	}

	@ParameterizedTest
	@ValueSource(strings = { "garbage", "12345678 +0000", "2005-13-01T00:00:00+0000", "2005-02-30T22:13:13+0200",
			"1700000000 +2400", "yesterday" })
	void badDatesAreRefusedNamingTheVariable(String date) {
		Map<String, String> env = env("GIT_COMMITTER_NAME", "n", "GIT_COMMITTER_EMAIL", "e", "GIT_COMMITTER_DATE",
				date);
		assertThatThrownBy(() -> committer(env)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("GIT_COMMITTER_DATE")
			.hasMessageContaining("'" + date + "'");
	}

	@Test
	void gitRefusesTheDatesThatAreMeaningless() throws IOException {
		for (String date : new String[] { "garbage", "12345678 +0000", "yesterday x" }) {
			Map<String, String> env = env("GIT_COMMITTER_NAME", "n", "GIT_COMMITTER_EMAIL", "e", "GIT_COMMITTER_DATE",
					date);
			assertThat(gitVar(env)).as(date).startsWith("fatal: invalid date format");
		}
	}

	@Test
	void configIdentityIsUsedWhenTheEnvironmentHasNone() throws IOException {
		this.repo.git("config", "user.name", "Config Name");
		this.repo.git("config", "user.email", "config@example.com");
		Map<String, String> env = env("GIT_COMMITTER_DATE", "@1700000000 +0100");
		assertThat(format(committer(env))).isEqualTo(gitVar(env)).startsWith("Config Name <config@example.com>");
		env.put("GIT_COMMITTER_NAME", "Env Name");
		assertThat(format(committer(env))).isEqualTo(gitVar(env)).startsWith("Env Name <config@example.com>");
	}

	@Test
	void emailVariableStandsInForAMissingUserEmail() throws IOException {
		this.repo.git("config", "user.name", "Config Name");
		Map<String, String> env = env("EMAIL", "from-env@example.com", "GIT_COMMITTER_DATE", "@1700000000 +0000");
		assertThat(format(committer(env))).isEqualTo(gitVar(env)).contains("<from-env@example.com>");
	}

	@Test
	void crudAndAngleBracketsAreStrippedLikeGit() throws IOException {
		Map<String, String> env = env("GIT_COMMITTER_NAME", " ..<Odd> Name;. ", "GIT_COMMITTER_EMAIL",
				"<odd@example.com>", "GIT_COMMITTER_DATE", "@1700000000 +0000");
		assertThat(format(committer(env))).isEqualTo(gitVar(env)).startsWith("Odd Name <odd@example.com>");
	}

	@Test
	void withoutDateTheClockAndTzGiveTheTime() throws IOException {
		Map<String, String> env = env("GIT_COMMITTER_NAME", "n", "GIT_COMMITTER_EMAIL", "e", "TZ", "Asia/Kolkata");
		Clock clock = Clock.fixed(Instant.ofEpochSecond(1_234_567_890), ZoneOffset.UTC);
		try (Repository opened = Repository.open(this.repo.dir(), env, clock)) {
			assertThat(opened.committer()).isEqualTo(new PersonIdent("n", "e", 1_234_567_890, 530));
		}
		assertThat(gitVar(env)).endsWith(" +0530");
	}

	@Test
	void systemClockIsUsedByDefault() throws IOException {
		Map<String, String> env = env("GIT_COMMITTER_NAME", "n", "GIT_COMMITTER_EMAIL", "e", "TZ", "UTC");
		long before = Instant.now().getEpochSecond();
		PersonIdent ident = committer(env);
		assertThat(ident.epochSeconds()).isBetween(before, Instant.now().getEpochSecond());
		assertThat(ident.tzOffset()).isZero();
	}

	@Test
	void operatingSystemUserAndHostAreTheLastResort() throws IOException {
		Map<String, String> env = env("USER", "alice", "HOSTNAME", "box.example.com", "GIT_COMMITTER_DATE",
				"@1700000000 +0000");
		assertThat(committer(env)).isEqualTo(new PersonIdent("alice", "alice@box.example.com", 1_700_000_000, 0));
	}

	private PersonIdent committer(Map<String, String> env) throws IOException {
		try (Repository opened = Repository.open(this.repo.dir(), env)) {
			return opened.committer();
		}
	}

	private static String format(PersonIdent ident) {
		return ident.name() + " <" + ident.email() + "> " + ident.epochSeconds() + " " + ident.tzText();
	}

	/** An environment without system or global config, plus the given variables. */
	private static Map<String, String> env(String... pairs) {
		Map<String, String> env = new HashMap<>();
		env.put("GIT_CONFIG_NOSYSTEM", "1");
		env.put("GIT_CONFIG_GLOBAL", "/dev/null");
		env.put("HOME", "/nonexistent");
		for (int i = 0; i < pairs.length; i += 2) {
			env.put(pairs[i], pairs[i + 1]);
		}
		return env;
	}

	/** Runs {@code git var GIT_COMMITTER_IDENT} with exactly {@code env} (and PATH). */
	private String gitVar(Map<String, String> env) throws IOException {
		ProcessBuilder builder = new ProcessBuilder("git", "var", "GIT_COMMITTER_IDENT")
			.directory(this.repo.dir().toFile())
			.redirectErrorStream(true);
		String path = builder.environment().get("PATH");
		builder.environment().clear();
		builder.environment().put("PATH", path);
		builder.environment().putAll(env);
		Process process = builder.start();
		try {
			String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			assertThat(process.waitFor(1, TimeUnit.MINUTES)).isTrue();
			return out;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
	}

}
