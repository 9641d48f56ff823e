package io.refstore.core.ref;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

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

}
