package io.refstore.core.delete;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.refstore.core.ref.RefName;
import io.refstore.core.ref.Wildmatch;

class RefSelectionTest {

	private static boolean selects(RefSelection selection, String name) {
		byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
		return selection.matchesPattern(bytes, bytes.length) && !selection.excluded(bytes, bytes.length);
	}

	@Test
	void prefixesCompareBytesAndExclusionsUseForEachRefRules() {
		RefSelection selection = RefSelection.builder()
			.prefix("refs/heads/tmp")
			.glob("refs/tags/v1.*")
			.exclude("refs/heads/tmp/keep")
			.build();
		assertThat(selects(selection, "refs/heads/tmpx")).isTrue();
		assertThat(selects(selection, "refs/heads/tmp/a/b")).isTrue();
		assertThat(selects(selection, "refs/heads/tmp/keep")).isFalse();
		assertThat(selects(selection, "refs/heads/tmp/keep/below")).isFalse();
		assertThat(selects(selection, "refs/heads/tmp/keeper")).isTrue();
		assertThat(selects(selection, "refs/tags/v1.2")).isTrue();
		assertThat(selects(selection, "refs/tags/v1.2/x")).isFalse();
		assertThat(selects(selection, "refs/tags/v2.0")).isFalse();
	}

	@Test
	void scanPrefixesAreSortedDisjointAndCoverEveryPattern() {
		RefSelection selection = RefSelection.builder()
			.prefix("refs/heads/tmp/")
			.prefix("refs/heads/")
			.glob("refs/tags/v[0-9]*")
			.glob("refs/pull/*/head")
			.glob("refs/heads/x*")
			.build();
		assertThat(selection.scanPrefixes()).containsExactly("refs/heads/", "refs/pull/", "refs/tags/v");
		assertThat(RefSelection.builder().glob("*/heads/*").prefix("refs/x").build().scanPrefixes())
			.containsExactly("refs/");
	}

	@Test
	void literalPrefixOfAGlobNeverCutsACharacter() {
		RefPattern pattern = RefPattern.parse("glob", "refs/heads/caf\u00e9*");
		assertThat(pattern.literalPrefix()).isEqualTo("refs/heads/caf\u00e9");
	}

	@Test
	void namesAreSortedBytewiseAndDistinct() {
		RefSelection selection = RefSelection.builder()
			.name("refs/heads/\u00e9")
			.name("refs/heads/z")
			.name("refs/heads/Z")
			.name("refs/heads/z")
			.build();
		assertThat(selection.nameCount()).isEqualTo(3);
		assertThat(new String(selection.names()[0], StandardCharsets.UTF_8)).isEqualTo("refs/heads/Z");
		assertThat(new String(selection.names()[2], StandardCharsets.UTF_8)).isEqualTo("refs/heads/\u00e9");
	}

	@Test
	void badValuesAreRefusedNamingTheParameter() {
		assertThatThrownBy(() -> RefSelection.builder().glob("refs/heads/[a"))
			.isInstanceOf(InvalidSelectionException.class)
			.hasMessage("glob 'refs/heads/[a': '[' at offset 11 has no closing ']'");
		assertThatThrownBy(() -> RefSelection.builder().exclude("heads/*"))
			.hasMessageStartingWith("exclude 'heads/*': it can never match");
		assertThatThrownBy(() -> RefSelection.builder().exclude("")).hasMessage("exclude '': the pattern is empty");
		assertThatThrownBy(() -> RefSelection.builder().prefix("heads/"))
			.hasMessage("prefix 'heads/': it must start with 'refs/'");
		assertThatThrownBy(() -> RefSelection.builder().name("refs/heads/a..b"))
			.hasMessage("name 'refs/heads/a..b': not a valid ref name: it contains '..'");
		assertThatThrownBy(() -> RefSelection.builder().name("HEAD"))
			.hasMessage("name 'HEAD': only refs under 'refs/' can be deleted");
		for (String path : List.of("objects/bf/1730de00112233445566778899aabbccddeeff", "logs/refs/heads/main",
				"objects/info/alternates", "foo/bar", "config", "-refs/heads/x")) {
			assertThatThrownBy(() -> RefSelection.builder().name(path)).hasMessage(
					"name '" + path + "': not a valid ref name: " + RefName.writableViolation(path).description());
		}
		assertThatThrownBy(() -> RefSelection.builder().exclude("refs/heads/x").build())
			.hasMessage("selection '': no prefix, glob, name or namespace given");
	}

	@Test
	void patternsAreLimitedInLengthAndNumber() {
		String longest = "refs/heads/" + "*/".repeat(506) + "x";
		assertThat(longest).hasSize(Wildmatch.MAX_PATTERN_BYTES);
		assertThat(RefSelection.builder().glob(longest).build().globs()).containsExactly(longest);
		assertThatThrownBy(() -> RefSelection.builder().glob(longest + "y"))
			.hasMessageEndingWith(": it is 1025 bytes long; a pattern may have at most 1024");
		assertThatThrownBy(() -> RefSelection.builder().exclude("refs/" + "\u00e9".repeat(510)))
			.hasMessageStartingWith("exclude 'refs/")
			.hasMessageEndingWith(": it is 1025 bytes long; a pattern may have at most 1024");
		RefSelection.Builder builder = RefSelection.builder();
		for (int i = 0; i < RefSelection.MAX_PATTERNS; i++) {
			builder.glob("refs/heads/" + i + "/*").exclude("refs/heads/" + i + "/keep");
		}
		assertThat(builder.build().globs()).hasSize(RefSelection.MAX_PATTERNS);
		assertThatThrownBy(() -> builder.glob("refs/heads/x*"))
			.hasMessage("glob 'refs/heads/x*': a selection takes at most 100 patterns of each kind");
		assertThatThrownBy(() -> builder.exclude("refs/heads/x"))
			.hasMessage("exclude 'refs/heads/x': a selection takes at most 100 patterns of each kind");
	}

}
