package io.refstore.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class RefPatternsTest {

	private static boolean tail(List<String> patterns, String name) {
		byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
		// a larger buffer with junk after the name, as a cursor hands it out
		byte[] buffer = new byte[bytes.length + 8];
		System.arraycopy(bytes, 0, buffer, 0, bytes.length);
		buffer[bytes.length] = 'x';
		return RefPatterns.of(patterns).matchesTail(buffer, bytes.length);
	}

	private static boolean path(List<String> patterns, String name) {
		byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
		byte[] buffer = new byte[bytes.length + 8];
		System.arraycopy(bytes, 0, buffer, 0, bytes.length);
		buffer[bytes.length] = '/';
		return RefPatterns.of(patterns).matchesPath(buffer, bytes.length);
	}

	@Test
	void tailMatchesWholeComponentsAtTheEnd() {
		assertThat(tail(List.of("main"), "refs/heads/main")).isTrue();
		assertThat(tail(List.of("origin/main"), "refs/remotes/origin/main")).isTrue();
		assertThat(tail(List.of("refs/heads/main"), "refs/heads/main")).isTrue();
		assertThat(tail(List.of("main"), "refs/heads/domain")).isFalse();
		assertThat(tail(List.of("ain"), "refs/heads/main")).isFalse();
		assertThat(tail(List.of("refs/tags"), "refs/tags/v1")).isFalse();
		assertThat(tail(List.of("/main"), "refs/heads/main")).isFalse();
		assertThat(tail(List.of("x/refs/heads/main"), "refs/heads/main")).isFalse();
	}

	@Test
	void anyOfSeveralPatternsMayMatch() {
		assertThat(tail(List.of("nope", "v1"), "refs/tags/v1")).isTrue();
		assertThat(path(List.of("refs/nope", "refs/tags/v*"), "refs/tags/v1")).isTrue();
	}

	@Test
	void noPatternsMatchEverything() {
		assertThat(tail(List.of(), "refs/heads/main")).isTrue();
		assertThat(path(List.of(), "refs/heads/main")).isTrue();
		assertThat(RefPatterns.of(List.of()).isEmpty()).isTrue();
	}

	@Test
	void pathMatchesALiteralPrefixEndingAtASlash() {
		assertThat(path(List.of("refs/tags"), "refs/tags/v1")).isTrue();
		assertThat(path(List.of("refs/tags/"), "refs/tags/v1")).isTrue();
		assertThat(path(List.of("refs/tags/v1"), "refs/tags/v1")).isTrue();
		assertThat(path(List.of("refs/ta"), "refs/tags/v1")).isFalse();
		assertThat(path(List.of("refs/tags"), "refs/tagsx")).isFalse();
		assertThat(path(List.of("refs/tags/v1/"), "refs/tags/v1")).isFalse();
	}

	@Test
	void pathMatchesGlobs() {
		assertThat(path(List.of("refs/tags/v*"), "refs/tags/v1")).isTrue();
		assertThat(path(List.of("refs/*/v1"), "refs/tags/v1")).isTrue();
		assertThat(path(List.of("refs/tags/v*"), "refs/tags/v1/x")).isFalse();
		assertThat(path(List.of("refs/**"), "refs/tags/v1/x")).isTrue();
	}

	@Test
	void commonLiteralPrefixStopsAtTheFirstGlobCharacter() {
		assertThat(RefPatterns.of(List.of("refs/tags/v*")).commonLiteralPrefix()).isEqualTo("refs/tags/v");
		assertThat(RefPatterns.of(List.of("refs/tags")).commonLiteralPrefix()).isEqualTo("refs/tags");
		assertThat(RefPatterns.of(List.of("refs/tags/v?", "refs/tags/x")).commonLiteralPrefix())
			.isEqualTo("refs/tags/");
		assertThat(RefPatterns.of(List.of("refs/heads", "refs/tags")).commonLiteralPrefix()).isEqualTo("refs/");
		assertThat(RefPatterns.of(List.of("refs/a\\*b")).commonLiteralPrefix()).isEqualTo("refs/a");
		assertThat(RefPatterns.of(List.of("*")).commonLiteralPrefix()).isEmpty();
		assertThat(RefPatterns.of(List.of()).commonLiteralPrefix()).isEmpty();
	}

	@Test
	void commonLiteralPrefixNeverSplitsAMultiByteCharacter() {
		// "é" is c3 a9 and "è" is c3 a8: the bytes agree on c3 only
		assertThat(RefPatterns.of(List.of("refs/heads/é", "refs/heads/è")).commonLiteralPrefix())
			.isEqualTo("refs/heads/");
	}

}
