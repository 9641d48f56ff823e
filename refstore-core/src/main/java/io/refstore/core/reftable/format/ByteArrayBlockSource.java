package io.refstore.core.reftable.format;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A table held in a byte array, handed out without copying.
 */
final class ByteArrayBlockSource implements BlockSource {

	private final byte[] data;

	private final Path name;

	ByteArrayBlockSource(byte[] data, Path name) {
		this.data = Objects.requireNonNull(data, "data");
		this.name = Objects.requireNonNull(name, "name");
	}

	@Override
	public Path name() {
		return this.name;
	}

	@Override
	public long size() {
		return this.data.length;
	}

	@Override
	public ByteBuffer read(long offset, int length) {
		if (offset < 0 || offset > this.data.length || length < 0) {
			throw new IllegalArgumentException("read of " + length + " bytes at " + offset + " outside "
					+ this.data.length + " bytes of " + this.name);
		}
		int n = (int) Math.min(length, this.data.length - offset);
		return ByteBuffer.wrap(this.data, (int) offset, n).slice();
	}

	@Override
	public void close() {
	}

}
