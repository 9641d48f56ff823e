package io.refstore.core.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefCheck;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.Verification;

/**
 * git 2.55's consistency check of the files backend, finding for finding and in git's
 * order: per worktree (the main one, then each linked one), every file under
 * {@code refs/} in directory order (name, file type, content, symbolic target), the root
 * refs beside {@code HEAD}, and in the main worktree {@code packed-refs} (file type,
 * header, each line, order when the header says {@code sorted}). Then, when asked,
 * refstore's deeper checks: every value names an object that exists (a commit for a
 * branch), and every peeled value in {@code packed-refs} is right.
 *
 * <p>
 * Hand-written after git's {@code files_fsck} and {@code packed_fsck}: the findings,
 * their wording and when one check stops another are git's behaviour, which no library
 * has.
 */
final class FilesVerifier {

	private final FilesRefStore store;

	private final Verification check;

	private final int hexLength;

	/** The loose direct refs the walk found, for the deeper checks. */
	private final List<LooseValue> looseValues = new ArrayList<>();

	/** A loose direct ref the walk read: its name and value. */
	private record LooseValue(String name, ObjectId id) {

	}

	FilesVerifier(FilesRefStore store, Verification check) {
		this.store = store;
		this.check = check;
		this.hexLength = store.hashAlgorithm().hexLength();
	}

	void verify() throws IOException {
		Path common = this.store.options.commonDir();
		worktree(common, null);
		for (String id : Verification.linkedWorktrees(common)) {
			worktree(common.resolve("worktrees").resolve(id), id);
		}
		if (this.check.deep()) {
			deep();
		}
	}

	private void worktree(Path dir, String id) throws IOException {
		this.check.checking("Checking references consistency");
		String prefix = (id != null) ? "worktrees/" + id + "/" : "";
		Path refs = dir.resolve("refs");
		if (Files.isDirectory(refs, LinkOption.NOFOLLOW_LINKS)) {
			walk(refs, prefix + "refs/");
		}
		else if (id == null) {
			this.check
				.failure("cannot open directory " + this.check.shown(dir, "refs") + ": No such file or directory");
		}
		rootRefs(dir, prefix);
		if (id == null) {
			packed();
		}
	}

	/**
	 * A directory below {@code refs/}, depth first in directory order, as git walks it.
	 */
	private void walk(Path dir, String prefix) throws IOException {
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
			for (Path child : entries) {
				String base = child.getFileName().toString();
				BasicFileAttributes attributes;
				try {
					attributes = Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
				}
				catch (NoSuchFileException ex) {
					continue;
				}
				if (attributes.isDirectory()) {
					walk(child, prefix + base + "/");
				}
				else if (base.startsWith(".") || !base.endsWith(".lock")) {
					ref(prefix + base, child, attributes);
				}
			}
		}
		catch (NoSuchFileException ex) {
			// removed while walked: git skips it too
		}
	}

	/**
	 * The root refs of a worktree's git directory: regular files (or links to one) whose
	 * names are root refs. As in git, the first that has an error ends this part.
	 */
	private void rootRefs(Path dir, String prefix) throws IOException {
		List<Path> entries = new ArrayList<>();
		try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
			stream.forEach(entries::add);
		}
		for (Path entry : entries) {
			String name = entry.getFileName().toString();
			if (name.startsWith(".") || name.endsWith(".lock") || !RefName.isRootRef(name)) {
				continue;
			}
			BasicFileAttributes attributes;
			try {
				attributes = Files.readAttributes(entry, BasicFileAttributes.class);
			}
			catch (NoSuchFileException ex) {
				continue;
			}
			if (attributes.isRegularFile() && ref(prefix + name, entry, attributes)) {
				return;
			}
		}
	}

	/** One ref file. Returns whether a finding counted as an error. */
	private boolean ref(String name, Path file, BasicFileAttributes attributes) throws IOException {
		this.check.checking("Checking " + name);
		if (!attributes.isRegularFile() && !attributes.isSymbolicLink()) {
			return this.check.report(name, RefCheck.BAD_REF_FILETYPE, "unexpected file type");
		}
		boolean error = false;
		if (!RefName.isRootRef(name) && !RefName.isValid(name, false)) {
			error = this.check.report(name, RefCheck.BAD_REF_NAME, "invalid refname format");
		}
		return content(name, file, attributes.isSymbolicLink()) | error;
	}

	private boolean content(String name, Path file, boolean link) throws IOException {
		if (link) {
			boolean error = this.check.report(name, RefCheck.SYMLINK_REF, "use deprecated symbolic link for symref");
			String gitDir = this.store.options.gitDir().toRealPath() + "/";
			String target = resolve(file).toString();
			String referent = target.startsWith(gitDir) ? target.substring(gitDir.length()) : target;
			return this.check.symref(name, referent) | error;
		}
		byte[] content;
		try {
			content = Files.readAllBytes(file);
		}
		catch (NoSuchFileException ex) {
			return false;
		}
		int length = cString(content, 0, content.length);
		if (startsWith(content, length, "ref:")) {
			int at = 4;
			while (at < length && isSpace(content[at])) {
				at++;
			}
			return symrefTarget(name, content, at, length);
		}
		ObjectId id = (length >= this.hexLength) ? ObjectId.tryParseHex(this.store.hashAlgorithm(), content, 0) : null;
		if (id == null || (length > this.hexLength && !isSpace(content[this.hexLength]))) {
			int end = length;
			while (end > 0 && isSpace(content[end - 1])) {
				end--;
			}
			return this.check.report(name, RefCheck.BAD_REF_CONTENT, text(content, 0, end));
		}
		if (length == this.hexLength) {
			return this.check.report(name, RefCheck.REF_MISSING_NEWLINE, "misses LF at the end");
		}
		if (length != this.hexLength + 1 || content[this.hexLength] != '\n') {
			return this.check.report(name, RefCheck.TRAILING_REF_CONTENT,
					"has trailing garbage: '" + text(content, this.hexLength, length) + "'");
		}
		this.looseValues.add(new LooseValue(name, id));
		return this.check.objectId(name, id);
	}

	/**
	 * The target of a textual symbolic ref, {@code content[from, end)}, with its newline.
	 */
	private boolean symrefTarget(String name, byte[] content, int from, int end) {
		int trimmed = end;
		while (trimmed > from && isSpace(content[trimmed - 1])) {
			trimmed--;
		}
		boolean error = false;
		int original = end - from;
		int kept = trimmed - from;
		if (kept == original || (kept < original && content[end - 1] != '\n')) {
			error |= this.check.report(name, RefCheck.REF_MISSING_NEWLINE, "misses LF at the end");
		}
		if (kept != original && kept != original - 1) {
			error |= this.check.report(name, RefCheck.TRAILING_REF_CONTENT, "has trailing whitespaces or newlines");
		}
		return this.check.symref(name, text(content, from, trimmed)) | error;
	}

	/**
	 * A symbolic link's target with every link on the way resolved, as {@code realpath}
	 * does; the last component need not exist.
	 */
	private static Path resolve(Path link) throws IOException {
		Path parent = link.toAbsolutePath().getParent().toRealPath();
		Path target = parent.resolve(Files.readSymbolicLink(link)).normalize();
		try {
			return target.toRealPath();
		}
		catch (NoSuchFileException ex) {
			Path dir = target.getParent();
			try {
				return dir.toRealPath().resolve(target.getFileName());
			}
			catch (NoSuchFileException missing) {
				return target;
			}
		}
	}

	private void packed() throws IOException {
		Path file = this.store.packedFile();
		this.check.checking("Checking packed-refs file " + this.check.shown(file.getParent(), "packed-refs"));
		BasicFileAttributes attributes;
		try {
			attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
		}
		catch (NoSuchFileException ex) {
			return;
		}
		if (attributes.isSymbolicLink()) {
			this.check.report("packed-refs", RefCheck.BAD_REF_FILETYPE, "not a regular file but a symlink");
			return;
		}
		if (!attributes.isRegularFile()) {
			this.check.report("packed-refs", RefCheck.BAD_REF_FILETYPE, "not a regular file");
			return;
		}
		byte[] buf = Files.readAllBytes(file);
		if (buf.length == 0) {
			this.check.report("packed-refs", RefCheck.EMPTY_PACKED_REFS_FILE, "file is empty");
			return;
		}
		new PackedCheck(buf).run();
	}

	/** {@code packed-refs}'s lines, as git's {@code packed_fsck} reads them. */
	private final class PackedCheck {

		private static final String HEADER = "# pack-refs with: ";

		private final byte[] buf;

		private boolean sorted;

		PackedCheck(byte[] buf) {
			this.buf = buf;
		}

		void run() {
			int eof = this.buf.length;
			long line = 1;
			int start = 0;
			boolean error = false;
			int eol = endOfLine(line, start);
			error |= eol < 0;
			eol = Math.abs(eol);
			if (this.buf[start] == '#') {
				error |= header(start, eol);
				start = eol + 1;
				line++;
			}
			while (start < eof) {
				eol = endOfLine(line, start);
				error |= eol < 0;
				eol = Math.abs(eol);
				error |= entry(line, start, eol);
				start = eol + 1;
				line++;
				if (start < eof && this.buf[start] == '^') {
					eol = endOfLine(line, start);
					error |= eol < 0;
					eol = Math.abs(eol);
					error |= peeled(line, start + 1, eol);
					start = eol + 1;
					line++;
				}
			}
			if (!error && this.sorted) {
				order();
			}
		}

		/**
		 * The end of the line at {@code start}; negated when the line has no newline (an
		 * error that counted: the end of the file then).
		 */
		private int endOfLine(long line, int start) {
			int eol = indexOf(this.buf, start, this.buf.length, (byte) '\n');
			if (eol >= 0) {
				return eol;
			}
			boolean error = FilesVerifier.this.check.report("packed-refs line " + line,
					RefCheck.PACKED_REF_ENTRY_NOT_TERMINATED,
					"'" + text(this.buf, start, this.buf.length) + "' is not terminated with a newline");
			return error ? -this.buf.length : this.buf.length;
		}

		private boolean header(int start, int eol) {
			int end = cString(this.buf, start, eol);
			String line = text(this.buf, start, end);
			if (!line.startsWith(HEADER)) {
				return FilesVerifier.this.check.report("packed-refs.header", RefCheck.BAD_PACKED_REF_HEADER,
						"'" + text(this.buf, start, eol) + "' does not start with '" + HEADER + "'");
			}
			this.sorted = Arrays.asList(line.substring(HEADER.length()).split(" ", -1)).contains("sorted");
			return false;
		}

		private boolean entry(long line, int start, int eol) {
			Verification check = FilesVerifier.this.check;
			String where = "packed-refs line " + line;
			ObjectId id = oid(start, eol);
			if (id == null) {
				return check.report(where, RefCheck.BAD_PACKED_REF_ENTRY,
						"'" + text(this.buf, start, eol) + "' has invalid oid");
			}
			int after = start + FilesVerifier.this.hexLength;
			if (after == eol || !isSpace(this.buf[after])) {
				return check.report(where, RefCheck.BAD_PACKED_REF_ENTRY,
						"has no space after oid '" + id.name() + "' but with '" + text(this.buf, after, eol) + "'");
			}
			int nameEnd = cString(this.buf, after + 1, eol);
			String name = text(this.buf, after + 1, nameEnd);
			boolean error = false;
			if (nameEnd < eol) {
				error = check.report(where, RefCheck.BAD_PACKED_REF_ENTRY,
						"refname '" + name + "' contains NULL binaries");
			}
			if (RefName.violation(this.buf, after + 1, nameEnd - after - 1, false) != null) {
				error = check.report(where, RefCheck.BAD_REF_NAME, "has bad refname '" + name + "'");
			}
			return error;
		}

		private boolean peeled(long line, int start, int eol) {
			Verification check = FilesVerifier.this.check;
			String where = "packed-refs line " + line;
			if (oid(start, eol) == null) {
				return check.report(where, RefCheck.BAD_PACKED_REF_ENTRY,
						"'" + text(this.buf, start, eol) + "' has invalid peeled oid");
			}
			int after = start + FilesVerifier.this.hexLength;
			if (after != eol) {
				return check.report(where, RefCheck.BAD_PACKED_REF_ENTRY,
						"has trailing garbage after peeled oid '" + text(this.buf, after, eol) + "'");
			}
			return false;
		}

		/**
		 * The object id at {@code start}, if the line holds one there (digits only, no
		 * NUL).
		 */
		private ObjectId oid(int start, int eol) {
			if (cString(this.buf, start, eol) - start < FilesVerifier.this.hexLength) {
				return null;
			}
			return ObjectId.tryParseHex(FilesVerifier.this.store.hashAlgorithm(), this.buf, start);
		}

		/** The first ref out of order, when the header says the file is sorted. */
		private void order() {
			int eof = this.buf.length;
			long line = 1;
			int start = 0;
			int skip = FilesVerifier.this.hexLength + 1;
			if (this.buf[0] == '#') {
				start = indexOf(this.buf, 0, eof, (byte) '\n') + 1;
				line++;
			}
			int former = -1;
			for (; start < eof; line++) {
				int eol = indexOf(this.buf, start, eof, (byte) '\n');
				eol = (eol < 0) ? eof : eol;
				if (this.buf[start] != '^') {
					int current = start + skip;
					if (former >= 0 && compareNames(former, current) >= 0) {
						FilesVerifier.this.check.report("packed-refs line " + line, RefCheck.PACKED_REF_UNSORTED,
								"refname '" + text(this.buf, current, lineEnd(current))
										+ "' is less than previous refname '" + text(this.buf, former, lineEnd(former))
										+ "'");
						return;
					}
					former = current;
				}
				start = eol + 1;
			}
		}

		private int lineEnd(int from) {
			int eol = indexOf(this.buf, from, this.buf.length, (byte) '\n');
			return cString(this.buf, from, (eol < 0) ? this.buf.length : eol);
		}

		/** Two names, each up to its newline, byte by byte. */
		private int compareNames(int a, int b) {
			int end = this.buf.length;
			while (true) {
				byte x = (a < end) ? this.buf[a] : (byte) '\n';
				byte y = (b < end) ? this.buf[b] : (byte) '\n';
				if (x == '\n') {
					return (y == '\n') ? 0 : -1;
				}
				if (x != y) {
					return (y == '\n') ? 1 : Integer.compare(x & 0xff, y & 0xff);
				}
				a++;
				b++;
			}
		}

	}

	/**
	 * refstore's deeper checks: the objects of the loose values the walk read and of
	 * {@code packed-refs}' lines, and the peeled values there.
	 */
	private void deep() throws IOException {
		ObjectDatabase objects = this.store.options.objects();
		for (LooseValue loose : this.looseValues) {
			object(objects, loose.name(), loose.id());
		}
		PackedRefs packed;
		try {
			packed = PackedRefs.read(this.store.packedFile(), this.store.hashAlgorithm());
		}
		catch (CorruptRefStoreException ex) {
			return;
		}
		for (int record = packed.start; record < packed.buf.length;) {
			int nameEnd;
			try {
				nameEnd = packed.checkRecord(record);
			}
			catch (CorruptRefStoreException ex) {
				record = PackedRefs.indexOf(packed.buf, record, (byte) '\n') + 1;
				if (record == 0) {
					break;
				}
				continue;
			}
			String name = new String(packed.buf, packed.nameStart(record), nameEnd - packed.nameStart(record),
					StandardCharsets.UTF_8);
			ObjectId id = packed.id(record);
			if (object(objects, name, id)) {
				peeled(objects, packed, record, name, id);
			}
			try {
				record = packed.nextRecord(record);
			}
			catch (CorruptRefStoreException ex) {
				break;
			}
		}
	}

	/**
	 * Whether the object exists; reports it when it does not, or is a branch's
	 * non-commit.
	 */
	private boolean object(ObjectDatabase objects, String name, ObjectId id) throws IOException {
		if (id.isZero()) {
			return false;
		}
		ObjectType type = objects.type(id);
		if (type == null) {
			this.check.report(name, RefCheck.MISSING_REF_OBJECT, "points to missing object " + id.name());
			return false;
		}
		if (type != ObjectType.COMMIT && name.startsWith("refs/heads/")) {
			this.check.report(name, RefCheck.BAD_BRANCH_OBJECT,
					"branch points to a " + type.gitName() + " " + id.name());
		}
		return true;
	}

	private void peeled(ObjectDatabase objects, PackedRefs packed, int record, String name, ObjectId id)
			throws IOException {
		ObjectId stored = packed.peeled(record);
		if (stored == null && !packed.peelKnown(record)) {
			return;
		}
		ObjectId actual = objects.peel(id);
		if (actual != null && !actual.equals(stored)) {
			this.check.report(name, RefCheck.BAD_PACKED_REF_PEELED, "peels to " + actual.name() + " but packed-refs "
					+ ((stored != null) ? "says " + stored.name() : "has no peeled value"));
		}
		else if (actual == null && stored != null) {
			this.check.report(name, RefCheck.BAD_PACKED_REF_PEELED, "is not a tag but packed-refs has a peeled value");
		}
	}

	/** Whether a byte is a space as git's {@code isspace} says: space, tab, LF, CR. */
	static boolean isSpace(byte b) {
		return b == ' ' || b == '\t' || b == '\n' || b == '\r';
	}

	/**
	 * The end of the C string that starts at {@code from}: the first NUL, or {@code end}.
	 */
	private static int cString(byte[] buf, int from, int end) {
		int nul = indexOf(buf, from, end, (byte) 0);
		return (nul < 0) ? end : nul;
	}

	private static int indexOf(byte[] buf, int from, int end, byte b) {
		for (int i = from; i < end; i++) {
			if (buf[i] == b) {
				return i;
			}
		}
		return -1;
	}

	private static boolean startsWith(byte[] buf, int length, String prefix) {
		if (length < prefix.length()) {
			return false;
		}
		for (int i = 0; i < prefix.length(); i++) {
			if (buf[i] != prefix.charAt(i)) {
				return false;
			}
		}
		return true;
	}

	/** Bytes as git prints them with {@code %s}: up to a NUL. */
	private static String text(byte[] buf, int from, int to) {
		return new String(buf, from, cString(buf, from, to) - from, StandardCharsets.UTF_8);
	}

}
