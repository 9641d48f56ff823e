package io.refstore.core.reftable.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Function;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import io.refstore.core.ref.CorruptRefStoreException;

/**
 * Inflates log blocks. A log block has no compressed-length field: its zlib stream simply
 * ends, and the next block starts right after it, so the compressed bytes are fed from
 * the source until the stream says it is finished. The output is bounded by the length
 * the block header declares, so damaged data cannot make it grow without limit.
 *
 * <p>
 * Not thread-safe; one per block reader, reused for every log block.
 */
final class LogBlockInflater {

	private final ReftableReader table;

	private final byte[] probe = new byte[1];

	private Inflater inflater;

	private byte[] inflated = new byte[0];

	private long consumed;

	LogBlockInflater(ReftableReader table) {
		this.table = table;
	}

	/**
	 * Inflates one log block.
	 * @param data the bytes read at the block's start, at least {@code skip} of them
	 * @param blockOffset the block's file offset
	 * @param skip bytes kept uncompressed: the block header, and the file header before
	 * it in the first block
	 * @param blockLen the inflated length the block header declares, {@code skip}
	 * included
	 * @param dataEnd the end of the blocks, which the compressed data may not pass
	 * @param corrupt makes the exception for damage found, naming the block
	 * @return the inflated image, valid in {@code [0, blockLen)}, owned by this inflater
	 */
	byte[] inflate(ByteBuffer data, long blockOffset, int skip, int blockLen, long dataEnd,
			Function<String, CorruptRefStoreException> corrupt) throws IOException {
		byte[] image = this.inflated;
		int capacity = Math.min(blockLen, Math.max(skip + 1024, 2 * this.table.blockSize()));
		if (image.length < capacity) {
			image = new byte[capacity];
		}
		for (int i = 0; i < skip; i++) {
			image[i] = data.get(i);
		}
		if (this.inflater == null) {
			this.inflater = new Inflater();
		}
		Inflater z = this.inflater;
		z.reset();
		long inputEnd = blockOffset + skip;
		z.setInput(data.position(skip));
		inputEnd += data.remaining();
		int out = skip;
		int stalls = 0;
		try {
			while (!z.finished()) {
				int n;
				if (out < image.length) {
					n = z.inflate(image, out, image.length - out);
				}
				else if (image.length < blockLen) {
					image = Arrays.copyOf(image, (int) Math.min(blockLen, 2L * image.length));
					continue;
				}
				else if (z.inflate(this.probe, 0, 1) > 0) {
					throw corrupt.apply("log block inflates to more than its length " + blockLen);
				}
				else {
					n = 0;
				}
				out += n;
				if (n > 0) {
					stalls = 0;
				}
				else if (z.needsDictionary()) {
					throw corrupt.apply("log block's compressed data needs a preset dictionary");
				}
				else if (z.needsInput()) {
					if (inputEnd >= dataEnd) {
						throw corrupt.apply("log block's compressed data is truncated");
					}
					ByteBuffer more = this.table.source().read(inputEnd, (int) Math.min(64 * 1024, dataEnd - inputEnd));
					inputEnd += more.remaining();
					z.setInput(more);
				}
				else if (++stalls > 2) {
					throw corrupt.apply("log block's compressed data makes no progress");
				}
			}
		}
		catch (DataFormatException ex) {
			throw corrupt.apply("log block's compressed data is damaged: " + ex.getMessage());
		}
		if (out != blockLen) {
			throw corrupt.apply("log block inflates to " + out + " bytes, its header says " + blockLen);
		}
		this.inflated = image;
		this.consumed = z.getBytesRead();
		return image;
	}

	/** Compressed bytes the last {@link #inflate} consumed. */
	long consumed() {
		return this.consumed;
	}

	void close() {
		if (this.inflater != null) {
			this.inflater.end();
			this.inflater = null;
		}
	}

}
