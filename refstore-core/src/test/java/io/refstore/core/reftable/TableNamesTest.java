package io.refstore.core.reftable;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The names {@link ReftableStack} gives its tables, as git names them. */
class TableNamesTest {

	@Test
	void updateIndexesAreTwelveHexDigitsAndTheSuffixEight() {
		for (int i = 0; i < 1000; i++) {
			assertThat(ReftableStack.tableName(1, 0x1a2b3c)).matches("0x000000000001-0x0000001a2b3c-[0-9a-f]{8}");
		}
		assertThat(ReftableStack.tableName(0xffffffffffffL, 0xffffffffffffL))
			.startsWith("0xffffffffffff-0xffffffffffff-");
	}

	@Test
	void hexIsLowercaseAndPaddedAsFormatPadsIt() {
		for (long value : new long[] { 0, 1, 0xabcdef, 0xffffffffL, 0x123456789abcL, Long.MAX_VALUE }) {
			assertThat(ReftableStack.hex(value, 12)).isEqualTo(String.format("%012x", value));
			assertThat(ReftableStack.hex(value, 8)).isEqualTo(String.format("%08x", value));
		}
	}

}
