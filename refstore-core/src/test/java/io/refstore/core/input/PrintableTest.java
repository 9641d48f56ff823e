package io.refstore.core.input;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * User text made safe to show: control characters escaped, and an excerpt that keeps
 * {@value Printable#EXCERPT} characters and states how many it cut.
 */
class PrintableTest {

	@Test
	void escapesControlCharactersAndKeepsEverythingElse() {
		assertThat(Printable.of("a\nb\u007fc\u00e9")).isEqualTo("a\\x0ab\\x7fc\u00e9");
		assertThat(Printable.of(null)).isEqualTo("null");
		assertThat(Printable.of("x".repeat(5000))).hasSize(5000);
	}

	@Test
	void anExcerptKeepsShortTextWholeAndCutsLongTextStatingTheCut() {
		assertThat(Printable.excerpt("x".repeat(Printable.EXCERPT))).isEqualTo("x".repeat(Printable.EXCERPT));
		assertThat(Printable.excerpt("y".repeat(1 << 20)))
			.isEqualTo("y".repeat(Printable.EXCERPT) + "… (" + ((1 << 20) - Printable.EXCERPT) + " more characters)");
		// escapes count as shown: 50 escaped newlines fill the excerpt
		assertThat(Printable.excerpt("\n".repeat(60))).isEqualTo("\\x0a".repeat(50) + "… (10 more characters)");
		assertThat(Printable.excerpt(null)).isEqualTo("null");
	}

	@Test
	void aRefusedValueIsShownAsAnExcerpt() {
		RefusedInputException refused = new RefusedInputException("name", "z".repeat(1 << 20), "too long") {
		};
		assertThat(refused.getMessage()).hasSizeLessThan(Printable.EXCERPT + 100)
			.startsWith("parameter 'name' = 'zzz")
			.endsWith(" more characters)' is refused: too long");
		assertThat(refused.value()).hasSize(1 << 20);
	}

}
