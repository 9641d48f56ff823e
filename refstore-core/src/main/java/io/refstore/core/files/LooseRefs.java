package io.refstore.core.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.io.Directories;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.SymbolicRef;

/**
 * Loose ref files: one file per ref, holding {@code <hex>\n} or {@code ref: <target>\n}.
 * Reads follow git's tolerance (trailing whitespace, CRLF, junk after the id,
 * {@code ref:} without a space); a file that is neither is a broken ref, which readers
 * skip as git does.
 */
final class LooseRefs {

	/** Marks a loose file that exists but holds no valid value. */
	static final Ref BROKEN = new SymbolicRef("(broken)", "(broken)");

	private LooseRefs() {
	}

	/**
	 * Reads the loose ref stored at {@code file}.
	 * @param name the ref's name (for the returned ref)
	 * @return the ref, {@link #BROKEN} if the file holds no valid value, or {@code null}
	 * if there is no file (missing, or a directory, or a parent is a file)
	 */
	static Ref read(Path file, String name, HashAlgorithm hash) throws IOException {
		// most lookups of a packed repository find no loose file: a stat answers that
		// without the cost of an
		// exception (filling in its stack trace costs more than the rest of the lookup);
		// a file that appears
		// after the stat is read below like any other
		if (!file.toFile().exists()) {
			return null;
		}
		byte[] content;
		try {
			content = Files.readAllBytes(file);
		}
		catch (NoSuchFileException | NotDirectoryException ex) {
			return null;
		}
		catch (IOException ex) {
			// a directory at the ref's path, or a file where a parent directory would be
			// (ENOTDIR): no loose ref
			if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS) || !Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
				return null;
			}
			throw ex;
		}
		return parse(content, name, hash);
	}

	/** Parses loose ref content as git does. */
	static Ref parse(byte[] content, String name, HashAlgorithm hash) {
		int end = content.length;
		while (end > 0 && isWhitespace(content[end - 1])) {
			end--;
		}
		if (end >= 4 && content[0] == 'r' && content[1] == 'e' && content[2] == 'f' && content[3] == ':') {
			int targetStart = 4;
			while (targetStart < end && isWhitespace(content[targetStart])) {
				targetStart++;
			}
			if (targetStart == end) {
				return BROKEN;
			}
			return new SymbolicRef(name, new String(content, targetStart, end - targetStart, StandardCharsets.UTF_8));
		}
		int hexLength = hash.hexLength();
		if (end < hexLength || (end > hexLength && !isWhitespace(content[hexLength]))) {
			return BROKEN;
		}
		ObjectId id = ObjectId.tryParseHex(hash, content, 0);
		return (id != null) ? new DirectRef(name, id) : BROKEN;
	}

	private static boolean isWhitespace(byte b) {
		return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == 0x0b;
	}

	/** The bytes git writes for {@code ref}. */
	static byte[] format(Ref ref) {
		if (ref instanceof SymbolicRef symbolic) {
			return ("ref: " + symbolic.target() + "\n").getBytes(StandardCharsets.UTF_8);
		}
		DirectRef direct = (DirectRef) ref;
		byte[] out = new byte[direct.id().algorithm().hexLength() + 1];
		direct.id().copyHexTo(out, 0);
		out[out.length - 1] = '\n';
		return out;
	}

	/**
	 * Lists the names of loose refs under {@code refs/} that start with {@code prefix},
	 * sorted bytewise. Only directories that can hold matching names are read. Names that
	 * are not valid ref names (such as {@code x.lock}) are left out, as git ignores them.
	 * @param root the directory holding {@code refs/} (the common git directory)
	 * @param prefix a name prefix, such as {@code refs/heads/} or {@code refs/heads/ma};
	 * empty for all
	 */
	static List<byte[]> list(Path root, String prefix) throws IOException {
		List<byte[]> names = new ArrayList<>();
		walk(root.resolve("refs"), "refs/", prefix, names);
		names.sort(Arrays::compareUnsigned);
		return names;
	}

	private static void walk(Path dir, String dirName, String prefix, List<byte[]> names) throws IOException {
		try {
			for (Path entry : Directories.entries(dir)) {
				String name = dirName + entry.getFileName().toString();
				BasicFileAttributes attributes;
				try {
					attributes = Files.readAttributes(entry, BasicFileAttributes.class);
				}
				catch (NoSuchFileException ex) {
					continue;
				}
				if (attributes.isDirectory()) {
					String subdir = name + "/";
					if (subdir.startsWith(prefix) || prefix.startsWith(subdir)) {
						walk(entry, subdir, prefix, names);
					}
				}
				else if (name.startsWith(prefix) && RefName.isValid(name, false)) {
					names.add(name.getBytes(StandardCharsets.UTF_8));
				}
			}
		}
		catch (NoSuchFileException | NotDirectoryException ex) {
			// no such directory: no loose refs below it
		}
	}

}
