package io.refstore.core.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.refstore.core.cli.env.CommandFailure;

class OptionsTest {

	private static Options options() {
		return new Options("refstore demo [<options>] <args>...").flag('q', "quiet", "be quiet")
			.flag('d', "dereference", "dereference tags")
			.flag((char) 0, "verify", "verify strictly")
			.flag((char) 0, "prune", "prune (default)")
			.value('m', null, "reason", "reason of the update")
			.value((char) 0, "format", "format", "format to use for the output")
			.optionalValue('s', "hash", "n", "only show hashes");
	}

	private static Options.Parsed parse(String... args) throws CommandFailure {
		return options().parse(List.of(args));
	}

	@Test
	void longAndShortFlagsAreFoundInAnyOrderAmongArguments() throws CommandFailure {
		Options.Parsed parsed = parse("a", "--quiet", "b", "-d");
		assertThat(parsed.flag("quiet")).isTrue();
		assertThat(parsed.flag("dereference")).isTrue();
		assertThat(parsed.flag("verify")).isFalse();
		assertThat(parsed.args()).containsExactly("a", "b");
	}

	@Test
	void bundledShortFlagsAreSplit() throws CommandFailure {
		Options.Parsed parsed = parse("-qd");
		assertThat(parsed.flag("quiet")).isTrue();
		assertThat(parsed.flag("dereference")).isTrue();
	}

	@Test
	void shortValueMayBeStuckOnOrSeparate() throws CommandFailure {
		assertThat(parse("-mhello").value("m")).isEqualTo("hello");
		assertThat(parse("-m", "hello world").value("m")).isEqualTo("hello world");
		assertThat(parse("-qmmsg").value("m")).isEqualTo("msg");
	}

	@Test
	void longValueMayFollowAnEqualsSignOrComeNext() throws CommandFailure {
		assertThat(parse("--format=%(refname)").value("format")).isEqualTo("%(refname)");
		assertThat(parse("--format", "%(refname)").value("format")).isEqualTo("%(refname)");
		assertThat(parse("--format=").value("format")).isEmpty();
	}

	@Test
	void optionalValueIsOnlyTakenWhenStuckOn() throws CommandFailure {
		Options.Parsed bare = parse("--hash", "main");
		assertThat(bare.given("hash")).isTrue();
		assertThat(bare.value("hash")).isNull();
		assertThat(bare.args()).containsExactly("main");
		assertThat(parse("--hash=8").value("hash")).isEqualTo("8");
		assertThat(parse("-s8").value("hash")).isEqualTo("8");
		assertThat(parse("-s").given("hash")).isTrue();
	}

	@Test
	void repeatedValuesAreKeptInOrderAndTheLastWins() throws CommandFailure {
		Options.Parsed parsed = parse("--format=a", "--format=b");
		assertThat(parsed.values("format")).containsExactly("a", "b");
		assertThat(parsed.value("format")).isEqualTo("b");
	}

	@Test
	void unambiguousPrefixesOfLongNamesAreAccepted() throws CommandFailure {
		assertThat(parse("--verif").flag("verify")).isTrue();
		assertThat(parse("--form=x").value("format")).isEqualTo("x");
	}

	@Test
	void negationTurnsAFlagOffAndClearsAValue() throws CommandFailure {
		assertThat(parse("--no-prune").flag("prune", true)).isFalse();
		assertThat(parse("--prune").flag("prune", false)).isTrue();
		assertThat(parse("--quiet", "--no-quiet").flag("quiet")).isFalse();
		assertThat(parse("--format=a", "--no-format").given("format")).isFalse();
	}

	@Test
	void doubleDashEndsOptions() throws CommandFailure {
		Options.Parsed parsed = parse("-q", "--", "--verify", "-d");
		assertThat(parsed.flag("verify")).isFalse();
		assertThat(parsed.args()).containsExactly("--verify", "-d");
	}

	@Test
	void singleDashIsAnArgument() throws CommandFailure {
		assertThat(parse("-").args()).containsExactly("-");
	}

	@Test
	void unknownLongOptionIsAUsageErrorNamingIt() {
		assertThatThrownBy(() -> parse("--bogus")).isInstanceOfSatisfying(CommandFailure.class, (failure) -> {
			assertThat(failure.exitCode()).isEqualTo(129);
			assertThat(failure.text()).startsWith("error: unknown option `bogus'\nusage: refstore demo");
			assertThat(failure.toStdout()).isFalse();
		});
	}

	@Test
	void anOptionWithoutNegationRefusesItsNoForm() throws CommandFailure {
		Options options = new Options("refstore refs migrate --ref-format=<format>")
			.value((char) 0, "ref-format", "format", "the format")
			.noNegation("ref-format");
		assertThat(options.parse(List.of("--ref-format=files")).value("ref-format")).isEqualTo("files");
		assertThatThrownBy(() -> options.parse(List.of("--no-ref-format"))).isInstanceOfSatisfying(CommandFailure.class,
				(failure) -> {
					assertThat(failure.exitCode()).isEqualTo(129);
					assertThat(failure.text()).startsWith("error: unknown option `no-ref-format'\nusage: ");
				});
	}

	@Test
	void unknownSwitchIsAUsageErrorNamingIt() {
		assertThatThrownBy(() -> parse("-qx")).isInstanceOfSatisfying(CommandFailure.class,
				(failure) -> assertThat(failure.text()).startsWith("error: unknown switch `x'\n"));
	}

	@Test
	void missingValuesAreUsageErrors() {
		assertThatThrownBy(() -> parse("--format")).isInstanceOfSatisfying(CommandFailure.class, (failure) -> {
			assertThat(failure.exitCode()).isEqualTo(129);
			// git names the mistake alone, without the usage
			assertThat(failure.text()).isEqualTo("error: option `format' requires a value\n");
		});
		assertThatThrownBy(() -> parse("-m")).isInstanceOfSatisfying(CommandFailure.class, (failure) -> {
			assertThat(failure.exitCode()).isEqualTo(129);
			assertThat(failure.text()).isEqualTo("error: switch `m' requires a value\n");
		});
	}

	@Test
	void flagGivenAValueIsAUsageError() {
		assertThatThrownBy(() -> parse("--quiet=yes")).isInstanceOfSatisfying(CommandFailure.class,
				(failure) -> assertThat(failure.text()).isEqualTo("error: option `quiet' takes no value\n"));
	}

	@Test
	void ambiguousPrefixIsAUsageError() {
		Options options = new Options("x").flag((char) 0, "verify", "v").flag((char) 0, "version", "w");
		assertThatThrownBy(() -> options.parse(List.of("--ver"))).isInstanceOfSatisfying(CommandFailure.class,
				(failure) -> assertThat(failure.text())
					.startsWith("error: ambiguous option: ver (could be --verify or --version)\nusage: x\n"));
	}

	@Test
	void dashHPrintsUsageOnStandardOutput() {
		assertThatThrownBy(() -> parse("a", "-h")).isInstanceOfSatisfying(CommandFailure.class, (failure) -> {
			assertThat(failure.exitCode()).isEqualTo(129);
			assertThat(failure.toStdout()).isTrue();
			assertThat(failure.text()).startsWith("usage: refstore demo");
		});
	}

	@Test
	void usageListsEveryOptionInGitsLayout() {
		String usage = new Options("refstore pack-refs [--all] [--no-prune]", "refstore pack-refs --help")
			.flag((char) 0, "all", "pack everything")
			.value('m', null, "reason", "reason of the update")
			.optionalValue('s', "hash", "n", "only show SHA1 hash using <n> digits")
			.flag((char) 0, "a-very-long-option-name", "explained below")
			.flag((char) 0, "no-reflog", "drop reflogs")
			.value((char) 0, "ref-format", "format", "one column over")
			.noNegation("ref-format")
			.usage();
		assertThat(usage).isEqualTo("""
				usage: refstore pack-refs [--all] [--no-prune]
				   or: refstore pack-refs --help

				    --[no-]all            pack everything
				    -m <reason>           reason of the update
				    -s, --[no-]hash[=<n>] only show SHA1 hash using <n> digits
				    --[no-]a-very-long-option-name
				                          explained below
				    --no-reflog           drop reflogs
				    --ref-format <format> one column over

				""");
	}

}
