package io.refstore.core.ref;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PersonIdent}'s time zone text, as git writes it in a reflog line, and its
 * parsing back.
 */
class PersonIdentTest {

	@ParameterizedTest
	@CsvSource({ "0, +0000", "530, +0530", "-800, -0800", "-30, -0030", "1400, +1400", "-1200, -1200", "5, +0005",
			"99999, +99999" })
	void timeZonesAreASignAndAtLeastFourDigits(int offset, String text) {
		assertThat(new PersonIdent("A U Thor", "author@example.com", 0, offset).tzText()).isEqualTo(text);
	}

	@ParameterizedTest
	@CsvSource({ "+0000", "+0530", "-0800", "-0030", "+1400" })
	void aTimeZoneReadsBackAsWritten(String text) {
		assertThat(new PersonIdent("", "", 0, PersonIdent.parseTz(text)).tzText()).isEqualTo(text);
	}

}
