package io.refstore.core.migrate;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Properties;

import io.refstore.core.io.FileMoves;
import io.refstore.core.ref.InitialRefWriter;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.StoreStatistics;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * A format migration in phases that may run in different processes, each resumable after
 * a crash: the {@link FormatMigrator} migration cut into the steps of a batch job.
 * Everything it knows is on disk in {@code $GIT_DIR/refstore-migration/}, owned by a
 * <i>job</i> (a name the caller gives, such as a batch job instance), so a later process
 * running the same job resumes the staged work instead of wiping it.
 * <ol>
 * <li>{@link #open}: refuse what cannot be migrated (as {@link FormatMigrator} does, a
 * live owner included), finish a migration killed after its switch (to the other format
 * than the target: first, then go on on the repository reopened, see
 * {@link #finishedFirst()}), claim the work directory for the job, and either resume the
 * job's staged work or start afresh.</li>
 * <li>{@link #copyRefs}: copy the source's refs in chunks, each written durably as one
 * segment (a sorted binary run of name, id, peeled id or symbolic target) while the next
 * chunk is read. Resuming from a checkpoint ({@link #resumeFrom} first) drops any segment
 * written after it. A copy that one object runs from the start also builds the new store
 * as it goes ({@link StreamedAssembly}), reflogs included once the last ref is in.</li>
 * <li>{@link #copyReflogs}: copy every reflog into one file (done already if the copy
 * built the store).</li>
 * <li>{@link #assemble}: unless the copy built the store, stream the segments in order,
 * then the reflogs, into one {@code packed-refs} or one reftable (a bulk pass, as
 * {@link StoreBuilder} builds it), digesting what goes in.</li>
 * <li>{@link #verify}: read the new store back and compare digests.</li>
 * <li>{@link #swap}: under the source's locks, compare the source with what was copied;
 * if it changed since (the copy is not one snapshot: writers go on while it runs), build
 * again from the locked source, so no ref written meanwhile is lost. Then switch and
 * retire the old store (the {@link Swap} of every migration), and report.</li>
 * </ol>
 * The caller runs the phases in this order; a phase run again after a crash redoes its
 * work. Not thread-safe: one phase at a time per repository, which the owner claim
 * enforces across processes. A repository whose format changed must be reopened.
 */
public final class StagedMigration implements Closeable {

	private static final String STATE = "staged";

	/** The prefix of the state's record of {@link #finishedFirst()}. */
	private static final String FINISHED_FIRST = "finishedFirst.";

	static final String REFLOGS_DONE = "reflogs.done";

	static final String ASSEMBLED = "assembled";

	static final String NEW = WorkDir.NEW;

	/**
	 * Bytes a ref takes in a reftable, for {@link #estimateRefs}: names share prefixes,
	 * ids do not.
	 */
	static final int REFTABLE_BYTES_PER_REF = 40;

	private final Repository repository;

	private final WorkDir workDir;

	private final MigrationOptions options;

	private final Path work;

	private final RefFormat from;

	private final boolean resumed;

	private final long started = System.nanoTime();

	private MigrationReport finished;

	/** The swap of a killed run that {@link #open} finished before this migration. */
	private final InterruptedSwap finishedFirst;

	/**
	 * The repository {@link #open} reopened after it finished another run's swap, which
	 * this migration uses and closes; {@code null} if it uses the caller's.
	 */
	private Repository reopened;

	private RefStore source;

	private StagedCopy copy;

	private StagedMigration(Repository repository, MigrationOptions options, boolean resumed,
			InterruptedSwap finishedFirst) {
		this.repository = repository;
		this.finishedFirst = finishedFirst;
		this.workDir = new WorkDir(repository);
		this.options = options;
		this.work = this.workDir.path();
		this.from = repository.refFormat();
		this.resumed = resumed;
	}

	/**
	 * Phase 1: opens the job's migration, resuming its staged work if the work directory
	 * holds it.
	 * @param repository the repository, which must outlive this object
	 * @param options the target and whether reflogs come along;
	 * {@link MigrationOptions#dryRun()} is not supported (a job verifies before it swaps
	 * anyway)
	 * @param job the owner's name, the same in every process that runs this migration
	 * @return the migration; the caller closes it (closing keeps the staged work)
	 * @throws MigrationException if the migration is refused: the format in use,
	 * worktrees, a store locked by another process, or another migration whose process
	 * still runs
	 */
	public static StagedMigration open(Repository repository, MigrationOptions options, String job) throws IOException {
		Objects.requireNonNull(options, "options");
		if (job == null || job.isBlank() || job.indexOf('\n') >= 0) {
			throw new IllegalArgumentException("job must be a non-blank single line, not '" + job + "'");
		}
		if (options.dryRun()) {
			throw new IllegalArgumentException("options.dryRun is not supported by a staged migration");
		}
		WorkDir work = new WorkDir(repository);
		work.recoverFromDeadOwner(job);
		Journal interrupted = work.interruptedSwap();
		if (interrupted == null) {
			return open(repository, null, options, job);
		}
		Swap swap = new Swap(repository, work);
		if (interrupted.to() == options.target()) {
			// finishing it is the whole migration (this job's own swap among others)
			StagedMigration done = new StagedMigration(repository, options, true, null);
			done.finished = swap.finishInterrupted(interrupted, done.started);
			return done;
		}
		// another run's swap to the other format: finished first, as FormatMigrator does,
		// then this migration starts afresh on the repository reopened
		InterruptedSwap finishedFirst = swap.finishAnother(interrupted);
		Repository switched = repository.reopen();
		try {
			StagedMigration migration = open(switched, finishedFirst, options, job);
			migration.reopened = switched;
			return migration;
		}
		catch (MigrationException ex) {
			switched.close();
			throw Swap.afterFinishing(ex, interrupted);
		}
		catch (IOException | RuntimeException ex) {
			switched.close();
			throw ex;
		}
	}

	/**
	 * {@link #open} on a repository with no swap left to finish.
	 * @param finishedFirst the swap {@link #open} finished before, recorded with a fresh
	 * start's state, or {@code null}
	 */
	private static StagedMigration open(Repository repository, InterruptedSwap finishedFirst, MigrationOptions options,
			String job) throws IOException {
		WorkDir work = new WorkDir(repository);
		RefFormat current = repository.refFormat();
		if (current == options.target()) {
			MigrationReport done = SwappedByJob.find(repository, job, options.target());
			if (done != null) {
				StagedMigration migration = new StagedMigration(repository, options, true, null);
				migration.finished = done;
				return migration;
			}
		}
		Properties state = DurableFiles.readProperties(work.path().resolve(STATE));
		boolean mine = state != null && job.equals(state.getProperty("job"))
				&& current.configName().equals(state.getProperty("from"))
				&& options.target().configName().equals(state.getProperty("to"))
				&& String.valueOf(options.reflogs()).equals(state.getProperty("reflogs"));
		if (mine) {
			work.claim(job);
			return new StagedMigration(repository, options, true, readFinishedFirst(state));
		}
		work.begin(options.target(), job);
		Properties fresh = new Properties();
		fresh.setProperty("job", job);
		fresh.setProperty("from", current.configName());
		fresh.setProperty("to", options.target().configName());
		fresh.setProperty("reflogs", String.valueOf(options.reflogs()));
		if (finishedFirst != null) {
			fresh.setProperty(FINISHED_FIRST + "from", finishedFirst.from().configName());
			fresh.setProperty(FINISHED_FIRST + "to", finishedFirst.to().configName());
			fresh.setProperty(FINISHED_FIRST + "backup", finishedFirst.backup().toString());
			if (finishedFirst.restored() != null) {
				fresh.setProperty(FINISHED_FIRST + "restored", finishedFirst.restored().toString());
			}
		}
		try (RefStore source = RefStores.open(repository)) {
			fresh.setProperty("fingerprint", source.fingerprint());
		}
		DurableFiles.writeProperties(work.path().resolve(STATE), fresh);
		return new StagedMigration(repository, options, false, finishedFirst);
	}

	/** The swap the state records {@link #open} finished first, or {@code null}. */
	private static InterruptedSwap readFinishedFirst(Properties state) {
		String from = state.getProperty(FINISHED_FIRST + "from");
		if (from == null) {
			return null;
		}
		String restored = state.getProperty(FINISHED_FIRST + "restored");
		return new InterruptedSwap(RefFormat.fromConfigName(from),
				RefFormat.fromConfigName(state.getProperty(FINISHED_FIRST + "to")),
				Path.of(state.getProperty(FINISHED_FIRST + "backup")), (restored != null) ? Path.of(restored) : null);
	}

	/**
	 * The swap of a run killed after its switch to the other format than this migration's
	 * target, which {@link #open} finished (in this job, perhaps in an earlier process)
	 * before it began this migration on the repository reopened; the backups of both
	 * swaps stay. Empty if there was none.
	 */
	public java.util.Optional<InterruptedSwap> finishedFirst() {
		return java.util.Optional.ofNullable(this.finishedFirst);
	}

	/** Whether {@link #open} found this job's staged work and resumed it. */
	public boolean resumed() {
		return this.resumed;
	}

	/**
	 * The report of a migration an earlier process had already switched (killed before it
	 * cleaned up), which {@link #open} completed; empty while the migration still has
	 * work to do.
	 */
	public java.util.Optional<MigrationReport> finished() {
		return java.util.Optional.ofNullable(this.finished);
	}

	/** The work directory holding the staged state. */
	public Path workDir() {
		return this.work;
	}

	/**
	 * Estimates the source's refs for progress reports from
	 * {@link RefStore#statistics()}, without decoding a ref: for files, the loose refs
	 * plus the records of {@code packed-refs} (a ref both loose and packed counts twice,
	 * root refs not at all); for reftable, the tables' size divided by
	 * {@value #REFTABLE_BYTES_PER_REF} bytes, about what a ref takes in a table git
	 * writes with its object index. Use {@link #countRefs} for an exact figure.
	 * @return the estimate, at least 1; 0 once the migration is finished
	 */
	public long estimateRefs() throws IOException {
		if (this.finished != null) {
			return 0;
		}
		return estimateRefs(source());
	}

	/**
	 * {@link #estimateRefs()} of any store: close for files (off by the refs both loose
	 * and packed, and the root refs), rough for reftable (no table records its count).
	 * @return the estimate, at least 1
	 */
	public static long estimateRefs(RefStore store) throws IOException {
		StoreStatistics statistics = store.statistics();
		long estimate = (statistics.format() == RefFormat.FILES) ? statistics.looseRefs() + statistics.packedRefs()
				: statistics.bytes() / REFTABLE_BYTES_PER_REF;
		return Math.max(1, estimate);
	}

	/**
	 * Counts the source's refs (root refs included), for progress reports. Reads the
	 * whole ref list once.
	 * @return the count; 0 once the migration is finished
	 */
	public long countRefs() throws IOException {
		if (this.finished != null) {
			return 0;
		}
		long count = 0;
		try (RefCursor refs = source().refs(RefQuery.ALL.withRootRefs())) {
			while (refs.next()) {
				count++;
			}
		}
		return count;
	}

	/**
	 * Where a copy recorded up to {@code checkpoint} can really continue:
	 * {@code checkpoint} itself if all its segments are on disk and whole, else the end
	 * of the last whole segment before the first that is not. A segment is written while
	 * the next chunk is read (see {@link #copyRefs}), so a process killed right after
	 * recording a checkpoint may have left its segment unwritten; a power loss can also
	 * take segments written shortly before. Reads every segment the checkpoint counts.
	 * Call it once when a process takes over a copy, and continue from what it returns.
	 * @param checkpoint the last checkpoint recorded, or {@link CopyProgress#START}
	 * @return the checkpoint to pass to {@link #copyRefs}
	 */
	public CopyProgress resumeFrom(CopyProgress checkpoint) throws IOException {
		Objects.requireNonNull(checkpoint, "checkpoint");
		if (this.finished != null || checkpoint.done()) {
			return checkpoint;
		}
		return copy().resumeFrom(checkpoint);
	}

	/**
	 * Phase 2: copies the next at most {@code limit} refs after {@code after} into one
	 * new segment. The segment is written and synced by a thread of its own while the
	 * next call reads the next chunk, in order; the call that copies the last ref returns
	 * only once every segment is written. A checkpoint can thus be returned (and
	 * recorded) before its segment is on disk: after a crash, pass the last recorded
	 * checkpoint through {@link #resumeFrom} first. Consecutive calls in one process
	 * continue one source cursor; a call with any other checkpoint (the first after
	 * {@link #open}) first checks that the checkpoint's segments exist and drops any
	 * written after them (a chunk whose checkpoint was never recorded), with the reflogs
	 * and any new store staged after them. If that checkpoint is
	 * {@link CopyProgress#START}, the calls also build the new store as they go, and the
	 * one that copies the last ref copies the reflogs and completes the store, so that
	 * {@link #copyReflogs} and {@link #assemble} find their work done.
	 * @param after the checkpoint returned by the previous call, or
	 * {@link CopyProgress#START}
	 * @param limit the most refs to copy, at least 1
	 * @return the new checkpoint; {@link CopyProgress#done()} once no ref follows (the
	 * last chunk may still have added a segment)
	 * @throws MigrationException if a segment the checkpoint counts is missing (the
	 * staged work was removed, for instance by another migration run meanwhile)
	 */
	public CopyProgress copyRefs(CopyProgress after, int limit) throws IOException {
		Objects.requireNonNull(after, "after");
		if (limit < 1) {
			throw new IllegalArgumentException("limit must be at least 1, not " + limit);
		}
		if (this.finished != null || after.done()) {
			return after.finished();
		}
		return copy().copy(source(), after, limit);
	}

	private StagedCopy copy() {
		if (this.copy == null) {
			this.copy = new StagedCopy(this.repository, this.options, this.work, this::completeAssembly);
		}
		return this.copy;
	}

	/**
	 * After the last ref of a copy that built the store: copies the reflogs into the
	 * store and the staged reflogs at once, completes the store and records it as
	 * assembled. A spoiled assembly leaves the reflogs staged and the store to
	 * {@link #assemble}.
	 */
	private void completeAssembly(StreamedAssembly building) throws IOException {
		stageReflogs(building);
		BuiltStore built = building.finish();
		if (built != null) {
			writeBuilt(built, false);
		}
	}

	/**
	 * Phase 3: copies every reflog (nothing if the options leave reflogs behind), unless
	 * the copy of the refs did already.
	 * @return how many log entries were copied
	 */
	public long copyReflogs() throws IOException {
		if (this.finished != null) {
			return 0;
		}
		Properties done = DurableFiles.readProperties(this.work.resolve(REFLOGS_DONE));
		if (done == null) {
			done = stageReflogs(null);
		}
		return Long.parseLong(done.getProperty("entries", "0"));
	}

	/**
	 * Copies the reflogs into the work directory, and into {@code assembly} too unless it
	 * is {@code null}.
	 */
	private Properties stageReflogs(StreamedAssembly assembly) throws IOException {
		Properties done = new Properties();
		if (this.options.reflogs()) {
			StagedReflogs.Counts counts = StagedReflogs.copy(source(), this.work,
					(assembly != null) ? assembly::addReflog : null);
			done.setProperty("logs", Long.toString(counts.logs()));
			done.setProperty("entries", Long.toString(counts.entries()));
			done.setProperty("maxEntries", Long.toString(counts.maxEntries()));
		}
		DurableFiles.writeProperties(this.work.resolve(REFLOGS_DONE), done);
		return done;
	}

	/**
	 * Phase 4: builds the new store from the segments and the copied reflogs.
	 * @return the digest of what went in (the refs as copied)
	 * @throws IllegalStateException if {@link #copyReflogs} has not completed
	 */
	public String assemble() throws IOException {
		if (this.finished != null) {
			return this.finished.sourceDigest();
		}
		closeCopy();
		Path assembled = this.work.resolve(ASSEMBLED);
		if (Files.exists(assembled) && Files.isDirectory(this.work.resolve(NEW))) {
			// built by the copy (or by an earlier run of this phase); verify reads it
			// back all the same
			return readBuilt(false).sourceDigest;
		}
		Properties logs = DurableFiles.readProperties(this.work.resolve(REFLOGS_DONE));
		if (logs == null) {
			throw new IllegalStateException("copyReflogs has not completed in '" + this.work + "'");
		}
		Path staged = this.work.resolve(NEW);
		FileMoves.deleteTree(staged);
		Files.createDirectories(staged);
		RefDigest digest = new RefDigest(this.repository.objectDatabase());
		long maxEntries = Long.parseLong(logs.getProperty("maxEntries", "0"));
		try (InitialRefWriter writer = RefStores.initialWriter(this.repository, this.options.target(), staged,
				maxEntries); RefCursor refs = new SegmentCursor(this.work, this.repository.hashAlgorithm())) {
			StoreBuilder.writeRefs(refs, digest, writer);
			if (this.options.reflogs()) {
				StagedReflogs.forEach(this.work, this.repository.hashAlgorithm(), (name, entries) -> {
					digest.addReflog(name, writer.addReflog(name, entries));
				});
			}
			writer.finish();
		}
		BuiltStore built = new BuiltStore(digest, null);
		writeBuilt(built, false);
		return built.sourceDigest;
	}

	/**
	 * Phase 5: reads the assembled store back through its own backend.
	 * @return the digest read back, equal to {@link #assemble}'s
	 * @throws MigrationException if it reads differently
	 * @throws IllegalStateException if {@link #assemble} has not completed
	 */
	public String verify() throws IOException {
		if (this.finished != null) {
			return this.finished.targetDigest();
		}
		BuiltStore built;
		try {
			built = new StoreBuilder(this.repository).verify(readBuilt(false), this.work.resolve(NEW), this.options);
		}
		catch (IOException | RuntimeException ex) {
			// a store that fails its verification must not be taken as assembled by the
			// next run of the phases
			if (!(ex instanceof IllegalStateException)) {
				Files.deleteIfExists(this.work.resolve(ASSEMBLED));
			}
			throw ex;
		}
		writeBuilt(built, true);
		return built.targetDigest;
	}

	/**
	 * Phase 6: swaps the verified store in (rebuilding it under the locks if the source
	 * changed) and removes the work directory.
	 * @return the report; its {@link MigrationReport#elapsed()} covers this process's
	 * part only
	 * @throws IllegalStateException if {@link #verify} has not completed
	 */
	public MigrationReport swap() throws IOException {
		if (this.finished != null) {
			return this.finished;
		}
		BuiltStore built = readBuilt(true);
		release();
		Path staged = this.work.resolve(NEW);
		Swap.Result swapped;
		Properties state = DurableFiles.readProperties(this.work.resolve(STATE));
		try (RefStore store = RefStores.open(this.repository)) {
			swapped = new Swap(this.repository, this.workDir).run(store,
					Swap.Mark.fingerprint(state.getProperty("fingerprint", "")), built, this.options.target(),
					new StoreBuilder(this.repository).rebuild(store, staged, this.options),
					Swap.Retired.ofMigration(this.options.reflogs()), null);
		}
		this.finished = Swap.report(this.from, this.options.target(), swapped, staged, this.started);
		if (this.finishedFirst != null) {
			this.finished = this.finished.afterFinishing(this.finishedFirst, this.started);
		}
		SwappedByJob.write(this.finished, state.getProperty("job"));
		FileMoves.deleteTree(this.work);
		return this.finished;
	}

	private void writeBuilt(BuiltStore built, boolean verified) throws IOException {
		built.write(this.work.resolve(ASSEMBLED), verified);
	}

	private BuiltStore readBuilt(boolean verified) throws IOException {
		BuiltStore built = BuiltStore.read(this.work.resolve(ASSEMBLED), verified);
		if (built == null) {
			throw new IllegalStateException(
					(verified ? "verify" : "assemble") + " has not completed in '" + this.work + "'");
		}
		return built;
	}

	private RefStore source() throws IOException {
		if (this.source == null) {
			this.source = RefStores.open(this.repository);
		}
		return this.source;
	}

	private void closeCopy() throws IOException {
		if (this.copy != null) {
			this.copy.close();
			this.copy = null;
		}
	}

	/**
	 * Releases the source store and cursor, and the repository {@link #open} reopened if
	 * it did; the staged work stays for a later process.
	 */
	@Override
	public void close() throws IOException {
		try {
			release();
		}
		finally {
			if (this.reopened != null) {
				this.reopened.close();
				this.reopened = null;
			}
		}
	}

	/** Releases the source store and cursor. */
	private void release() throws IOException {
		closeCopy();
		if (this.source != null) {
			this.source.close();
			this.source = null;
		}
	}

}
