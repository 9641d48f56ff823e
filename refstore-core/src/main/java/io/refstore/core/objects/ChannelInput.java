package io.refstore.core.objects;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads a region of a file channel with positional reads, so that several threads can
 * share the channel.
 */
final class ChannelInput extends InputStream {

	private final FileChannel channel;

	private long position;

	private final long limit;

	ChannelInput(FileChannel channel, long position, long limit) {
		this.channel = channel;
		this.position = position;
		this.limit = limit;
	}

	@Override
	public int read() throws IOException {
		byte[] one = new byte[1];
		return (read(one, 0, 1) < 0) ? -1 : one[0] & 0xff;
	}

	@Override
	public int read(byte[] b, int off, int len) throws IOException {
		int wanted = (int) Math.min(len, this.limit - this.position);
		if (wanted <= 0) {
			return -1;
		}
		int read = this.channel.read(ByteBuffer.wrap(b, off, wanted), this.position);
		if (read > 0) {
			this.position += read;
		}
		return read;
	}

}
