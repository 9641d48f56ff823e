package io.refstore.core.objects;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import io.refstore.core.ref.ObjectId;

/**
 * Loose objects: {@code objects/<2 hex>/<rest of hex>}, each a zlib stream of
 * {@code <type> SP <size> NUL} followed by the content. Stateless apart from the
 * directory; safe for use by several threads.
 */
final class LooseObjects {

	/** Room for the longest header: "commit", a space, 20 digits and a NUL. */
	private static final int MAX_HEADER = 32;

	private final Path objectsDir;

	/** How many types {@link #type} remembers before it starts again. */
	private static final int MAX_REMEMBERED = 65_536;

	private final Map<ObjectId, Byte> types = new ConcurrentHashMap<>();

	LooseObjects(Path objectsDir) {
		this.objectsDir = objectsDir;
	}

	Path fileFor(ObjectId id) {
		String hex = id.name();
		return this.objectsDir.resolve(hex.substring(0, 2)).resolve(hex.substring(2));
	}

	/**
	 * The type (1-4) of a loose object, or -1 if there is no such loose object. A type
	 * found is remembered (an object's type never changes, and it stays an object when it
	 * is packed), so that many refs naming a few loose objects (a digest of every ref)
	 * read each once.
	 */
	int type(ObjectId id) throws IOException {
		Byte known = this.types.get(id);
		if (known != null) {
			return known;
		}
		int type = readType(id);
		if (type >= 0) {
			if (this.types.size() >= MAX_REMEMBERED) {
				this.types.clear();
			}
			this.types.put(id, (byte) type);
		}
		return type;
	}

	private int readType(ObjectId id) throws IOException {
		Path file = fileFor(id);
		Inflater inflater = new Inflater();
		try (InputStream in = Files.newInputStream(file)) {
			byte[] head = new byte[MAX_HEADER];
			int length = Zlib.inflatePrefix(inflater, in, head);
			return header(file, head, length)[0];
		}
		catch (NoSuchFileException ex) {
			return -1;
		}
		catch (DataFormatException ex) {
			throw new CorruptObjectException(file, "not a zlib stream: " + ex.getMessage());
		}
		finally {
			inflater.end();
		}
	}

	/** The whole object, or {@code null} if there is no such loose object. */
	RawObject load(ObjectId id) throws IOException {
		Path file = fileFor(id);
		Inflater inflater = new Inflater();
		try (InputStream in = Files.newInputStream(file)) {
			byte[] head = new byte[MAX_HEADER];
			int length = Zlib.inflatePrefix(inflater, in, head);
			int[] header = header(file, head, length);
			byte[] content = new byte[header[1]];
			int already = length - header[2];
			System.arraycopy(head, header[2], content, 0, Math.min(already, content.length));
			int end = (already > content.length) ? content.length + 1
					: Zlib.inflateFully(inflater, in, content, already);
			if (end != content.length || !inflater.finished()) {
				throw new CorruptObjectException(file, "content is " + ((end > content.length) ? "longer" : "shorter")
						+ " than the " + content.length + " bytes its header states");
			}
			return new RawObject(header[0], content);
		}
		catch (NoSuchFileException ex) {
			return null;
		}
		catch (DataFormatException ex) {
			throw new CorruptObjectException(file, "not a zlib stream: " + ex.getMessage());
		}
		finally {
			inflater.end();
		}
	}

	/** Parses the header: returns {type, size, content start}. */
	private static int[] header(Path file, byte[] head, int length) throws CorruptObjectException {
		int space = indexOf(head, length, (byte) ' ');
		int nul = indexOf(head, length, (byte) 0);
		if (space < 0 || nul < space) {
			throw new CorruptObjectException(file, "bad loose object header");
		}
		String name = new String(head, 0, space, StandardCharsets.US_ASCII);
		int type = switch (name) {
			case "commit" -> RawObject.COMMIT;
			case "tree" -> RawObject.TREE;
			case "blob" -> RawObject.BLOB;
			case "tag" -> RawObject.TAG;
			default -> throw new CorruptObjectException(file, "unknown object type '" + name + "'");
		};
		long size = 0;
		for (int i = space + 1; i < nul; i++) {
			if (head[i] < '0' || head[i] > '9' || size > Integer.MAX_VALUE / 10) {
				throw new CorruptObjectException(file, "bad object size in header");
			}
			size = size * 10 + (head[i] - '0');
		}
		if (nul == space + 1 || size > Integer.MAX_VALUE - 16) {
			throw new CorruptObjectException(file, "bad object size in header");
		}
		return new int[] { type, (int) size, nul + 1 };
	}

	private static int indexOf(byte[] buf, int length, byte b) {
		for (int i = 0; i < length; i++) {
			if (buf[i] == b) {
				return i;
			}
		}
		return -1;
	}

}
