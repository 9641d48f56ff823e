package io.refstore.core.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Reads and writes whole files through heap arrays a slice at a time.
 *
 * <p>
 * The JDK moves a heap buffer's bytes through a temporary direct buffer as large as the
 * buffer handed to the channel, and keeps that direct buffer cached in the calling
 * thread. {@code Files.readAllBytes} on a 40 MB {@code packed-refs} thus allocates (and
 * faults in) 40 MB of native memory in every thread that reads it once, and keeps it for
 * the thread's life: a fresh thread paid ~30 ms more for a full read than a thread that
 * had read before, and a web server's worker threads would each keep a copy. In slices of
 * {@value #SLICE} bytes the temporary buffer stays that small.
 */
public final class FileBytes {

	/** The most bytes one read or write call moves. */
	static final int SLICE = 1 << 20;

	/** The largest array this reads into. */
	private static final int MAX = Integer.MAX_VALUE - 8;

	private FileBytes() {
	}

	/**
	 * Reads all of {@code file}, as {@code Files.readAllBytes} does (a file that grows
	 * while it is read is read to its end).
	 * @throws java.nio.file.NoSuchFileException if it does not exist
	 */
	public static byte[] read(Path file) throws IOException {
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			long size = channel.size();
			if (size > MAX) {
				throw new IOException("'" + file + "' is too large to read whole (" + size + " bytes)");
			}
			byte[] buf = new byte[(int) size];
			int length = 0;
			while (true) {
				while (length < buf.length) {
					int read = channel.read(ByteBuffer.wrap(buf, length, Math.min(SLICE, buf.length - length)));
					if (read < 0) {
						return Arrays.copyOf(buf, length);
					}
					length += read;
				}
				// as long as it was when opened: one byte more tells whether it grew
				// meanwhile
				ByteBuffer probe = ByteBuffer.allocate(1);
				if (channel.read(probe) <= 0) {
					return buf;
				}
				if (buf.length >= MAX) {
					throw new IOException("'" + file + "' is too large to read whole");
				}
				buf = Arrays.copyOf(buf, (int) Math.min(MAX, Math.max(8192, 2L * buf.length)));
				buf[length++] = probe.get(0);
			}
		}
	}

	/**
	 * Writes the first {@code length} bytes of {@code content} to {@code channel} at its
	 * position.
	 */
	public static void write(FileChannel channel, byte[] content, int length) throws IOException {
		for (int at = 0; at < length;) {
			at += channel.write(ByteBuffer.wrap(content, at, Math.min(SLICE, length - at)));
		}
	}

}
