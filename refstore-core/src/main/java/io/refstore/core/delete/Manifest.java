package io.refstore.core.delete;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The manifest of a mass deletion: a text file written as the deletion goes, from which
 * {@link RefRestorer} puts back exactly what was deleted. This class defines the format;
 * {@code ManifestWriter} and {@code ManifestReader} write and read it.
 *
 * <h2>Format, version 1</h2> UTF-8 text, one record per line, each line ending in
 * {@code LF}. A line is a keyword and fields separated by single spaces. Lines starting
 * with {@code #} and empty lines are comments. <i>Text</i> fields (names, targets,
 * identities, messages) are escaped so that they never contain a space or a line break:
 * the bytes 0x00–0x20, {@code %} and 0x7F are written as {@code %XX} (upper-case hex);
 * every other byte, including the bytes of non-ASCII characters, is written as is. An
 * empty text is written {@code -}, and a text that is exactly {@code -} as {@code %2D}.
 * Object ids are lower-case hex of the repository's hash.
 *
 * <pre>
 * refstore-delete-manifest 1                first line: the format and its version
 * hash &lt;sha1|sha256&gt;                        the object hash of every id below
 * format &lt;files|reftable&gt;                   informative: the ref format deleted from
 * repository &lt;text&gt;                         informative: the git directory
 * created &lt;epoch-seconds&gt;                   informative: when the run started
 * select &lt;prefix|glob|exclude&gt; &lt;text&gt;       informative: the selection, one line per part
 * select names &lt;count&gt;                      informative: how many names were listed
 * select protect &lt;pattern|HEAD&gt;              informative: what the deletion kept, one line per entry
 *
 * chunk &lt;n&gt;                                 chunk n (1, 2, ...) begins
 * ref &lt;name&gt; &lt;id&gt; &lt;peeled|-&gt;                 a direct ref and its value; the peeled value if the store
 *                                           knew it, else {@code -} (not a tag, or a loose ref)
 * symref &lt;name&gt; &lt;target&gt;                   a symbolic ref and its target
 * log &lt;old&gt; &lt;new&gt; &lt;epoch&gt; &lt;tz&gt; &lt;who&gt; &lt;email&gt; &lt;message&gt;
 *                                           a reflog entry of the ref above, oldest first;
 *                                           {@code tz} as git writes it ({@code +0530})
 * ready &lt;n&gt; &lt;refs&gt;                          the chunk is complete on disk (written and synced);
 *                                           its transaction commits next
 * committed &lt;n&gt;                             its transaction committed: every ref above is deleted
 * failed &lt;n&gt; &lt;name&gt; &lt;rejection&gt; &lt;message&gt;      its transaction was refused or could not be prepared:
 *                                           nothing of the chunk is deleted; {@code name} is the
 *                                           ref that failed ({@code -} if none), {@code rejection}
 *                                           a {@code Rejection} constant
 * in-doubt &lt;n&gt; &lt;message&gt;                    the commit itself failed: some refs may be deleted
 *
 * done &lt;deleted&gt; &lt;chunks&gt;                   the run ended without a failure
 * </pre>
 *
 * A chunk's state follows from its last line: no {@code ready} means it was never
 * committed ({@link ChunkState#INCOMPLETE}); {@code ready} without an outcome (the run
 * stopped in between) or {@code in-doubt} means its refs must be checked one by one
 * ({@link ChunkState#IN_DOUBT}). A last line without its {@code LF} was cut short by a
 * crash and is ignored. A reader refuses another version.
 *
 * <p>
 * Stateless and thread-safe.
 */
public final class Manifest {

	/** The keyword of the first line. */
	static final String MAGIC = "refstore-delete-manifest";

	/** The version this refstore writes and reads. */
	public static final int VERSION = 1;

	/** What a chunk's lines say about it. */
	public enum ChunkState {

		/**
		 * The chunk's lines were not all written: its transaction never ran. Nothing to
		 * restore.
		 */
		INCOMPLETE,
		/** The chunk's transaction committed: every ref of the chunk was deleted. */
		COMMITTED,
		/** The chunk's transaction was refused: nothing of it was deleted. */
		FAILED,
		/**
		 * The outcome is unknown: each ref of the chunk may or may not have been deleted.
		 */
		IN_DOUBT

	}

	private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

	private Manifest() {
	}

	/** Appends {@code text} escaped as a text field. */
	static void appendText(ByteArrayOutputStream out, String text) {
		if (text.isEmpty()) {
			out.write('-');
			return;
		}
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		if (bytes.length == 1 && bytes[0] == '-') {
			out.writeBytes("%2D".getBytes(StandardCharsets.US_ASCII));
			return;
		}
		for (byte b : bytes) {
			int c = b & 0xff;
			if (c <= 0x20 || c == '%' || c == 0x7f) {
				out.write('%');
				out.write(HEX[c >> 4]);
				out.write(HEX[c & 0xf]);
			}
			else {
				out.write(b);
			}
		}
	}

	/**
	 * Decodes a text field.
	 * @return the text
	 * @throws IllegalArgumentException if a {@code %} is not followed by two hex digits,
	 * or the bytes are not UTF-8 text
	 */
	static String decodeText(String field) {
		if (field.equals("-")) {
			return "";
		}
		if (field.indexOf('%') < 0) {
			return field;
		}
		byte[] in = field.getBytes(StandardCharsets.UTF_8);
		ByteArrayOutputStream out = new ByteArrayOutputStream(in.length);
		for (int i = 0; i < in.length; i++) {
			if (in[i] != '%') {
				out.write(in[i]);
				continue;
			}
			int high = (i + 2 < in.length) ? Character.digit(in[i + 1], 16) : -1;
			int low = (high >= 0) ? Character.digit(in[i + 2], 16) : -1;
			if (low < 0) {
				throw new IllegalArgumentException("bad escape at offset " + i + " of '" + field + "'");
			}
			out.write(high * 16 + low);
			i += 2;
		}
		return utf8(out.toByteArray(), 0, out.size());
	}

	/**
	 * Decodes UTF-8 strictly.
	 * @throws IllegalArgumentException if the bytes are not well-formed UTF-8
	 */
	static String utf8(byte[] buf, int offset, int length) {
		try {
			return StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(buf, offset, length))
				.toString();
		}
		catch (CharacterCodingException ex) {
			throw new IllegalArgumentException("not UTF-8 text");
		}
	}

}
