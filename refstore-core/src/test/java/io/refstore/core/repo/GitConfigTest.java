package io.refstore.core.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lookup contract of {@link GitConfig}; the syntax itself is checked against real git
 * in {@link GitConfigIT}.
 */
class GitConfigTest {

	@Test
	void missingFileIsAnEmptyConfig(@TempDir Path dir) throws IOException {
		GitConfig config = GitConfig.read(dir.resolve("no-such-config"));
		assertThat(config.getString("core", null, "bare")).isEmpty();
		assertThat(config.getAll("core", null, "bare")).isEmpty();
		assertThat(config.getBoolean("core", null, "bare")).isEmpty();
		assertThat(config.getLong("core", null, "bare")).isEmpty();
	}

	@Test
	void sectionAndKeyIgnoreCaseButSubsectionDoesNot() throws IOException {
		GitConfig config = GitConfig.parse("[Remote \"Origin\"]\n\tURL = a\n", null);
		assertThat(config.getString("remote", "Origin", "url")).contains("a");
		assertThat(config.getString("REMOTE", "Origin", "Url")).contains("a");
		assertThat(config.getString("remote", "origin", "url")).isEmpty();
		assertThat(config.getString("remote", null, "url")).isEmpty();
	}

	@Test
	void noSubsectionAndEmptySubsectionAreDifferent() throws IOException {
		GitConfig config = GitConfig.parse("[a]\n\tk = plain\n[a \"\"]\n\tk = empty\n", null);
		assertThat(config.getString("a", null, "k")).contains("plain");
		assertThat(config.getString("a", "", "k")).contains("empty");
	}

	@Test
	void lastValueWinsAndGetAllKeepsFileOrder() throws IOException {
		GitConfig config = GitConfig.parse("[a]\n\tk = 1\n[b]\n\tk = x\n[a]\n\tk = 2\n\tK = 3\n", null);
		assertThat(config.getString("a", null, "k")).contains("3");
		assertThat(config.getAll("a", null, "k")).containsExactly("1", "2", "3");
		assertThat(config.getLong("a", null, "k")).hasValue(3);
	}

	@Test
	void laterConfigWinsWhenCombined() throws IOException {
		GitConfig global = GitConfig.parse("[user]\n\tname = Global\n\temail = g@example.com\n", null);
		GitConfig local = GitConfig.parse("[user]\n\tname = Local\n", null);
		GitConfig both = global.with(local);
		assertThat(both.getString("user", null, "name")).contains("Local");
		assertThat(both.getString("user", null, "email")).contains("g@example.com");
		assertThat(both.getAll("user", null, "name")).containsExactly("Global", "Local");
	}

	@Test
	void includeIsNotFollowed(@TempDir Path dir) throws IOException {
		Path included = dir.resolve("included");
		Files.writeString(included, "[user]\n\tname = Included\n");
		Path main = dir.resolve("config");
		Files.writeString(main, "[include]\n\tpath = " + included + "\n");
		GitConfig config = GitConfig.read(main);
		assertThat(config.getString("user", null, "name")).isEmpty();
		assertThat(config.getString("include", null, "path")).contains(included.toString());
	}

	@Test
	void malformedTextNamesSourceAndLine() {
		Path source = Path.of("/some/repo/.git/config");
		assertThatThrownBy(() -> GitConfig.parse("[core]\n\tbare = true\n\tbad key = 1\n", source))
			.isInstanceOfSatisfying(ConfigException.class, (ex) -> {
				assertThat(ex.file()).isEqualTo(source);
				assertThat(ex.line()).isEqualTo(3);
			})
			.hasMessageContaining("bad config line 3")
			.hasMessageContaining("file /some/repo/.git/config, line 3")
			.hasMessageContaining("'bad'");
	}

	@Test
	void textWithoutSourceSaysSo() {
		assertThatThrownBy(() -> GitConfig.parse("[core\n", null)).isInstanceOf(ConfigException.class)
			.hasMessageContaining("config text, line 1");
	}

	@Test
	void badValuesNameKeyValueAndPlace() throws IOException {
		GitConfig config = GitConfig.parse("[core]\n\tbare = maybe\n\tbigFileThreshold = 12q\n", Path.of("cfg"));
		assertThatThrownBy(() -> config.getBoolean("core", null, "bare")).isInstanceOf(IllegalArgumentException.class)
			.hasMessage("bad boolean config value 'maybe' for 'core.bare'");
		assertThatThrownBy(() -> config.getLong("core", null, "bigfilethreshold"))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessage("bad numeric config value '12q' for 'core.bigfilethreshold' in file cfg: invalid unit");
		GitConfig numbers = GitConfig.parse("[n]\n\tneg = -1\n\tbig = 99999999999999999999\n\tk = 2k\n", null);
		assertThat(numbers.getLong("n", null, "neg")).hasValue(-1);
		assertThat(numbers.getUnsignedLong("n", null, "k")).hasValue(2048);
		assertThatThrownBy(() -> numbers.getUnsignedLong("n", null, "neg"))
			.hasMessage("bad numeric config value '-1' for 'n.neg': invalid unit");
		assertThatThrownBy(() -> numbers.getLong("n", null, "big"))
			.hasMessage("bad numeric config value '99999999999999999999' for 'n.big': out of range");
		assertThatThrownBy(() -> config.getUnsignedLong("core", null, "bigfilethreshold"))
			.hasMessage("bad numeric config value '12q' for 'core.bigfilethreshold' in file cfg: invalid unit");
	}

	@Test
	void valuelessKeyIsTrueAndReadsAsEmptyString() throws IOException {
		GitConfig config = GitConfig.parse("[core]\n\tbare\n", null);
		assertThat(config.getBoolean("core", null, "bare")).contains(true);
		assertThat(config.getString("core", null, "bare")).contains("");
		assertThat(config.getAll("core", null, "bare")).isEqualTo(List.of(""));
		// git reads a missing number as an empty one
		assertThatThrownBy(() -> config.getLong("core", null, "bare")).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("bad numeric config value '' for 'core.bare'");
	}

}
