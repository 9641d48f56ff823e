package io.refstore.core.delete;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.refstore.core.repo.RefusedJobInputException;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.RepositoryId;
import io.refstore.core.repo.RepositoryInputs;

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
 * repository &lt;text&gt; [&lt;id&gt;]                informative: the git directory; then the
 *                                           repository's identity ({@link RepositoryId}), which
 *                                           a restore checks (absent before refstore recorded it)
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

	/** How the manifests of a plan's directory are named: one per chunk run. */
	public static final String MANIFEST_PREFIX = "manifest-";

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

	/**
	 * The identity of the repository a manifest was written in, read from its header
	 * without following a symbolic link.
	 * @return the identity, or empty for a manifest written before identities were
	 * recorded
	 * @throws IOException if the file cannot be read, is a symbolic link, or is no
	 * manifest
	 */
	public static Optional<RepositoryId> repositoryOf(Path manifest) throws IOException {
		try (ManifestReader reader = ManifestReader.open(manifest)) {
			return Optional.ofNullable(reader.repositoryId());
		}
	}

	/**
	 * The manifests a user names for a restore, checked before the restore reads them: a
	 * manifest file, or a directory whose {@code manifest-*} files a deletion wrote,
	 * inside {@code dir} and reached from {@code root} down without a symbolic link
	 * ({@link RepositoryInputs}), each a file (not a link) that records
	 * {@code repository}'s identity (a manifest written before manifests recorded it is
	 * taken on the strength of where it lies).
	 * @param parameter the parameter that named it, for the refusal
	 * @param root the directory below which no component may be a link: the git
	 * directory, or the top of the working tree (real paths)
	 * @param dir the directory the manifest must lie in, relative to {@code root}
	 * @param given the manifest or directory as given: relative to {@code dir}, or
	 * absolute inside it
	 * @return the manifest files, in the order a restore takes them
	 * @throws RefusedJobInputException naming {@code parameter} if one is refused
	 * @throws IOException if the file system cannot be read
	 */
	public static List<Path> checkInput(String parameter, Repository repository, Path root, String dir, String given)
			throws IOException {
		Path path = RepositoryInputs.check(parameter, root, dir, given, RepositoryInputs.Kind.FILE_OR_DIRECTORY);
		List<Path> manifests = new ArrayList<>();
		if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
			manifests.add(path);
		}
		else {
			try (DirectoryStream<Path> files = Files.newDirectoryStream(path, MANIFEST_PREFIX + "*")) {
				files.forEach(manifests::add);
			}
			manifests.sort(null);
		}
		for (Path manifest : manifests) {
			String shown = root.relativize(manifest).toString();
			if (!Files.isRegularFile(manifest, LinkOption.NOFOLLOW_LINKS)) {
				throw new RefusedJobInputException(parameter, given,
						"'" + shown + "' " + (Files.isSymbolicLink(manifest)
								? "is a symbolic link; inputs are read from the repository only" : "is not a file"));
			}
			Optional<RepositoryId> recorded;
			try {
				recorded = repositoryOf(manifest);
			}
			catch (IOException ex) {
				throw new RefusedJobInputException(parameter, given, "'" + shown + "' is not a deletion manifest"
						+ " this refstore reads (" + ex.getMessage().replace(manifest.toString(), shown) + ")");
			}
			RepositoryInputs.checkOwner(parameter, given, recorded, repository);
		}
		return manifests;
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
		if (ascii(buf, offset, length)) {
			return new String(buf, offset, length, StandardCharsets.ISO_8859_1);
		}
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

	private static boolean ascii(byte[] buf, int offset, int length) {
		for (int i = offset; i < offset + length; i++) {
			if (buf[i] < 0) {
				return false;
			}
		}
		return true;
	}

}
