package io.refstore.core.files;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import io.refstore.core.io.Directories;
import io.refstore.core.io.DirectoryStamp;
import io.refstore.core.io.FileMoves;
import io.refstore.core.io.FileSystemSync;
import io.refstore.core.io.Fsync;
import io.refstore.core.io.LockFile;
import io.refstore.core.io.ParallelIo;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.StoreStatistics;
import io.refstore.core.ref.Verification;
import io.refstore.core.ref.WorktreeRef;

/**
 * The files backend: loose ref files under {@code refs/}, {@code packed-refs}, and
 * reflogs under {@code logs/}, read and written exactly as git does, with git's locks.
 *
 * <p>
 * Thread-safe. The parsed {@code packed-refs} is cached and re-read only when the file
 * was replaced (git always replaces it by rename, so its file key changes).
 */
public final class FilesRefStore implements RefStore {

	/**
	 * How many of {@link #lockStore}'s locks link to one owner file, below every file
	 * system's link limit.
	 */
	static final int LOCKS_PER_MARK = 60_000;

	final FilesOptions options;

	private final Path packedFile;

	private volatile CachedPacked<PackedRefs> cachedPacked;

	/**
	 * The mapped {@code packed-refs} single lookups use while no full snapshot is loaded.
	 */
	private volatile CachedPacked<MappedPackedRefs> cachedMapped;

	/**
	 * Tells whether {@link #cachedMapped} is still current without a stat of
	 * {@code packed-refs}.
	 */
	private final DirectoryStamp packedDirStamp;

	/**
	 * Lookups that checked {@code packed-refs} by path (counted loosely: a race only
	 * delays the stamp).
	 */
	private int slowLookups;

	public FilesRefStore(FilesOptions options) {
		this.options = Objects.requireNonNull(options, "options");
		this.packedFile = options.commonDir().resolve("packed-refs");
		this.packedDirStamp = new DirectoryStamp(options.commonDir());
	}

	@Override
	public RefFormat format() {
		return RefFormat.FILES;
	}

	@Override
	public HashAlgorithm hashAlgorithm() {
		return this.options.hash();
	}

	/**
	 * The file of a loose ref: per-worktree refs in the worktree's git directory, others
	 * in the common one; {@code main-worktree/<ref>} and {@code worktrees/<name>/<ref>}
	 * in the main or that worktree's directory.
	 */
	Path refPath(String name) {
		WorktreeRef ref = WorktreeRef.parse(name);
		return base(ref).resolve(ref.name());
	}

	/** The reflog file of a ref. */
	Path logPath(String name) {
		WorktreeRef ref = WorktreeRef.parse(name);
		return base(ref).resolve("logs").resolve(ref.name());
	}

	/**
	 * The directory a ref's file and log live under (as {@link #refPath} places them):
	 * the worktree's git directory, the common one, or another worktree's.
	 */
	Path base(String name) {
		return base(WorktreeRef.parse(name));
	}

	private Path base(WorktreeRef ref) {
		return switch (ref.scope()) {
			case CURRENT -> this.options.gitDir();
			case SHARED, MAIN -> this.options.commonDir();
			case OTHER -> this.options.commonDir().resolve("worktrees").resolve(ref.worktree());
		};
	}

	Path packedFile() {
		return this.packedFile;
	}

	/**
	 * {@code packed-refs} read afresh, for a caller that holds {@code packed-refs.lock}:
	 * no snapshot is trusted by its file's identity, size and time then (a file replaced
	 * within the same clock tick by one of the same size may have the inode number of the
	 * one before), and nobody can replace the file while it is read.
	 */
	PackedRefs packedLocked() throws IOException {
		return packed(true);
	}

	/**
	 * The current {@code packed-refs}, re-read only if the file was replaced since the
	 * last read.
	 */
	PackedRefs packed() throws IOException {
		return packed(false);
	}

	/** {@code packed-refs}' attributes now, or {@code null} if there is no such file. */
	private BasicFileAttributes packedAttributes() throws IOException {
		try {
			return Files.readAttributes(this.packedFile, BasicFileAttributes.class);
		}
		catch (NoSuchFileException ex) {
			return null;
		}
	}

	private PackedRefs packed(boolean afresh) throws IOException {
		BasicFileAttributes attributes = packedAttributes();
		if (attributes == null) {
			return PackedRefs.empty(this.packedFile, this.options.hash());
		}
		CachedPacked<PackedRefs> cached = this.cachedPacked;
		if (!afresh && cached != null && cached.matches(attributes)) {
			return cached.refs;
		}
		PackedRefs refs = PackedRefs.read(this.packedFile, this.options.hash());
		this.cachedPacked = new CachedPacked<>(attributes.fileKey(), attributes.size(),
				attributes.lastModifiedTime().toMillis(), refs, null);
		return refs;
	}

	@Override
	public Optional<Ref> exactRef(String name) throws IOException {
		Ref ref = readRef(name);
		return (ref == null || ref == LooseRefs.BROKEN) ? Optional.empty() : Optional.of(ref);
	}

	/**
	 * Reads a ref: the loose file if there is one, else {@code packed-refs}.
	 * @return the ref, {@link LooseRefs#BROKEN}, or {@code null} if it does not exist
	 */
	Ref readRef(String name) throws IOException {
		if (!RefName.isValid(name, true)) {
			return null;
		}
		Ref loose = LooseRefs.read(refPath(name), name, this.options.hash());
		if (loose != null || RefName.isPseudoRef(name)) {
			return loose;
		}
		return lookupPacked(name);
	}

	/**
	 * Looks one name up in {@code packed-refs}: in the full snapshot if one is loaded and
	 * current, else in the mapped file, so that a single lookup does not read the whole
	 * file.
	 *
	 * <p>
	 * Whether the mapping is current is told by one {@code fstat} of the common
	 * directory, once a few lookups made its handle worth opening: git only ever replaces
	 * {@code packed-refs} by rename, which changes the directory (see
	 * {@link DirectoryStamp}).
	 */
	Ref lookupPacked(String name) throws IOException {
		CachedPacked<MappedPackedRefs> mapped = this.cachedMapped;
		if (mapped != null && this.packedDirStamp.unchanged(mapped.stamp)) {
			return mapped.refs.find(name);
		}
		DirectoryStamp.Token token = (++this.slowLookups > STAMP_AFTER_LOOKUPS) ? this.packedDirStamp.read() : null;
		BasicFileAttributes attributes = packedAttributes();
		if (attributes == null) {
			return null;
		}
		CachedPacked<PackedRefs> full = this.cachedPacked;
		if (full != null && full.matches(attributes)) {
			return readPacked(full.refs, name);
		}
		MappedPackedRefs map = (mapped != null && mapped.matches(attributes)) ? mapped.refs : null;
		if (map == null) {
			map = MappedPackedRefs.map(this.packedFile, this.options.hash());
			if (map == null) {
				return readPacked(packed(), name);
			}
		}
		if (mapped == null || mapped.refs != map || token != null) {
			// the token goes with the mapping it was read before: a mapping is never
			// paired with a newer token
			this.cachedMapped = new CachedPacked<>(attributes.fileKey(), attributes.size(),
					attributes.lastModifiedTime().toMillis(), map, token);
		}
		return map.find(name);
	}

	/**
	 * Lookups by path before the common directory's handle is opened: a one-shot lookup
	 * needs none.
	 */
	private static final int STAMP_AFTER_LOOKUPS = 2;

	static Ref readPacked(PackedRefs packed, String name) throws IOException {
		byte[] key = name.getBytes(StandardCharsets.UTF_8);
		int record = packed.find(key, key.length);
		if (record < 0) {
			return null;
		}
		packed.checkRecord(record);
		return new DirectRef(name, packed.id(record), packed.peeled(record));
	}

	@Override
	public RefCursor refs(RefQuery query) throws IOException {
		List<byte[]> loose = new ArrayList<>();
		if (query.includeRootRefs()) {
			loose.addAll(rootRefNames());
		}
		if (this.options.gitDir().equals(this.options.commonDir())) {
			loose.addAll(LooseRefs.list(this.options.commonDir(), query.prefix()));
		}
		else {
			loose.addAll(linkedWorktreeLoose(query.prefix()));
		}
		if (query.prefix().isEmpty() && query.startAfter().isEmpty()) {
			MappedPackedRefs.Chunks chunks = packedChunks();
			if (chunks != null) {
				return new FilesCursor(this, loose, chunks, query);
			}
		}
		return new FilesCursor(this, loose, packedFor(query.prefix()), query);
	}

	/**
	 * Every {@code packed-refs} record, a chunk at a time out of the mapping, for a
	 * listing of the whole store; {@code null} where the records are at hand already (a
	 * current full snapshot, no file) or the file cannot be mapped (no {@code sorted}
	 * trait).
	 */
	private MappedPackedRefs.Chunks packedChunks() throws IOException {
		BasicFileAttributes attributes = packedAttributes();
		if (attributes == null) {
			return null;
		}
		CachedPacked<PackedRefs> full = this.cachedPacked;
		if (full != null && full.matches(attributes)) {
			return null;
		}
		CachedPacked<MappedPackedRefs> mapped = this.cachedMapped;
		MappedPackedRefs map = (mapped != null && mapped.matches(attributes)) ? mapped.refs : null;
		if (map == null) {
			map = MappedPackedRefs.map(this.packedFile, this.options.hash());
			if (map == null) {
				return null;
			}
			this.cachedMapped = new CachedPacked<>(attributes.fileKey(), attributes.size(),
					attributes.lastModifiedTime().toMillis(), map, null);
		}
		return map.chunks();
	}

	/**
	 * The loose refs a linked worktree sees, sorted: the shared ones of the common git
	 * directory, and its own ({@code refs/bisect/}, ...) from its git directory instead
	 * of the main worktree's.
	 */
	private List<byte[]> linkedWorktreeLoose(String prefix) throws IOException {
		List<byte[]> names = new ArrayList<>();
		for (byte[] name : LooseRefs.list(this.options.commonDir(), prefix)) {
			if (!WorktreeRef.isPerWorktree(name, name.length)) {
				names.add(name);
			}
		}
		for (byte[] name : LooseRefs.list(this.options.gitDir(), prefix)) {
			if (WorktreeRef.isPerWorktree(name, name.length)) {
				names.add(name);
			}
		}
		names.sort(java.util.Arrays::compareUnsigned);
		return names;
	}

	/**
	 * The {@code packed-refs} records a query needs: all of them, or for a prefix only
	 * the part of a sorted file that holds it, cut out of the mapping (the full snapshot
	 * if one is loaded and current).
	 */
	private PackedRefs packedFor(String prefix) throws IOException {
		if (prefix.isEmpty()) {
			return packed();
		}
		BasicFileAttributes attributes = packedAttributes();
		if (attributes == null) {
			return PackedRefs.empty(this.packedFile, this.options.hash());
		}
		CachedPacked<PackedRefs> full = this.cachedPacked;
		if (full != null && full.matches(attributes)) {
			return full.refs;
		}
		CachedPacked<MappedPackedRefs> mapped = this.cachedMapped;
		MappedPackedRefs map = (mapped != null && mapped.matches(attributes)) ? mapped.refs : null;
		if (map == null) {
			map = MappedPackedRefs.map(this.packedFile, this.options.hash());
			if (map == null) {
				return packed();
			}
			this.cachedMapped = new CachedPacked<>(attributes.fileKey(), attributes.size(),
					attributes.lastModifiedTime().toMillis(), map, null);
		}
		return map.slice(prefix.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Names of root refs ({@code HEAD}, {@code ORIG_HEAD}, ...) that exist as files,
	 * sorted.
	 */
	private List<byte[]> rootRefNames() throws IOException {
		List<byte[]> names = new ArrayList<>();
		try (var entries = Files.newDirectoryStream(this.options.gitDir())) {
			for (Path entry : entries) {
				String name = entry.getFileName().toString();
				if (RefName.isRootRef(name) && Files.isRegularFile(entry)) {
					names.add(name.getBytes(StandardCharsets.UTF_8));
				}
			}
		}
		names.sort(java.util.Arrays::compareUnsigned);
		return names;
	}

	@Override
	public RefTransaction newTransaction() {
		return new FilesTransaction(this);
	}

	@Override
	public List<ReflogEntry> reflog(String name) throws IOException {
		if (!RefName.isValid(name, true)) {
			return List.of();
		}
		return FilesReflog.read(logPath(name), this.options.hash());
	}

	/** How many logs {@link #forEachReflog} reads ahead at once. */
	private static final int READ_AHEAD = 4096;

	/**
	 * Reads the logs a batch at a time on all processors ({@link ParallelIo}), each batch
	 * handed on in name order: a log per ref is a file to open, read and close per ref,
	 * and reading 100,000 of them back after a migration to files took a third of its
	 * time on one thread.
	 */
	@Override
	public void forEachReflog(List<String> names, ReflogVisitor visitor) throws IOException {
		for (int from = 0; from < names.size(); from += READ_AHEAD) {
			List<String> batch = names.subList(from, Math.min(names.size(), from + READ_AHEAD));
			List<ParallelIo.Outcome<List<ReflogEntry>>> logs = ParallelIo.map(batch, this::reflog);
			for (int i = 0; i < batch.size(); i++) {
				visitor.accept(batch.get(i), logs.get(i).get());
			}
		}
	}

	@Override
	public List<String> reflogNames() throws IOException {
		List<byte[]> names = new ArrayList<>();
		Path logs = this.options.gitDir().resolve("logs");
		try (var entries = Files.newDirectoryStream(logs)) {
			for (Path entry : entries) {
				String name = entry.getFileName().toString();
				if (!name.equals("refs") && RefName.isValid(name, true) && Files.isRegularFile(entry)) {
					names.add(name.getBytes(StandardCharsets.UTF_8));
				}
			}
		}
		catch (NoSuchFileException ex) {
			return List.of();
		}
		collectLogs(this.options.commonDir().resolve("logs/refs"), "refs/", names);
		names.sort(java.util.Arrays::compareUnsigned);
		List<String> result = new ArrayList<>(names.size());
		for (byte[] name : names) {
			result.add(new String(name, StandardCharsets.UTF_8));
		}
		return result;
	}

	/**
	 * The logs below {@code dir}, walked without a look at each file where the file
	 * system tells directories by their link counts ({@link Directories#forEachLeaf}); a
	 * symbolic link is a name like a file's, as git's reflog walk lists no directory
	 * through one.
	 */
	private static void collectLogs(Path dir, String prefix, List<byte[]> names) throws IOException {
		Directories.forEachLeaf(dir, prefix, (file, name) -> {
			if (RefName.isValid(name, false)) {
				names.add(name.getBytes(StandardCharsets.UTF_8));
			}
		});
	}

	@Override
	public boolean hasReflog(String name) throws IOException {
		return RefName.isValid(name, true) && Files.isRegularFile(logPath(name));
	}

	@Override
	public void appendReflog(String name, ReflogEntry entry) throws IOException {
		RefName.check(name, true);
		appendLocked(name, List.of(entry));
	}

	/**
	 * One write per log; with {@code force}, the logs are forced together: many of them
	 * with one sync of the file system ({@link FileSystemSync}), else on several threads,
	 * then each directory holding one and every directory above it up to the git
	 * directory, once.
	 */
	@Override
	public void appendReflogs(Map<String, List<ReflogEntry>> logs, boolean force) throws IOException {
		for (String name : logs.keySet()) {
			RefName.check(name, true);
		}
		List<Path> written = new ArrayList<>(logs.size());
		Map<Path, Set<Path>> dirs = new HashMap<>();
		for (Map.Entry<String, List<ReflogEntry>> log : logs.entrySet()) {
			if (!log.getValue().isEmpty()) {
				Path file = appendLocked(log.getKey(), log.getValue());
				written.add(file);
				dirs.computeIfAbsent(base(log.getKey()), (base) -> new HashSet<>()).add(file.getParent());
			}
		}
		if (force && !written.isEmpty() && !FileSystemSync.tried(written.get(0).getParent(), written.size())) {
			Fsync.files(written);
			Set<Path> chain = new HashSet<>();
			for (Map.Entry<Path, Set<Path>> base : dirs.entrySet()) {
				chain.addAll(Fsync.withParentsUpTo(base.getValue(), base.getKey()));
			}
			Fsync.directories(chain);
		}
	}

	/** Appends to a ref's log under the ref's lock; returns the log file. */
	private Path appendLocked(String name, List<ReflogEntry> entries) throws IOException {
		// a packed ref has no directory for its lock: made as git makes it, and pruned
		// again
		Path path = refPath(name);
		boolean made = !Files.isDirectory(path.getParent());
		if (made) {
			Files.createDirectories(path.getParent());
		}
		Path log = logPath(name);
		try (var lock = LockFile.acquire(path, this.options.looseLockTimeout(), this.options.owner())) {
			FilesReflog.append(log, entries);
		}
		finally {
			if (made) {
				removeEmptyParents(base(name), path);
			}
		}
		return log;
	}

	@Override
	public void packRefs(PackOptions options) throws IOException {
		new FilesPacker(this).pack(options);
	}

	@Override
	public StoreStatistics statistics() throws IOException {
		return FilesStatistics.of(this);
	}

	@Override
	public String fingerprint() throws IOException {
		return FilesFingerprint.of(this);
	}

	@Override
	public Closeable lockStore(Duration timeout, Path ownerFile) throws IOException {
		List<LockFile> locks = new ArrayList<>();
		Closeable release = () -> locks.forEach(LockFile::rollback);
		try {
			List<Path> paths = new ArrayList<>();
			paths.add(this.packedFile);
			for (byte[] name : rootRefNames()) {
				paths.add(refPath(new String(name, StandardCharsets.UTF_8)));
			}
			for (byte[] name : LooseRefs.list(this.options.commonDir(), "")) {
				paths.add(refPath(new String(name, StandardCharsets.UTF_8)));
			}
			Path mark = ownerFile;
			for (int i = 0; i < paths.size(); i++) {
				if (i > 0 && i % LOCKS_PER_MARK == 0) {
					mark = markCopy(ownerFile, i / LOCKS_PER_MARK);
				}
				locks.add(LockFile.acquireLinked(paths.get(i), timeout, mark));
			}
			return release;
		}
		catch (IOException | RuntimeException ex) {
			release.close();
			throw ex;
		}
	}

	/**
	 * A copy of the owner file for the next {@value #LOCKS_PER_MARK} locks: a file system
	 * limits the links of one file (ext4: 65,000), and a store may have more loose refs.
	 * Same content, forced before any lock links to it, so {@link #breakLocks} knows
	 * every copy's locks as the owner's.
	 */
	private static Path markCopy(Path ownerFile, int number) throws IOException {
		Path copy = ownerFile.resolveSibling(ownerFile.getFileName() + "." + number);
		Files.copy(ownerFile, copy, StandardCopyOption.REPLACE_EXISTING);
		Fsync.file(copy);
		Fsync.directory(copy.getParent());
		return copy;
	}

	@Override
	public int breakLocks(String owner) throws IOException {
		byte[] mark = owner.getBytes(StandardCharsets.UTF_8);
		int removed = 0;
		List<Path> candidates = new ArrayList<>();
		candidates.add(this.packedFile.resolveSibling("packed-refs.lock"));
		try (var entries = Files.newDirectoryStream(this.options.gitDir(), "*.lock")) {
			entries.forEach(candidates::add);
		}
		Path refs = this.options.commonDir().resolve("refs");
		if (Files.isDirectory(refs)) {
			FileMoves.forEachFile(refs, (file, attributes) -> {
				if (file.getFileName().toString().endsWith(".lock")) {
					candidates.add(file);
				}
			});
		}
		for (Path lock : candidates) {
			if (LockFile.deleteIfOwned(lock, mark)) {
				removed++;
			}
		}
		return removed;
	}

	@Override
	public void verify(Verification verification) throws IOException {
		new FilesVerifier(this, verification).verify();
	}

	@Override
	public void close() {
		this.cachedPacked = null;
		this.cachedMapped = null;
		this.packedDirStamp.close();
	}

	/**
	 * Creates the parent directories of {@code file}, as git does before creating a lock
	 * or log file.
	 * @throws FileAlreadyExistsException if a parent is a file (a directory/file
	 * conflict)
	 */
	static void createParentDirectories(Path file) throws IOException {
		Path parent = file.getParent();
		if (parent == null || Files.isDirectory(parent)) {
			return;
		}
		try {
			Files.createDirectories(parent);
		}
		catch (FileAlreadyExistsException ex) {
			throw ex;
		}
		catch (FileSystemException ex) {
			// a file two or more levels up fails as "Not a directory" (ENOTDIR), which
			// the callers could not tell from other failures: name it as the conflict it
			// is
			for (Path dir = parent; dir != null; dir = dir.getParent()) {
				if (Files.isRegularFile(dir, LinkOption.NOFOLLOW_LINKS)) {
					throw new FileAlreadyExistsException(dir.toString());
				}
			}
			throw ex;
		}
	}

	/**
	 * Removes the empty parent directories of {@code file} below {@code root}, keeping
	 * the first two levels ({@code refs/heads}, {@code logs/refs}), as git does after a
	 * deletion.
	 */
	static void removeEmptyParents(Path root, Path file) {
		Path dir = file.getParent();
		while (dir != null && dir.startsWith(root) && root.relativize(dir).getNameCount() > 2) {
			try {
				Files.delete(dir);
			}
			catch (DirectoryNotEmptyException | NoSuchFileException ex) {
				return;
			}
			catch (IOException ex) {
				return;
			}
			dir = dir.getParent();
		}
	}

	/**
	 * A parsed or mapped {@code packed-refs}, the identity of the file it came from, and
	 * the common directory's stamp read before that file was checked ({@code null} if
	 * none).
	 */
	private record CachedPacked<T>(Object fileKey, long size, long modified, T refs, DirectoryStamp.Token stamp) {

		boolean matches(BasicFileAttributes attributes) {
			return Objects.equals(this.fileKey, attributes.fileKey()) && this.size == attributes.size()
					&& this.modified == attributes.lastModifiedTime().toMillis();
		}

	}

}
