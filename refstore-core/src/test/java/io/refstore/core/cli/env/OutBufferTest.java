package io.refstore.core.cli.env;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

class OutBufferTest {

	@Test
	void bytesArriveInOrderAcrossManyBufferFills() throws IOException {
		ByteArrayOutputStream sink = new ByteArrayOutputStream();
		OutBuffer out = new OutBuffer(sink);
		ByteArrayOutputStream expected = new ByteArrayOutputStream();
		for (int i = 0; i < 50_000; i++) {
			byte[] line = ("refs/heads/branch-" + i + "\n").getBytes(StandardCharsets.US_ASCII);
			out.write(line, 0, line.length);
			expected.write(line);
			out.write('.');
			expected.write('.');
		}
		out.flush();
		assertThat(sink.toByteArray()).isEqualTo(expected.toByteArray());
	}

	@Test
	void writesLargerThanTheBufferPassThrough() throws IOException {
		ByteArrayOutputStream sink = new ByteArrayOutputStream();
		OutBuffer out = new OutBuffer(sink);
		byte[] big = new byte[200_000];
		Arrays.fill(big, (byte) 'x');
		out.write('<');
		out.write(big, 0, big.length);
		out.write('>');
		out.flush();
		assertThat(sink.size()).isEqualTo(big.length + 2);
		assertThat(sink.toByteArray()[0]).isEqualTo((byte) '<');
		assertThat(sink.toByteArray()[big.length + 1]).isEqualTo((byte) '>');
	}

	@Test
	void hexIsLowercaseAndCanBeShortened() throws IOException {
		ObjectId id = ObjectId.fromHex(HashAlgorithm.SHA1, "08E550BFF6B1F03289F0171A78C97939358B06D7");
		ByteArrayOutputStream sink = new ByteArrayOutputStream();
		OutBuffer out = new OutBuffer(sink);
		out.writeHex(id, 40);
		out.write(' ');
		out.writeHex(id.toRaw(), 20, 7);
		out.flush();
		assertThat(sink.toString(StandardCharsets.US_ASCII))
			.isEqualTo("08e550bff6b1f03289f0171a78c97939358b06d7 08e550b");
	}

	@Test
	void closedReaderIsRememberedAsAFailure() throws IOException {
		PipedInputStream reader = new PipedInputStream();
		OutBuffer out = new OutBuffer(new PipedOutputStream(reader));
		reader.close();
		out.write("some output");
		assertThat(out.failed()).isFalse();
		assertThatThrownBy(out::flush).isInstanceOf(IOException.class);
		assertThat(out.failed()).isTrue();
		assertThatThrownBy(() -> out.write(new byte[100_000], 0, 100_000)).isInstanceOf(IOException.class);
	}

}
