package io.refstore.core.reftable.format;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * Test helpers: writing tables to memory, reading them back, and building expected bytes.
 */
public final class Tables {

	private Tables() {
	}

	/** Writes a table with the given records (refs and logs already in order). */
	public static byte[] write(WriteOptions options, long min, long max, List<RefRecord> refs, List<LogRecord> logs) {
		try {
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			ReftableWriter writer = new ReftableWriter(out, options).setLimits(min, max);
			for (RefRecord ref : refs) {
				writer.addRef(ref);
			}
			for (LogRecord log : logs) {
				writer.addLog(log);
			}
			long size = writer.finish();
			byte[] bytes = out.toByteArray();
			if (size != bytes.length) {
				throw new AssertionError("finish() reported " + size + " bytes, wrote " + bytes.length);
			}
			return bytes;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	public static ReftableReader open(byte[] table) throws IOException {
		return ReftableReader.open(BlockSource.of(table));
	}

	/** All ref records of a table, copied. */
	public static List<RefRecord> refs(ReftableReader reader) throws IOException {
		return drainRefs(reader.allRefs());
	}

	public static List<RefRecord> drainRefs(RecordCursor<RefRecord> cursor) throws IOException {
		List<RefRecord> out = new ArrayList<>();
		try (cursor) {
			while (cursor.next()) {
				out.add(cursor.record().copy());
			}
		}
		return out;
	}

	public static List<LogRecord> drainLogs(RecordCursor<LogRecord> cursor) throws IOException {
		List<LogRecord> out = new ArrayList<>();
		try (cursor) {
			while (cursor.next()) {
				out.add(cursor.record().copy());
			}
		}
		return out;
	}

	/** Parses hex, ignoring spaces and newlines. */
	public static byte[] hex(String text) {
		return HexFormat.of().parseHex(text.replaceAll("\\s+", ""));
	}

	public static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	public static byte[] concat(byte[]... parts) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (byte[] part : parts) {
			out.writeBytes(part);
		}
		return out.toByteArray();
	}

	public static ObjectId id(String hex) {
		return ObjectId.fromHex(HashAlgorithm.SHA1, hex);
	}

	/** A deterministic pseudo-random id. */
	public static ObjectId id(HashAlgorithm hash, long seed) {
		byte[] raw = new byte[hash.rawLength()];
		java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
		for (int i = 0; i < raw.length; i++) {
			raw[i] = (byte) random.nextInt(256);
		}
		return ObjectId.fromRaw(hash, raw, 0);
	}

	/**
	 * Inflates the log block starting at {@code offset}: returns its image with the 4
	 * header bytes (and the file header before them when {@code headerSize > 0}) kept, as
	 * readers see it.
	 */
	public static byte[] inflateLogBlock(byte[] table, int offset, int headerSize) {
		int skip = headerSize + 4;
		int blockLen = ReftableConstants.getU24(table, offset + headerSize + 1);
		byte[] image = new byte[blockLen];
		System.arraycopy(table, offset, image, 0, skip);
		Inflater inflater = new Inflater();
		try {
			inflater.setInput(table, offset + skip, table.length - offset - skip);
			int n = inflater.inflate(image, skip, blockLen - skip);
			if (n != blockLen - skip || !inflater.finished()) {
				throw new AssertionError(
						"log block at " + offset + " inflated to " + n + " bytes, wanted " + (blockLen - skip));
			}
			return image;
		}
		catch (DataFormatException ex) {
			throw new AssertionError(ex);
		}
		finally {
			inflater.end();
		}
	}

	/**
	 * Number of compressed bytes of the log block at {@code offset} (header bytes
	 * included).
	 */
	public static int logBlockLength(byte[] table, int offset, int headerSize) {
		int skip = headerSize + 4;
		Inflater inflater = new Inflater();
		try {
			inflater.setInput(table, offset + skip, table.length - offset - skip);
			byte[] sink = new byte[64 * 1024];
			while (!inflater.finished()) {
				if (inflater.inflate(sink) == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
					throw new AssertionError("log block at " + offset + " is not a complete zlib stream");
				}
			}
			return skip + (int) inflater.getBytesRead();
		}
		catch (DataFormatException ex) {
			throw new AssertionError(ex);
		}
		finally {
			inflater.end();
		}
	}

}
