package io.refstore.core.objects;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Inflating helpers shared by loose objects and packs. Stateless; the caller owns the
 * {@link Inflater}.
 */
final class Zlib {

	private static final int CHUNK = 8192;

	private Zlib() {
	}

	/**
	 * Inflates into {@code out} from index {@code from} until it is full, then checks
	 * that the stream ends there.
	 * @return the index reached: {@code out.length}, less if the stream ended early, or
	 * {@code out.length + 1} if it holds more data than {@code out} can take
	 * @throws DataFormatException if the data is not a zlib stream
	 */
	static int inflateFully(Inflater inflater, InputStream in, byte[] out, int from)
			throws IOException, DataFormatException {
		byte[] input = new byte[CHUNK];
		byte[] extra = new byte[1];
		int done = from;
		while (!inflater.finished()) {
			if (!feed(inflater, in, input)) {
				break;
			}
			if (done < out.length) {
				done += inflater.inflate(out, done, out.length - done);
			}
			else if (inflater.inflate(extra) > 0) {
				return done + 1;
			}
		}
		return done;
	}

	/**
	 * Inflates until {@code out} is full or the stream ends, without checking what
	 * follows.
	 * @return the bytes produced
	 */
	static int inflatePrefix(Inflater inflater, InputStream in, byte[] out) throws IOException, DataFormatException {
		byte[] input = new byte[256];
		int done = 0;
		while (done < out.length && !inflater.finished()) {
			if (!feed(inflater, in, input)) {
				break;
			}
			done += inflater.inflate(out, done, out.length - done);
		}
		return done;
	}

	/**
	 * Gives the inflater more of {@code in} when it has used up what it had.
	 * @return {@code false} if it needs input and {@code in} has none left
	 * @throws DataFormatException if the stream asks for a preset dictionary, which git
	 * never writes
	 */
	private static boolean feed(Inflater inflater, InputStream in, byte[] input)
			throws IOException, DataFormatException {
		if (inflater.needsInput()) {
			int read = in.read(input);
			if (read < 0) {
				return false;
			}
			inflater.setInput(input, 0, read);
		}
		if (inflater.needsDictionary()) {
			throw new DataFormatException("stream needs a preset dictionary");
		}
		return true;
	}

}
