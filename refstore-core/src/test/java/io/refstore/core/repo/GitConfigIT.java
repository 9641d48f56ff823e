package io.refstore.core.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.refstore.core.testing.GitCli;

/**
 * The config parser reads every sample exactly as {@code git config -f} (git 2.39) does:
 * the same values for the same keys, the same booleans and integers, and the same line
 * number for malformed files.
 */
class GitConfigIT {

	private static final Pattern BAD_LINE = Pattern.compile("bad config line (\\d+) in file");

	@TempDir
	Path dir;

	/**
	 * Samples as {@code key|text}, with {@code \n} in the text written as a real line
	 * feed.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "core.bare|[core]\n\tbare = true\n", "core.bare|[Core]\n\tBare = TRUE\n",
			"core.bare|[core]\n\tbare\n", "core.bare|[core]\n\tbare =\n",
			"remote.origin.url|[remote \"origin\"]\n\turl = x\n", "remote.Origin.url|[remote \"origin\"]\n\turl = x\n",
			"remote.a\"b\\cx.url|[remote \"a\\\"b\\\\c\\x\"]\n\turl = y\n",
			"branch.foo.remote|[branch.Foo]\n\tremote = x\n", "branch.Foo.remote|[branch.Foo]\n\tremote = x\n",
			"branch.Foo.remote|[branch \"Foo\"]\n\tremote = x\n", "branch.foo.remote|[branch \"Foo\"]\n\tremote = x\n",
			"a.k|[a]\nk = \" x  y \"  z\t w  \n", "a.k|[a]\nk = a\\\n b\n",
			"a.k|[a]\nk = \"a\\tb\\nc\\bd\\\"e\\\\f\"\n", "a.k|[a]\nk = a;b\n", "a.k|[a]\nk = \"a;b\"#x\n",
			"a.k|[a]\nk = a # c\n", "a.k|[a]\nk=x\nk=y\n[A]\nK = z\n", "a.k|\uFEFF[a]\nk=x\n", "a.k|[a]\r\nk = x \r\n",
			"a.k|[a]k=x\n", "b.k|[a]k=x\n[b] k = y ; c\n", "a.b.k|[a  \"b\"]\nk=x\n", "a.k|[a]\nk=x\\",
			"a.k-1|[a]\nk-1 = x\n", "a..k|[a \"\"]\nk=1\n", "a.k|[a]\n[a]k", "a.k|[a]\nk = \"tab\there\"\n",
			"a.k|[a]\nk = \"one\\\n  two\"\n", "a.k|# top\n; also\n[a] # c\n  k = 1 ; x\n",
			"x.y.z|[x \"y\"]\n\tz = 1\n[x \"Y\"]\n\tz = 2\n[x]\n\tz = 3\n", "x.z|[x \"y\"]\n\tz = 1\n[x]\n\tz = 3\n" })
	void valuesMatchGit(String sample) throws IOException {
		String key = sample.substring(0, sample.indexOf('|'));
		Path file = write(sample.substring(sample.indexOf('|') + 1));
		GitConfig config = GitConfig.read(file);
		String[] parts = split(key);
		GitCli.Result git = GitCli.system().run(this.dir, "config", "-f", file.toString(), "-z", "--get-all", key);
		List<String> expected = (git.exitCode() == 1) ? List.of() : values(git.requireOk().stdout());
		assertThat(config.getAll(parts[0], parts[1], parts[2])).as(sample).isEqualTo(expected);
		Optional<String> last = expected.isEmpty() ? Optional.empty() : Optional.of(expected.get(expected.size() - 1));
		assertThat(config.getString(parts[0], parts[1], parts[2])).isEqualTo(last);
	}

	@ParameterizedTest
	@ValueSource(strings = { "true", "yes", "on", "TRUE", "On", "1", "-1", "0", "0x0", "\"\"", "false", "no", "off",
			"OFF", "2", "1k", "(none)", "maybe", "\" true\"", "2147483648", "-2147483649", "k", "0x" })
	void booleansMatchGit(String value) throws IOException {
		Path file = write("[a]\n\tk" + (value.equals("(none)") ? "" : " = " + value) + "\n");
		GitCli.Result git = GitCli.system()
			.run(this.dir, "config", "-f", file.toString(), "--type=bool", "--get", "a.k");
		GitConfig config = GitConfig.read(file);
		if (git.exitCode() == 0) {
			assertThat(config.getBoolean("a", null, "k")).as(value).contains(Boolean.parseBoolean(git.stdout().trim()));
		}
		else {
			// git's words, which name no file
			assertThatThrownBy(() -> config.getBoolean("a", null, "k")).as(value)
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessage(git.stderr().strip().replaceFirst("^fatal: ", ""));
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "0", "10", "1k", "1K", "9g", "-3m", "0x10", "010", "0X1fK", "\" 7k\"", "+5", "-0x10",
			"9223372036854775807", "1t", "\"\"", "(none)", "08", "0x", "\"7 k\"", "7kb", "8589934592g",
			"-9223372036854775808", "abc", "k", "\"- 5\"", "9007199254740992k" })
	void integersMatchGit(String value) throws IOException {
		Path file = write("[a]\n\tk" + (value.equals("(none)") ? "" : " = " + value) + "\n");
		GitCli.Result git = GitCli.system()
			.run(this.dir, "config", "-f", file.toString(), "--type=int", "--get", "a.k");
		GitConfig config = GitConfig.read(file);
		if (git.exitCode() == 0) {
			assertThat(config.getLong("a", null, "k")).as(value).hasValue(Long.parseLong(git.stdout().trim()));
		}
		else {
			// git's words, byte for byte
			assertThatThrownBy(() -> config.getLong("a", null, "k")).as(value)
				.isInstanceOf(ConfigValueException.class)
				.satisfies((ex) -> assertThat("fatal: " + ex.getMessage() + "\n").isEqualTo(git.stderr()));
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "[a]\nk x = y\n", "[a \"b\" ]\nk=x\n", "[a]\nk = a\\q\n", "[a]\nk = \"a\n", "[a]\nk = \"a",
			"[a\n", "[]\nk=x\n", "[a]\n1k = x\n", "[a]\n-k = x\n", "[a b]\nk=x\n", "[a_b]\nk=x\n", "[a]\n\tbare # c\n",
			"[a \"b\nc\"]\nk=x\n", "[a]\nk = x\n\n[b\n", "[a]\nk = \"multi\\\nline\n", "[a]\n\n\nk = \"x\\\ny",
			"[a \"x\"y]\nk=1\n", "[a]\n  k\t= \"ok\"\n\t!bang = x\n", "[a]\r\nk = \"x\r\n" })
	void malformedLinesAreReportedOnTheLineGitReports(String text) throws IOException {
		Path file = write(text);
		GitCli.Result git = GitCli.system().run(this.dir, "config", "-f", file.toString(), "--list");
		assertThat(git.exitCode()).as("git rejects %s", text).isEqualTo(128);
		Matcher m = BAD_LINE.matcher(git.stderr());
		assertThat(m.find()).as(git.stderr()).isTrue();
		int gitLine = Integer.parseInt(m.group(1));
		Throwable thrown = catchThrowable(() -> GitConfig.read(file));
		assertThat(thrown).as(text).isInstanceOf(ConfigException.class);
		ConfigException ex = (ConfigException) thrown;
		assertThat(ex.line()).as(text).isEqualTo(gitLine);
		assertThat(ex.file()).isEqualTo(file);
		assertThat(ex.getMessage()).contains("bad config line " + gitLine).contains(file.toString());
	}

	private Path write(String text) throws IOException {
		Path file = Files.createTempFile(this.dir, "config", "");
		Files.write(file, text.getBytes(StandardCharsets.UTF_8));
		return file;
	}

	/** Splits {@code section.sub.section.key} at the first and last dot, as git does. */
	private static String[] split(String key) {
		int first = key.indexOf('.');
		int last = key.lastIndexOf('.');
		return new String[] { key.substring(0, first), (first == last) ? null : key.substring(first + 1, last),
				key.substring(last + 1) };
	}

	private static List<String> values(String nulTerminated) {
		String[] parts = nulTerminated.split("\0", -1);
		return Arrays.asList(parts).subList(0, parts.length - 1);
	}

}
