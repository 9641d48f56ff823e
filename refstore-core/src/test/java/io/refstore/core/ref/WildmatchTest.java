package io.refstore.core.ref;

import static org.assertj.core.api.Assertions.assertThat;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Expectations follow git's wildmatch with {@code WM_PATHNAME}; {@code ForEachRefIT}
 * checks the same semantics against a real git.
 */
class WildmatchTest {

	private static boolean matches(String pattern, String text) {
		byte[] t = text.getBytes(StandardCharsets.UTF_8);
		return Wildmatch.matches(pattern.getBytes(StandardCharsets.UTF_8), t, t.length);
	}

	@ParameterizedTest(name = "{0} matches {1}")
	@CsvSource(delimiter = ' ', value = { "refs/heads/main refs/heads/main", "refs/heads/* refs/heads/main",
			"refs/*/main refs/heads/main", "refs/heads/ma?n refs/heads/main", "refs/heads/m*n refs/heads/main",
			"refs/heads/* refs/heads/", "refs/**/main refs/heads/main", "refs/**/main refs/remotes/origin/main",
			"refs/**/main refs/main", "refs/** refs/a/b/c", "**/main refs/heads/main", "**/main main", "** refs/x/y",
			"refs/**/b/**/d refs/a/b/c/d", "refs/heads/[mx]ain refs/heads/main", "refs/heads/[a-z]ain refs/heads/main",
			"refs/heads/[!x]ain refs/heads/main", "refs/heads/[^x]ain refs/heads/main", "refs/heads/[]]x refs/heads/]x",
			"refs/heads/[[:alpha:]]ain refs/heads/main", "refs/heads/[[:digit:]x] refs/heads/7",
			"refs/tags/v\\* refs/tags/v*", "refs/tags/\\[x] refs/tags/[x]", "refs/*/*/* refs/a/b/c", "*/*/* refs/a/b",
			"refs/heads/*a*b*c* refs/heads/xaxbxcx", "refs/heads/ü* refs/heads/über" })
	void globMatches(String pattern, String text) {
		assertThat(matches(pattern, text)).isTrue();
	}

	@ParameterizedTest(name = "{0} does not match {1}")
	@CsvSource(delimiter = ' ', value = { "refs/heads/* refs/heads/a/b", "refs/*/main refs/remotes/origin/main",
			"refs/heads/ma?n refs/heads/maiin", "refs/heads/?ain refs/heads//ain", "refs/heads/m*n refs/heads/m/n",
			"refs/heads refs/heads/main", "refs/heads/[!m]ain refs/heads/main", "refs/heads/[a-c]ain refs/heads/main",
			"refs/heads/[/]x refs/heads//x", "refs/heads/[!a]x refs/heads//x", "refs/tags/v\\* refs/tags/v1",
			"refs/heads/[x refs/heads/[x", "refs/heads/[[:bogus:]] refs/heads/a", "**/main refs/heads/domain",
			"refs/**/main refs/heads/xmain", "refs/heads/*a*b*c* refs/heads/xaxbx", "refs/heads/main refs/heads/mainx",
			"*/*/* refs/a/b/c/d", "refs/heads/[a-z] refs/heads/A", "refs/heads/[é]x refs/heads/éx" })
	void globDoesNotMatch(String pattern, String text) {
		assertThat(matches(pattern, text)).isFalse();
	}

	@ParameterizedTest(name = "{0} has glob characters: {1}")
	@CsvSource(delimiter = ' ', value = { "refs/heads/main false", "refs/heads/* true", "refs/heads/a? true",
			"refs/heads/[ab] true", "refs/heads/a\\b true" })
	void globCharactersAreRecognised(String pattern, boolean glob) {
		assertThat(Wildmatch.hasGlob(pattern.getBytes(StandardCharsets.UTF_8))).isEqualTo(glob);
	}

	@ParameterizedTest(name = "{0} stays fast on {1}")
	@CsvSource(delimiter = ' ', value = {
			"*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
			"**/*a*a*a*a*a*a*a*a*a*a*a*b a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" })
	void pathologicalPatternsDoNotBacktrackExponentially(String pattern, String text) {
		long start = System.nanoTime();
		assertThat(matches(pattern, text)).isFalse();
		assertThat(System.nanoTime() - start).isLessThan(2_000_000_000L);
	}

	/**
	 * Patterns whose every split git's backtracking would try: twenty {@code **}{@code /}
	 * over a thousand segments is more than 10^40 splits. Each answer is exact, and all
	 * of them together take milliseconds; the old matcher did not end.
	 */
	@Test
	void pathologicalPatternsCostThePatternTimesTheName() {
		String twentyStars = "**/".repeat(20) + "x";
		String manyA = "*a".repeat(50) + "*b";
		String aSegments = "refs/" + "**/*a*/".repeat(10) + "b";
		String escaped = "**\\/".repeat(20) + "x";
		assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
			assertThat(matches(twentyStars, "a/".repeat(2000) + "y")).isFalse();
			assertThat(matches(twentyStars, "a/".repeat(2000) + "x")).isTrue();
			assertThat(matches(twentyStars, "x")).isTrue();
			assertThat(matches(twentyStars, "a/".repeat(2000) + "xx")).isFalse();
			assertThat(matches("refs/" + twentyStars, "refs/" + "a/".repeat(2000) + "x")).isTrue();
			assertThat(matches(manyA, "a".repeat(4000))).isFalse();
			assertThat(matches(manyA, "a".repeat(4000) + "b")).isTrue();
			assertThat(matches(manyA, "a".repeat(49) + "b")).isFalse();
			assertThat(matches(manyA, "a".repeat(50) + "b")).isTrue();
			assertThat(matches(manyA, "a".repeat(2000) + "/" + "a".repeat(2000) + "b")).isFalse();
			assertThat(matches("**/" + manyA, "a".repeat(2000) + "/" + "a".repeat(2000) + "b")).isTrue();
			assertThat(matches(aSegments, "refs/" + "xa/".repeat(9) + "yy/".repeat(1000) + "b")).isFalse();
			assertThat(matches(aSegments, "refs/" + "xa/yy/".repeat(500) + "xa/".repeat(10) + "b")).isTrue();
			assertThat(matches(aSegments, "refs/" + "xa/yy/".repeat(500) + "b")).isFalse();
			assertThat(matches(aSegments, "refs/" + "yy/".repeat(500) + "xa/yy/".repeat(9) + "xa/b")).isTrue();
			assertThat(matches(aSegments, "refs/" + "xa/".repeat(1000) + "c")).isFalse();
			assertThat(matches(escaped, "a/".repeat(19) + "x")).isFalse();
			assertThat(matches(escaped, "a/".repeat(20) + "x")).isTrue();
			assertThat(matches("?*".repeat(500), "a".repeat(499))).isFalse();
			assertThat(matches("?*".repeat(500), "a".repeat(5000))).isTrue();
			assertThat(matches("?*".repeat(500), "a".repeat(5000) + "/")).isFalse();
		});
	}

	@Test
	void aLongPatternAgainstALongNameIsAnswered() {
		// 1,024-byte patterns, the web's limit, against 4,096-byte names
		String stars = "*[ab]".repeat(204) + "*c";
		String doubles = "**/".repeat(341) + "c";
		assertThat(stars.length()).isLessThanOrEqualTo(Wildmatch.MAX_PATTERN_BYTES);
		assertThat(doubles.length()).isLessThanOrEqualTo(Wildmatch.MAX_PATTERN_BYTES);
		assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
			assertThat(matches(stars, "x".repeat(4095) + "c")).isFalse();
			assertThat(matches(stars, "ab".repeat(2047) + "xc")).isTrue();
			assertThat(matches(doubles, "x/".repeat(2047) + "d")).isFalse();
			assertThat(matches(doubles, "x/".repeat(2047) + "c")).isTrue();
			assertThat(matches(doubles, "x/".repeat(340) + "c")).isTrue();
		});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			value = { "**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/x|x", "refs/heads/*|''",
					"refs/**/main|main", "refs/heads/main|refs/heads/main", "a[bc]d|d", "a[]x]yz|yz",
					"refs/*/v1.0|v1.0", "\\*x|x", "x\\|''", "refs/[|''", "**|''", "a?|''", "a*/b|b" })
	void theRequiredSuffixIsTheLiteralTextAfterTheLastGlobElement(String pattern, String suffix) {
		assertThat(
				new String(Wildmatch.requiredSuffix(pattern.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
			.isEqualTo(suffix);
	}

	@Test
	void longPatternsAreRefusedAsInput() {
		byte[] limit = "refs/heads/*".concat("x".repeat(Wildmatch.MAX_PATTERN_BYTES - 12))
			.getBytes(StandardCharsets.UTF_8);
		byte[] over = "refs/heads/*".concat("x".repeat(Wildmatch.MAX_PATTERN_BYTES - 11))
			.getBytes(StandardCharsets.UTF_8);
		assertThat(Wildmatch.inputProblem(limit)).isNull();
		assertThat(Wildmatch.inputProblem(over)).isEqualTo("it is 1025 bytes long; a pattern may have at most 1024");
		assertThat(Wildmatch.inputProblem("refs/[a".getBytes(StandardCharsets.UTF_8))).contains("no closing ']'");
	}

}
