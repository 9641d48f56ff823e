package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A typed count is read as the console shows counts, and as common locales group them,
 * but only when grouped regularly.
 */
class TypedCountTest {

	@Test
	void acceptsTheCountAsShownAndAsPlainDigits() {
		assertThat(TypedCount.shown(18_373)).isEqualTo("18,373");
		assertThat(TypedCount.confirms("18,373", 18_373)).isTrue();
		assertThat(TypedCount.confirms(" 18373 ", 18_373)).isTrue();
		assertThat(TypedCount.confirms("1,000,000", 1_000_000)).isTrue();
		assertThat(TypedCount.confirms("7", 7)).isTrue();
	}

	@Test
	void acceptsOtherLocalesGroupings() {
		assertThat(TypedCount.confirms("18 373", 18_373)).isTrue();
		assertThat(TypedCount.confirms("18\u00a0373", 18_373)).isTrue();
		assertThat(TypedCount.confirms("18\u202f373", 18_373)).isTrue();
		assertThat(TypedCount.confirms("1'000'000", 1_000_000)).isTrue();
	}

	@Test
	void refusesAnotherCountOrAnIrregularGrouping() {
		assertThat(TypedCount.confirms("18,374", 18_373)).isFalse();
		assertThat(TypedCount.confirms("1,8373", 18_373)).isFalse();
		assertThat(TypedCount.confirms("18,37,3", 18_373)).isFalse();
		assertThat(TypedCount.confirms("1,000 000", 1_000_000)).isFalse();
		assertThat(TypedCount.confirms("18.373", 18_373)).isFalse();
		assertThat(TypedCount.confirms("", 0)).isFalse();
		assertThat(TypedCount.confirms(null, 0)).isFalse();
		assertThat(TypedCount.confirms("99999999999999999999", 1)).isFalse();
	}

}
