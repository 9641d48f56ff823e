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
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.ref.VerifyProblem;

/**
 * Consistency checks of the files backend: every loose file under {@code refs/} and every
 * root ref (name, type, content, object), and {@code packed-refs} (header, each line,
 * order, peeled values, objects).
 */
final class FilesVerifier {

	private final FilesRefStore store;

	private final ObjectDatabase objects;

	private final List<VerifyProblem> problems = new ArrayList<>();

	FilesVerifier(FilesRefStore store) {
		this.store = store;
		this.objects = store.options.objects();
	}

	List<VerifyProblem> verify() throws IOException {
		Path gitDir = this.store.options.gitDir();
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(gitDir)) {
			for (Path entry : entries) {
				String name = entry.getFileName().toString();
				if (RefName.isRootRef(name) && Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
					checkLoose(entry, name);
				}
			}
		}
		walk(this.store.options.commonDir().resolve("refs"), "refs/");
		checkPacked();
		return this.problems;
	}

	private void problem(boolean error, String where, long position, String check, String message) {
		this.problems.add(new VerifyProblem(error, where, position, check, message));
	}

	private void walk(Path dir, String prefix) throws IOException {
		List<Path> children = new ArrayList<>();
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
			entries.forEach(children::add);
		}
		catch (NoSuchFileException ex) {
			return;
		}
		children.sort(null);
		for (Path child : children) {
			String base = child.getFileName().toString();
			String name = prefix + base;
			BasicFileAttributes attributes = Files.readAttributes(child, BasicFileAttributes.class,
					LinkOption.NOFOLLOW_LINKS);
			if (attributes.isDirectory()) {
				walk(child, name + "/");
			}
			else if (base.endsWith(".lock") && !base.startsWith(".")) {
				continue;
			}
			else if (!attributes.isRegularFile() && !attributes.isSymbolicLink()) {
				problem(true, name, -1, "badRefFiletype", "unexpected file type");
			}
			else if (!RefName.isValid(base, true)) {
				problem(true, name, -1, "badRefName", "invalid refname format");
			}
			else {
				checkLoose(child, name);
			}
		}
	}

	private void checkLoose(Path file, String name) throws IOException {
		byte[] content = Files.readAllBytes(file);
		Ref ref = LooseRefs.parse(content, name, this.store.hashAlgorithm());
		if (ref == LooseRefs.BROKEN) {
			problem(true, name, -1, "badRefContent",
					"'" + printable(content) + "' is neither an object id nor a symref");
			return;
		}
		if (content.length == 0 || content[content.length - 1] != '\n') {
			problem(false, name, -1, "refMissingNewline", "misses LF at the end");
		}
		if (ref instanceof SymbolicRef symbolic) {
			if (!RefName.isValid(symbolic.target(), true)) {
				problem(true, name, -1, "badReferentName", "points to invalid refname '" + symbolic.target() + "'");
			}
			return;
		}
		int hexLength = this.store.hashAlgorithm().hexLength();
		if (content.length > hexLength + 1) {
			problem(false, name, -1, "trailingRefContent", "has trailing garbage after the object id");
		}
		checkObject(name, -1, ((DirectRef) ref).id());
	}

	private void checkObject(String where, long line, ObjectId id) throws IOException {
		ObjectType type = this.objects.type(id);
		if (type == null) {
			problem(true, where, line, "badRefOid", "points to missing object " + id.name());
		}
		else if (type != ObjectType.COMMIT && where.startsWith("refs/heads/")) {
			problem(true, where, line, "badRefOid", "branch points to a " + type.gitName() + " " + id.name());
		}
	}

	private void checkPacked() throws IOException {
		PackedRefs packed;
		try {
			packed = PackedRefs.read(this.store.packedFile(), this.store.hashAlgorithm());
		}
		catch (CorruptRefStoreException ex) {
			problem(true, "packed-refs", ex.position(), "badPackedRefHeader", ex.getMessage());
			return;
		}
		if (packed.start == 0 && !packed.isEmpty()) {
			problem(false, "packed-refs", 1, "badPackedRefHeader", "has no '# pack-refs with:' header");
		}
		byte[] previous = null;
		long newlinesBefore = newlines(packed.buf, 0, packed.start);
		int counted = packed.start;
		for (int record = packed.start; record < packed.buf.length;) {
			newlinesBefore += newlines(packed.buf, counted, record);
			counted = record;
			long line = newlinesBefore + 1;
			int nameEnd;
			try {
				nameEnd = packed.checkRecord(record);
			}
			catch (CorruptRefStoreException ex) {
				problem(true, "packed-refs", ex.position(), "badPackedRefEntry", ex.getMessage());
				record = PackedRefs.indexOf(packed.buf, record, (byte) '\n') + 1;
				continue;
			}
			int nameStart = packed.nameStart(record);
			byte[] name = Arrays.copyOfRange(packed.buf, nameStart, nameEnd);
			String refName = new String(name, StandardCharsets.UTF_8);
			if (RefName.violation(name, 0, name.length, false) != null) {
				problem(true, "packed-refs", line, "badRefName",
						"'" + RefName.printable(refName) + "' is not a valid refname");
			}
			if (previous != null && Arrays.compareUnsigned(previous, name) >= 0) {
				problem(true, "packed-refs", line, "packedRefUnsorted",
						"'" + refName + "' is not sorted after the ref before it");
			}
			previous = name;
			checkObject(refName, line, packed.id(record));
			checkPeeled(packed, record, refName, line);
			record = packed.nextRecord(record);
		}
	}

	private void checkPeeled(PackedRefs packed, int record, String name, long line) throws IOException {
		ObjectId id = packed.id(record);
		ObjectId stored = packed.peeled(record);
		if (stored == null && !packed.peelKnown(record)) {
			return;
		}
		ObjectId actual = this.objects.peel(id);
		if (actual != null && !actual.equals(stored)) {
			problem(true, "packed-refs", line, "badPackedRefPeeled", "'" + name + "' peels to " + actual.name()
					+ " but " + ((stored != null) ? "the file says " + stored.name() : "the file has no peeled value"));
		}
		else if (actual == null && stored != null && this.objects.exists(id)) {
			problem(true, "packed-refs", line, "badPackedRefPeeled",
					"'" + name + "' is not a tag but has a peeled value");
		}
	}

	private static long newlines(byte[] buf, int from, int to) {
		long count = 0;
		for (int i = from; i < to; i++) {
			if (buf[i] == '\n') {
				count++;
			}
		}
		return count;
	}

	private static String printable(byte[] content) {
		return RefName.printable(new String(content, StandardCharsets.UTF_8).strip());
	}

}
