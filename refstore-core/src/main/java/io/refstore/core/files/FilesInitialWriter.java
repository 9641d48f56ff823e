package io.refstore.core.files;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.refstore.core.io.FileSystemSync;
import io.refstore.core.io.Fsync;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.InitialRefWriter;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.SymbolicRef;

/**
 * Writes a new files-format store under a directory laid out like a git directory: every
 * direct ref under {@code refs/} straight into one sorted, fully peeled
 * {@code packed-refs} (streamed, never one loose file per ref); root refs and symbolic
 * refs as loose files; logs under {@code logs/}. {@link #finish()} forces every file and
 * directory written to the disk, so the store is whole before anything moves it into
 * place: with one sync of the file system where that forces them all, else each file
 * written and each directory holding one, known from the names written (no walk of a
 * directory per log).
 */
public final class FilesInitialWriter implements InitialRefWriter {

	private final Path dir;

	private final HashAlgorithm hash;

	private final OutputStream packedOut;

	private final PackedRefsWriter packed;

	/** The loose refs written, by name. */
	private final List<String> loose = new ArrayList<>();

	/** The logs written, by their refs' names (the caller's strings, not copies). */
	private final List<String> logs = new ArrayList<>();

	/** The directory the last file was written to, made by then. */
	private Path lastParent;

	/**
	 * @param dir an empty directory that receives {@code packed-refs}, {@code refs/},
	 * {@code logs/} and root ref files
	 */
	public FilesInitialWriter(Path dir, HashAlgorithm hash) throws IOException {
		this.dir = dir;
		this.hash = hash;
		Files.createDirectories(dir.resolve("refs/heads"));
		Files.createDirectories(dir.resolve("refs/tags"));
		this.packedOut = new BufferedOutputStream(Files.newOutputStream(dir.resolve("packed-refs")), 1 << 20);
		this.packed = new PackedRefsWriter(this.packedOut, hash.hexLength());
	}

	@Override
	public void addDirect(byte[] name, int nameLength, byte[] id, byte[] peeled) throws IOException {
		if (isUnderRefs(name, nameLength)) {
			this.packed.writeRaw(name, 0, nameLength, id, peeled);
			return;
		}
		String refName = new String(name, 0, nameLength, StandardCharsets.UTF_8);
		writeLoose(refName, LooseRefs.format(new DirectRef(refName, ObjectId.fromRaw(this.hash, id, 0))));
	}

	@Override
	public void addSymbolic(byte[] name, int nameLength, String target) throws IOException {
		String refName = new String(name, 0, nameLength, StandardCharsets.UTF_8);
		writeLoose(refName, LooseRefs.format(new SymbolicRef(refName, target)));
	}

	private void writeLoose(String name, byte[] content) throws IOException {
		Path file = this.dir.resolve(name);
		makeParent(file);
		Files.write(file, content);
		this.loose.add(name);
	}

	@Override
	public List<ReflogEntry> addReflog(String name, List<ReflogEntry> entries) throws IOException {
		Path file = this.dir.resolve("logs").resolve(name);
		makeParent(file);
		ReflogEntry[] stored = null;
		this.logs.add(name);
		try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
			for (int i = 0; i < entries.size(); i++) {
				ReflogEntry entry = entries.get(i);
				// a reftable keeps a message as written (git's cut can end in a space):
				// the line gets it normalised
				ReflogEntry normal = entry.withMessage(ReflogEntry.normalizeMessage(entry.message()));
				if (normal != entry) {
					if (stored == null) {
						stored = entries.toArray(ReflogEntry[]::new);
					}
					stored[i] = normal;
				}
				out.write(FilesReflog.format(normal));
			}
		}
		return (stored == null) ? entries : Arrays.asList(stored);
	}

	/**
	 * Makes the directory {@code file} goes in, unless the last file went there too: logs
	 * come in name order, so a directory of a log per branch is made once, not looked at
	 * with a {@code mkdir} and a {@code stat} per log.
	 */
	private void makeParent(Path file) throws IOException {
		Path parent = file.getParent();
		if (!parent.equals(this.lastParent)) {
			Files.createDirectories(parent);
			this.lastParent = parent;
		}
	}

	/**
	 * Completes the store and forces all of it to the disk: files first, then the
	 * directories naming them.
	 */
	@Override
	public void finish() throws IOException {
		this.packedOut.close();
		// one pass at the end rather than a sync per file as written: the kernel has
		// written most back by then; with a reflog per ref, one sync of the file system
		// packed-refs, the loose refs and the logs
		long written = 1 + this.loose.size() + this.logs.size();
		if (!FileSystemSync.tried(this.dir, written)) {
			List<Path> files = new ArrayList<>(1 + this.loose.size() + this.logs.size());
			files.add(this.dir.resolve("packed-refs"));
			this.loose.forEach((name) -> files.add(this.dir.resolve(name)));
			Path logDir = this.dir.resolve("logs");
			this.logs.forEach((name) -> files.add(logDir.resolve(name)));
			Set<Path> parents = new LinkedHashSet<>(
					List.of(this.dir.resolve("refs/heads"), this.dir.resolve("refs/tags")));
			files.forEach((file) -> parents.add(file.getParent()));
			Fsync.files(files);
			// then each directory holding one, and every directory above it, once
			Fsync.directories(Fsync.withParentsUpTo(parents, this.dir));
		}
		Fsync.parentOf(this.dir);
	}

	@Override
	public void close() throws IOException {
		this.packedOut.close();
	}

	private static boolean isUnderRefs(byte[] name, int length) {
		return length > 5 && name[0] == 'r' && name[1] == 'e' && name[2] == 'f' && name[3] == 's' && name[4] == '/';
	}

}
