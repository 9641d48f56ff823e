package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.refstore.core.io.FileMoves;
import io.refstore.core.ref.InitialRefWriter;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * The new store of a {@link StagedMigration}, built while the refs are copied instead of
 * from the segments afterwards: when one process copies every chunk from the start, each
 * ref goes into the segment (the checkpoint a restart resumes from) and straight into the
 * new store and its digest, and the assemble phase has nothing left to do. A copy that
 * resumes from a checkpoint cannot continue it (the writer and the digest lived in the
 * process that died), so {@link StagedCopy} abandons it and {@link StagedMigration}
 * assembles the store from the segments as before. Either way the verify phase reads the
 * new store back and compares digests.
 *
 * <p>
 * The reflogs must follow the refs into the writer, and a reftable writer must know the
 * longest log before its first ref: that length is taken from the source when the
 * assembly starts, and if a log has grown past it by the time the reflogs are copied, the
 * assembly is abandoned. Not thread-safe.
 */
final class StreamedAssembly {

	private final Path dir;

	private final InitialRefWriter writer;

	private final RefDigest digest;

	private final long maxEntries;

	private final RefFormat target;

	private boolean spoiled;

	private StreamedAssembly(Path dir, InitialRefWriter writer, RefDigest digest, long maxEntries, RefFormat target) {
		this.dir = dir;
		this.writer = writer;
		this.digest = digest;
		this.maxEntries = maxEntries;
		this.target = target;
	}

	/**
	 * Starts a new store in {@code dir}, which must not exist.
	 * @param source the store being copied, asked for its longest reflog if the target is
	 * reftable
	 */
	static StreamedAssembly start(Repository repository, MigrationOptions options, RefStore source, Path dir)
			throws IOException {
		long maxEntries = 0;
		if (options.reflogs() && options.target() == RefFormat.REFTABLE) {
			for (String name : source.reflogNames()) {
				maxEntries = Math.max(maxEntries, source.reflog(name).size());
			}
		}
		Files.createDirectories(dir);
		RefDigest digest = new RefDigest(repository.objectDatabase());
		InitialRefWriter writer = RefStores.initialWriter(repository, options.target(), dir, maxEntries);
		return new StreamedAssembly(dir, writer, digest, maxEntries, options.target());
	}

	/**
	 * Adds the cursor's current ref to the store and the digest.
	 * @return its fully peeled id as {@link RefDigest#addRef} returns it
	 */
	byte[] add(RefCursor refs) throws IOException {
		byte[] peeled = this.digest.addRef(refs);
		if (refs.isSymbolic()) {
			this.writer.addSymbolic(refs.nameBuffer(), refs.nameLength(),
					new String(refs.targetBuffer(), 0, refs.targetLength(), StandardCharsets.UTF_8));
		}
		else {
			this.writer.addDirect(refs.nameBuffer(), refs.nameLength(), refs.idBuffer(), peeled);
		}
		return peeled;
	}

	/**
	 * Adds a log after every ref; a log longer than the writer was prepared for spoils
	 * the assembly.
	 */
	void addReflog(String name, List<ReflogEntry> entries) throws IOException {
		if (this.spoiled) {
			return;
		}
		if (this.target == RefFormat.REFTABLE && entries.size() > this.maxEntries) {
			this.spoiled = true;
			return;
		}
		this.digest.addReflog(name, this.writer.addReflog(name, entries));
	}

	/**
	 * Completes the store.
	 * @return its digest and counts, or {@code null} if the assembly was spoiled (then it
	 * is removed)
	 */
	BuiltStore finish() throws IOException {
		if (this.spoiled) {
			abandon();
			return null;
		}
		this.writer.finish();
		this.writer.close();
		return new BuiltStore(this.digest, null);
	}

	/** Drops the unfinished store. */
	void abandon() throws IOException {
		try {
			this.writer.close();
		}
		finally {
			FileMoves.deleteTree(this.dir);
		}
	}

}
