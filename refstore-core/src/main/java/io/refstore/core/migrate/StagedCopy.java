package io.refstore.core.migrate;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.refstore.core.io.FileMoves;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;

/**
 * The copy phase of a {@link StagedMigration} ({@link StagedMigration#copyRefs}): one source cursor continued
 * chunk by chunk, each chunk written as a segment, and, for a copy that began at the first chunk, the new
 * store built on the way ({@link StreamedAssembly}). Not thread-safe.
 */
final class StagedCopy implements Closeable {

	/** Completes the store a copy built, once its last ref is in. */
	interface Completion {

		void complete(StreamedAssembly assembly) throws IOException;

	}

	private final Repository repository;

	private final MigrationOptions options;

	private final Path work;

	private final Completion completion;

	private final RefSegments.Builder segment;

	private final byte[] scratch = new byte[64];

	private RefCursor cursor;

	private CopyProgress position;

	/** The new store being built, or {@code null}. */
	private StreamedAssembly assembly;

	StagedCopy(Repository repository, MigrationOptions options, Path work, Completion completion) {
		this.repository = repository;
		this.options = options;
		this.work = work;
		this.completion = completion;
		this.segment = new RefSegments.Builder(repository.hashAlgorithm());
	}

	/** As {@link StagedMigration#copyRefs}, from {@code source}, for a checkpoint that is not done. */
	CopyProgress copy(RefStore source, CopyProgress after, int limit) throws IOException {
		if (this.cursor == null || !after.equals(this.position)) {
			reposition(source, after);
		}
		try {
			return copyChunk(after, limit);
		}
		catch (IOException | RuntimeException ex) {
			// what the cursor and the assembly took in no longer matches any checkpoint: the next call repositions
			this.position = null;
			abandonAssembly();
			throw ex;
		}
	}

	private CopyProgress copyChunk(CopyProgress after, int limit) throws IOException {
		RefSegments.Builder chunk = this.segment;
		chunk.reset();
		ObjectDatabase objects = (this.assembly == null) ? this.repository.objectDatabase() : null;
		while (chunk.count() < limit && this.cursor.next()) {
			byte[] peeled;
			if (this.assembly != null) {
				peeled = this.assembly.add(this.cursor);
			}
			else {
				peeled = this.cursor.isSymbolic() ? null : RefDigest.peeled(this.cursor, objects, this.scratch);
			}
			chunk.add(this.cursor, peeled);
		}
		if (chunk.count() == 0) {
			closeCursor();
			finishAssembly();
			this.position = after.finished();
			return this.position;
		}
		int number = after.segments() + 1;
		chunk.write(this.work, number);
		// a short chunk means the cursor is exhausted; a cursor must not be advanced past its end
		boolean done = chunk.count() < limit;
		this.position = new CopyProgress(chunk.lastName(), number, after.refs() + chunk.count(), done);
		if (done) {
			closeCursor();
			finishAssembly();
		}
		return this.position;
	}

	private void finishAssembly() throws IOException {
		if (this.assembly == null) {
			return;
		}
		StreamedAssembly building = this.assembly;
		this.assembly = null;
		try {
			this.completion.complete(building);
		}
		catch (IOException | RuntimeException ex) {
			building.abandon();
			throw ex;
		}
	}

	/**
	 * Checks the checkpoint's segments, drops everything staged after them (later segments, the reflogs and
	 * any new store, which all follow the last ref) and opens the cursor after the checkpoint's last ref.
	 */
	private void reposition(RefStore source, CopyProgress after) throws IOException {
		closeCursor();
		for (int number = 1; number <= after.segments(); number++) {
			if (!RefSegments.exists(this.work, number)) {
				throw new MigrationException("the staged copy in '" + this.work + "' lacks segment " + number
						+ " of the " + after.segments() + " its checkpoint counts (was the work directory removed?);"
						+ " start the migration again");
			}
		}
		RefSegments.dropAfter(this.work, after.segments());
		abandonAssembly();
		FileMoves.deleteTree(this.work.resolve(StagedMigration.NEW));
		Files.deleteIfExists(this.work.resolve(StagedMigration.ASSEMBLED));
		Files.deleteIfExists(this.work.resolve(StagedMigration.REFLOGS_DONE));
		Files.deleteIfExists(this.work.resolve(StagedReflogs.FILE));
		if (after.segments() == 0) {
			this.assembly = StreamedAssembly.start(this.repository, this.options, source,
					this.work.resolve(StagedMigration.NEW));
		}
		this.cursor = source.refs(RefQuery.ALL.withRootRefs().after(after.lastName()));
		this.position = after;
	}

	private void abandonAssembly() throws IOException {
		if (this.assembly != null) {
			StreamedAssembly dropped = this.assembly;
			this.assembly = null;
			dropped.abandon();
		}
	}

	private void closeCursor() throws IOException {
		if (this.cursor != null) {
			this.cursor.close();
			this.cursor = null;
		}
	}

	/** Closes the cursor and drops an unfinished store; the segments stay. */
	@Override
	public void close() throws IOException {
		try {
			closeCursor();
		}
		finally {
			abandonAssembly();
		}
	}

}
