package io.refstore.core.ref;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Expectations follow git's wildmatch with {@code WM_PATHNAME}; {@code DeleteSelectionIT}
 * checks the same patterns against {@code git for-each-ref}.
 */
class WildmatchPatternTest {

	private static boolean matches(String pattern, String text) {
		byte[] t = text.getBytes(StandardCharsets.UTF_8);
		return Wildmatch.matches(pattern.getBytes(StandardCharsets.UTF_8), t, t.length);
	}

	private static String problem(String pattern) {
		return Wildmatch.problem(pattern.getBytes(StandardCharsets.UTF_8));
	}

	@ParameterizedTest(name = "{0} matches {1}")
	@CsvSource(delimiter = ' ',
			value = { "refs/heads/x refs/heads/x", "refs/heads/* refs/heads/topic", "refs/heads/* refs/heads/",
					"refs/*/x refs/tags/x", "refs/heads/t?pic refs/heads/topic", "refs/**/x refs/x",
					"refs/**/x refs/a/b/c/x", "refs/** refs/a/b", "**/x refs/heads/x", "**/x x", "** refs/a/b",
					"refs/**/b/**/d refs/b/d", "refs/**/b/**/d refs/a/b/c/d", "refs/a**b refs/axxb",
					"refs/pull/*/head refs/pull/12/head", "refs/tags/v[0-9].* refs/tags/v1.0",
					"refs/tags/v[!0-9]* refs/tags/vx", "refs/tags/v[^0-9]* refs/tags/vx", "refs/tags/[]]x refs/tags/]x",
					"refs/tags/[]-a]x refs/tags/^x", "refs/tags/[a-]x refs/tags/-x",
					"refs/tags/[[:upper:]]x refs/tags/Qx", "refs/tags/[[:xdigit:][:punct:]]x refs/tags/_x",
					"refs/tags/[[:x]x refs/tags/:x", "refs/tags/[\\]]x refs/tags/]x", "refs/tags/[a\\-c]x refs/tags/-x",
					"refs/tags/\\*x refs/tags/*x", "refs/tags/*a*a*a*b refs/tags/aaaaaaaaaaaaab",
					"refs/heads/caf* refs/heads/café", "refs/heads/caf?? refs/heads/café" })
	void globMatches(String pattern, String text) {
		assertThat(matches(pattern, text)).isTrue();
	}

	@ParameterizedTest(name = "{0} does not match {1}")
	@CsvSource(delimiter = ' ',
			value = { "refs/heads/* refs/heads/a/b", "refs/*/x refs/a/b/x", "refs/heads/t?pic refs/heads/t/pic",
					"refs/heads refs/heads/x", "refs/a**b refs/a/b", "refs/heads/[/]x refs/heads//x",
					"refs/heads/[!a]x refs/heads//x", "refs/tags/v[0-9]* refs/tags/vx", "refs/tags/x refs/tags/X",
					"refs/**/x refs/ax", "refs/tags/*a*a*a*b refs/tags/aaaaaaaaaaaaaa", "refs/tags/*/b refs/tags/a/x/b",
					"refs/tags/x? refs/tags/x", "refs/heads/caf? refs/heads/café" })
	void globDoesNotMatch(String pattern, String text) {
		assertThat(matches(pattern, text)).isFalse();
	}

	@ParameterizedTest(name = "{0} is refused")
	@CsvSource(delimiter = ' ', value = { "refs/heads/[a", "refs/heads/[]", "refs/heads/[!]", "refs/heads/x\\",
			"refs/heads/[[:nope:]]", "refs/heads/[[::]]" })
	void malformedGlobsAreRefused(String pattern) {
		assertThat(problem(pattern)).isNotNull();
	}

	@ParameterizedTest(name = "{0} is well formed")
	@CsvSource(delimiter = ' ',
			value = { "refs/heads/[]]", "refs/heads/[[:x]", "refs/heads/\\[", "refs/**", "refs/heads/[[:alpha:]-]" })
	void wellFormedGlobsAreAccepted(String pattern) {
		assertThat(problem(pattern)).isNull();
	}

}
