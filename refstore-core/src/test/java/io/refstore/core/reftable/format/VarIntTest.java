package io.refstore.core.reftable.format;

import static io.refstore.core.reftable.format.Tables.hex;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class VarIntTest {

	@Test
	void encodesTheFactSheetExamples() {
		assertEncoding(0, "00");
		assertEncoding(127, "7f");
		assertEncoding(128, "8000");
		assertEncoding(145, "8011");
		assertEncoding(16511, "ff7f");
		assertEncoding(16512, "808000");
		assertEncoding(1700000000L, "85a9cee100");
	}

	@Test
	void largestUnsignedValueTakesTenBytes() {
		byte[] buf = new byte[VarInt.MAX_LENGTH];
		assertThat(VarInt.encode(-1L, buf, 0, buf.length)).isEqualTo(10);
		assertThat(VarInt.decode(buf, 0)).isEqualTo(-1L);
		assertThat(VarInt.length(-1L)).isEqualTo(10);
	}

	@Test
	void roundTripsRandomValuesOfEveryMagnitude() {
		SplittableRandom random = new SplittableRandom(42);
		byte[] buf = new byte[VarInt.MAX_LENGTH];
		for (int i = 0; i < 100_000; i++) {
			long value = random.nextLong() >>> random.nextInt(64);
			int end = VarInt.encode(value, buf, 0, buf.length);
			assertThat(end).isEqualTo(VarInt.length(value));
			assertThat(VarInt.decode(buf, 0)).isEqualTo(value);
		}
	}

	@Test
	void encodingIsUniqueAndOrderPreservingInLength() {
		// each continuation adds one, so the shortest n-byte value is one more than the
		// longest (n-1)-byte value
		long[] firstOfLength = { 0, 128, 16512, 2113664 };
		for (int n = 1; n < firstOfLength.length; n++) {
			assertThat(VarInt.length(firstOfLength[n] - 1)).isEqualTo(n);
			assertThat(VarInt.length(firstOfLength[n])).isEqualTo(n + 1);
		}
	}

	@Test
	void refusesToWritePastTheLimit() {
		byte[] buf = new byte[4];
		assertThat(VarInt.encode(1700000000L, buf, 0, 4)).isEqualTo(-1);
		assertThat(buf).containsOnly(0);
		assertThat(VarInt.encode(16512, buf, 1, 4)).isEqualTo(4);
	}

	private static void assertEncoding(long value, String hex) {
		byte[] buf = new byte[VarInt.MAX_LENGTH];
		int end = VarInt.encode(value, buf, 0, buf.length);
		assertThat(Arrays.copyOf(buf, end)).isEqualTo(hex(hex));
		assertThat(VarInt.decode(buf, 0)).isEqualTo(value);
	}

}
