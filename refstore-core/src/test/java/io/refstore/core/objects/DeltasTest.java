package io.refstore.core.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * Delta application on hand-built deltas: every copy-instruction field width, inserts,
 * the 0x10000 size rule, and the malformed cases, each reported with the pack and offset.
 */
class DeltasTest {

	private static final Path PACK = Path.of("pack-test.pack");

	@Test
	void copiesAndInsertsRebuildTheTarget() throws Exception {
		byte[] base = bytes("0123456789abcdef");
		byte[] delta = delta(base.length, 12, copy(10, 6), insert("--"), copy(0, 4));
		assertThat(new String(Deltas.apply(base, delta, PACK, 99), StandardCharsets.US_ASCII))
			.isEqualTo("abcdef--0123");
	}

	@Test
	void copyWithAllOffsetAndSizeBytes() throws Exception {
		byte[] base = new byte[0x01020304 + 0x10];
		base[0x01020304] = 42;
		// offset bytes 04 03 02 01 and size bytes 05 00 00: every field present
		byte[] delta = delta(base.length, 5, new byte[] { (byte) 0xff, 0x04, 0x03, 0x02, 0x01, 0x05, 0x00, 0x00 });
		assertThat(Deltas.apply(base, delta, PACK, 0)).containsExactly(42, 0, 0, 0, 0);
	}

	@Test
	void copySizeZeroMeans64KiB() throws Exception {
		byte[] base = new byte[0x10000];
		base[0xffff] = 7;
		byte[] delta = delta(base.length, 0x10000, new byte[] { (byte) 0x80 });
		byte[] out = Deltas.apply(base, delta, PACK, 0);
		assertThat(out).hasSize(0x10000);
		assertThat(out[0xffff]).isEqualTo((byte) 7);
	}

	@Test
	void baseOfTheWrongSizeIsRefused() {
		byte[] delta = delta(5, 1, insert("x"));
		assertThatThrownBy(() -> Deltas.apply(bytes("four"), delta, PACK, 1234))
			.isInstanceOf(CorruptObjectException.class)
			.hasMessageContaining("pack-test.pack")
			.hasMessageContaining("offset 1234")
			.hasMessageContaining("base of 5 bytes");
	}

	@Test
	void copyBeyondTheBaseIsRefused() {
		byte[] delta = delta(4, 4, copy(2, 4));
		assertThatThrownBy(() -> Deltas.apply(bytes("abcd"), delta, PACK, 0)).isInstanceOf(CorruptObjectException.class)
			.hasMessageContaining("outside its base");
	}

	@Test
	void reservedInstructionIsRefused() {
		byte[] delta = delta(4, 1, new byte[] { 0 });
		assertThatThrownBy(() -> Deltas.apply(bytes("abcd"), delta, PACK, 0)).isInstanceOf(CorruptObjectException.class)
			.hasMessageContaining("reserved instruction 0");
	}

	@Test
	void resultShorterThanDeclaredIsRefused() {
		byte[] delta = delta(4, 3, insert("ab"));
		assertThatThrownBy(() -> Deltas.apply(bytes("abcd"), delta, PACK, 0)).isInstanceOf(CorruptObjectException.class)
			.hasMessageContaining("produced 2 bytes");
	}

	@Test
	void cutOffDeltaIsRefused() {
		byte[] delta = delta(4, 3, new byte[] { (byte) 0x91, 0x01 });
		assertThatThrownBy(() -> Deltas.apply(bytes("abcd"), delta, PACK, 0)).isInstanceOf(CorruptObjectException.class)
			.hasMessageContaining("cut off");
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

	private static byte[] delta(long baseSize, long resultSize, byte[]... instructions) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		varint(out, baseSize);
		varint(out, resultSize);
		for (byte[] instruction : instructions) {
			out.writeBytes(instruction);
		}
		return out.toByteArray();
	}

	private static void varint(ByteArrayOutputStream out, long value) {
		long rest = value;
		while (rest >= 0x80) {
			out.write((int) (rest & 0x7f) | 0x80);
			rest >>>= 7;
		}
		out.write((int) rest);
	}

	/** A copy instruction with one offset byte and one size byte (both below 256). */
	private static byte[] copy(int offset, int size) {
		return new byte[] { (byte) (0x80 | 0x01 | 0x10), (byte) offset, (byte) size };
	}

	private static byte[] insert(String text) {
		byte[] data = bytes(text);
		byte[] instruction = new byte[data.length + 1];
		instruction[0] = (byte) data.length;
		System.arraycopy(data, 0, instruction, 1, data.length);
		return instruction;
	}

}
