package io.refstore.core.migrate;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.refstore.core.io.FileMoves;
import io.refstore.core.io.ParallelIo;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;

/**
 * The copy phase of a {@link StagedMigration} ({@link StagedMigration#copyRefs}): one
 * source cursor continued chunk by chunk, each chunk written as a segment, and, for a
 * copy that began at the first chunk, the new store built on the way
 * ({@link StreamedAssembly}).
 *
 * <p>
 * A segment is written and synced by a thread of its own while the next chunk is read
 * (two buffers take turns), in order, one at a time; the last chunk's call waits for
 * every write. A checkpoint can therefore be recorded before its segment is on disk, and
 * a process killed just then leaves one segment fewer than its last checkpoint counts:
 * {@link #resumeFrom} finds where the segments on disk really end. Not thread-safe (apart
 * from the writer, which only reads a buffer the copy no longer fills).
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

	/**
	 * The two chunk buffers (made with the first chunk), and the write each was last
	 * handed to ({@code null} if none).
	 */
	private final RefSegments.Builder[] buffers = new RefSegments.Builder[2];

	@SuppressWarnings("unchecked")
	private final Future<Void>[] writes = new Future[2];

	private int turn;

	/** Writes the segments, created with the first one. */
	private ExecutorService writer;

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
	}

	/** As {@link StagedMigration#resumeFrom}. */
	CopyProgress resumeFrom(CopyProgress checkpoint) throws IOException {
		awaitWrites(false);
		int whole = 0;
		long refs = 0;
		String lastName = "";
		for (int number = 1; number <= checkpoint.segments(); number++) {
			RefSegments.Summary summary = RefSegments.summary(this.work, number, this.repository.hashAlgorithm());
			if (summary == null) {
				break;
			}
			whole = number;
			refs += summary.count();
			lastName = summary.lastName();
		}
		if (whole == checkpoint.segments()) {
			return checkpoint;
		}
		return new CopyProgress(lastName, whole, refs, false);
	}

	/**
	 * As {@link StagedMigration#copyRefs}, from {@code source}, for a checkpoint that is
	 * not done.
	 */
	CopyProgress copy(RefStore source, CopyProgress after, int limit) throws IOException {
		if (this.cursor == null || !after.equals(this.position)) {
			reposition(source, after);
		}
		try {
			return copyChunk(after, limit);
		}
		catch (IOException | RuntimeException ex) {
			// what the cursor and the assembly took in no longer matches any checkpoint:
			// the next call repositions
			this.position = null;
			abandonAssembly();
			throw ex;
		}
	}

	private CopyProgress copyChunk(CopyProgress after, int limit) throws IOException {
		int slot = this.turn;
		await(slot);
		if (this.buffers[slot] == null) {
			this.buffers[slot] = new RefSegments.Builder(this.repository.hashAlgorithm(), limit);
		}
		RefSegments.Builder chunk = this.buffers[slot];
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
			awaitWrites(true);
			closeCursor();
			finishAssembly();
			this.position = after.finished();
			return this.position;
		}
		int number = after.segments() + 1;
		// a short chunk means the cursor is exhausted; a cursor must not be advanced past
		// its end
		boolean done = chunk.count() < limit;
		this.position = new CopyProgress(chunk.lastName(), number, after.refs() + chunk.count(), done);
		// from here until the write ends, the buffer belongs to the writer
		this.writes[slot] = writer().submit(() -> {
			chunk.write(this.work, number);
			return null;
		});
		this.turn = 1 - slot;
		if (done) {
			awaitWrites(true);
			closeCursor();
			finishAssembly();
		}
		return this.position;
	}

	private ExecutorService writer() {
		if (this.writer == null) {
			this.writer = Executors.newSingleThreadExecutor((task) -> {
				Thread thread = new Thread(task, "refstore-segment-writer");
				thread.setDaemon(true);
				return thread;
			});
		}
		return this.writer;
	}

	/**
	 * Waits until the last write of buffer {@code slot} has ended; throws what it failed
	 * with.
	 */
	private void await(int slot) throws IOException {
		Future<Void> write = this.writes[slot];
		if (write == null) {
			return;
		}
		this.writes[slot] = null;
		try {
			ParallelIo.getUninterruptibly(write);
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof IOException io) {
				throw io;
			}
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			throw new IOException("writing a segment failed", cause);
		}
	}

	/**
	 * Waits for every segment write; with {@code rethrow}, throws the first failure, else
	 * ignores failures (a segment that failed is missing or damaged on disk, which a
	 * resume detects).
	 */
	private void awaitWrites(boolean rethrow) throws IOException {
		IOException failed = null;
		// the older write first: they run in order
		for (int slot : new int[] { 1 - this.turn, this.turn }) {
			try {
				await(slot);
			}
			catch (IOException | RuntimeException ex) {
				if (failed == null) {
					failed = (ex instanceof IOException io) ? io : new IOException(ex.getMessage(), ex);
				}
			}
		}
		if (failed != null && rethrow) {
			throw failed;
		}
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
	 * Checks the checkpoint's segments, drops everything staged after them (later
	 * segments, the reflogs and any new store, which all follow the last ref) and opens
	 * the cursor after the checkpoint's last ref.
	 */
	private void reposition(RefStore source, CopyProgress after) throws IOException {
		awaitWrites(false);
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

	/**
	 * Waits for the segment writes, closes the cursor and drops an unfinished store; the
	 * segments stay (a write that failed leaves one missing, which {@link #resumeFrom}
	 * finds).
	 */
	@Override
	public void close() throws IOException {
		try {
			awaitWrites(false);
			closeCursor();
		}
		finally {
			if (this.writer != null) {
				this.writer.shutdown();
				this.writer = null;
			}
			abandonAssembly();
		}
	}

}
