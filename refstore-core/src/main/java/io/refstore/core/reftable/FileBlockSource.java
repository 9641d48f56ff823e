package io.refstore.core.reftable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import io.refstore.core.io.MemoryMaps;
import io.refstore.core.reftable.format.BlockSource;

/**
 * A table file, memory-mapped when it fits one mapping and its file system allows
 * ({@link MemoryMaps}), otherwise read with positioned reads. The size is taken once at
 * open: tables never change after they are written.
 */
final class FileBlockSource implements BlockSource {

	private final Path file;

	private final FileChannel channel;

	private final long size;

	private final MappedByteBuffer map;

	private FileBlockSource(Path file, FileChannel channel, long size, MappedByteBuffer map) {
		this.file = file;
		this.channel = channel;
		this.size = size;
		this.map = map;
	}

	/**
	 * Opens a table file, memory-mapped where {@link MemoryMaps#mayMap} allows. Either
	 * way it stays readable after a compaction unlinks it.
	 * @throws IOException if the file cannot be opened
	 */
	static FileBlockSource open(Path file) throws IOException {
		return open(file, MemoryMaps.mayMap(file));
	}

	/**
	 * Opens a table file, memory-mapped if {@code map} says so (read through the channel
	 * if it is larger than 2 GiB), else read through the channel, which {@link #close}
	 * closes.
	 * @throws IOException if the file cannot be opened
	 */
	static FileBlockSource open(Path file, boolean map) throws IOException {
		FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
		try {
			long size = channel.size();
			MappedByteBuffer mapping = (map && size > 0 && size <= Integer.MAX_VALUE)
					? channel.map(FileChannel.MapMode.READ_ONLY, 0, size) : null;
			return new FileBlockSource(file, channel, size, mapping);
		}
		catch (IOException | RuntimeException ex) {
			channel.close();
			throw ex;
		}
	}

	@Override
	public Path name() {
		return this.file;
	}

	@Override
	public long size() {
		return this.size;
	}

	@Override
	public ByteBuffer read(long offset, int length) throws IOException {
		if (offset < 0 || offset > this.size || length < 0) {
			throw new IllegalArgumentException(
					"read of " + length + " bytes at " + offset + " outside " + this.size + " bytes of " + this.file);
		}
		int n = (int) Math.min(length, this.size - offset);
		if (this.map != null) {
			return this.map.slice((int) offset, n);
		}
		ByteBuffer buf = ByteBuffer.allocate(n);
		while (buf.hasRemaining()) {
			if (this.channel.read(buf, offset + buf.position()) < 0) {
				throw new IOException(this.file + ": file shrank while reading at offset " + (offset + buf.position()));
			}
		}
		return buf.flip();
	}

	@Override
	public void close() throws IOException {
		this.channel.close();
	}

}
