package io.refstore.core.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A durable record that one run (a {@code delete-refs}, a restore, a deletion job...)
 * takes git's locks in a repository, so that the locks it leaves when it is killed or the
 * power fails can be told from anyone else's and cleared. The record is a file in
 * {@code $GIT_DIR/refstore-owners/}, holding the {@link ProcessOwner} text, forced with
 * its directory before any lock exists; every lock the run then takes is a hard link to
 * it ({@link LockFile#acquire(Path, java.time.Duration, LockOwner)}): from the instant a
 * lock exists, its inode names its owner, and no lock of git's can be mistaken for it. A
 * lock that must receive content (a ref's new value, a new {@code tables.list}) gets it
 * in a staged file of the owner's, renamed over the target while the linked lock is held,
 * as git does with {@code packed-refs.new}.
 *
 * <p>
 * {@link #releaseAbandoned} removes the locks of owners known to be gone (a command whose
 * process no longer runs on this host, or a job whose execution the caller knows is dead)
 * with the files staged under them, and a {@code packed-refs.new} written under their
 * {@code packed-refs.lock}.
 *
 * <p>
 * Thread-safe: the locks of one transaction are taken on several threads.
 */
public final class LockOwner implements AutoCloseable {

	/** The directory of owner files, in the common git directory. */
	public static final String DIR = "refstore-owners";

	/**
	 * The directory of a format migration's or rollback's work in the git directory,
	 * whose owner file (and its copies) the swap's locks link to.
	 */
	public static final String SWAP_DIR = "refstore-migration";

	/**
	 * Links per owner file: a file system limits the links of one file (ext4: 65,000).
	 */
	static final int LINKS_PER_MARK = 60_000;

	static final String STAGING = ".staged";

	/** An owner record being written, before its rename publishes it. */
	static final String TMP = ".tmp";

	/**
	 * How old a record being written must be before it counts as abandoned when it cannot
	 * name its owner: a claim writes and publishes it within milliseconds.
	 */
	private static final Duration UNPUBLISHED_AGE = Duration.ofSeconds(10);

	/**
	 * The owners claimed by this process and not closed: alive whatever their pid says.
	 */
	private static final Set<String> LIVE = ConcurrentHashMap.newKeySet();

	private final Path file;

	private final String id;

	private final Path staging;

	/**
	 * What the record says, for a record published on the first lock
	 * ({@link #forProcess}); {@code null} once published.
	 */
	private String unpublished;

	/** The text of a record {@link #forProcess} made, to publish again if it is lost. */
	private final String text;

	/** Whether the record's name is forced to the disk. */
	private boolean durable;

	/** Whether the record must be durable before the next lock links to it. */
	private volatile boolean durableWanted;

	/** Whether this owner made the owners' directory, whose name is not forced yet. */
	private boolean createdDir;

	private long staged;

	private Path mark;

	private int marks;

	private int links;

	private LockOwner(Path file, String id, String unpublished, boolean durable) {
		this.file = file;
		this.id = id;
		this.staging = file.resolveSibling(id + STAGING);
		this.mark = file;
		this.unpublished = unpublished;
		this.text = unpublished;
		this.durable = durable;
	}

	/**
	 * Records this process as the owner of the locks it is about to take in the
	 * repository of {@code commonDir}.
	 * @param command what runs, for the record ({@code "delete-refs"})
	 * @param job the job instance that owns the run across processes, or {@code null} for
	 * a command
	 * @return the owner; close it once every lock it took is released
	 */
	public static LockOwner claim(Path commonDir, String command, String job) throws IOException {
		Path dir = commonDir.resolve(DIR);
		Fsync.createDirectories(dir);
		String id = newId();
		byte[] text = (ProcessOwner.describeThisProcess(command, job) + "id " + id + "\n")
			.getBytes(StandardCharsets.UTF_8);
		Path file = dir.resolve(id);
		Fsync.writeAtomically(file, text, text.length, dir.resolve(id + TMP));
		LIVE.add(id);
		return new LockOwner(file, id, null, true);
	}

	/**
	 * The owner of the ordinary writes of this process in the repository of
	 * {@code commonDir} (the API's transactions, a command's {@code update-ref}, the
	 * compactions after them). Nothing is written until the first lock: then, once per
	 * owner, the locks of owners known to be gone are cleared
	 * ({@link #releaseAbandoned}), and the record is published. The record's name is
	 * forced to the disk only if {@link #makeDurable} asked for it (a store under
	 * {@code core.fsync} for references), once; its content never is, since a lock linked
	 * to a record cut short by a power cut is known as abandoned anyway. A read-only user
	 * never writes anything.
	 * @param command what runs, for the record
	 * @return the owner; close it once its locks are released (at the process's end)
	 */
	public static LockOwner forProcess(Path commonDir, String command) {
		String id = newId();
		String text = ProcessOwner.describeThisProcess(command, null) + "id " + id + "\n";
		return new LockOwner(commonDir.resolve(DIR).resolve(id), id, text, false);
	}

	/**
	 * A new owner id, unique among the records of every process on every host: this
	 * process's id and 96 random bits. Not a {@link java.util.UUID#randomUUID()}, whose
	 * secure generator costs a short command about 50 ms to set up, for no secret.
	 */
	private static String newId() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		return Long.toHexString(ProcessHandle.current().pid()) + "-" + Long.toHexString(random.nextLong()) + "-"
				+ Integer.toHexString(random.nextInt());
	}

	/**
	 * Asks that the record reach the disk before the next lock links to it, so that a
	 * lock a power cut leaves is still known as this owner's: for a store that forces its
	 * refs ({@code core.fsync} covering references). Costs one directory sync, once.
	 */
	public void makeDurable() {
		this.durableWanted = true;
	}

	/**
	 * Removes {@code lock}, which is in the way, if it was left by an owner known to be
	 * gone (a link to its record); git's locks and the locks of owners that may run stay.
	 * @return whether it was such a lock and is gone
	 */
	boolean breakIfAbandoned(Path lock) throws IOException {
		return AbandonedLocks.breakIfAbandoned(this.file.getParent(), lock);
	}

	/**
	 * Whether the record the next lock would link to is gone (removed by hand while this
	 * process ran); if so, a record made by {@link #forProcess} is published again at the
	 * next lock.
	 * @return whether the caller should try its lock again
	 */
	synchronized boolean recordLost() throws IOException {
		if (this.text == null || this.unpublished != null || Files.exists(this.mark, LinkOption.NOFOLLOW_LINKS)) {
			return false;
		}
		this.unpublished = this.text;
		this.mark = this.file;
		this.marks = 0;
		this.links = 0;
		this.staged = 0;
		this.durable = false;
		return true;
	}

	/** Whether {@code id} names an owner of this process that is not closed. */
	static boolean isLive(String id) {
		return LIVE.contains(id);
	}

	/**
	 * Whether a record's text is cut short: every record ends with its {@code id} line,
	 * so one without it lost its end (or all of it) in a power cut.
	 */
	static boolean cutShort(String text) {
		if (!text.startsWith("refstore ") || !text.endsWith("\n")) {
			return true;
		}
		int last = text.lastIndexOf('\n', text.length() - 2);
		return !text.startsWith("id ", last + 1);
	}

	/**
	 * Publishes a record made by {@link #forProcess}, after clearing the locks of owners
	 * known to be gone.
	 */
	private void publish() throws IOException {
		Path dir = this.file.getParent();
		Path commonDir = dir.getParent();
		releaseAbandoned(commonDir, null);
		boolean created = !Files.isDirectory(dir);
		if (created) {
			Files.createDirectories(dir);
		}
		Path tmp = dir.resolve(this.id + TMP);
		Files.writeString(tmp, this.unpublished, StandardCharsets.UTF_8);
		LIVE.add(this.id);
		Files.move(tmp, this.file, StandardCopyOption.ATOMIC_MOVE);
		this.unpublished = null;
		// the directory's own name too, once, if the record is ever made durable
		this.createdDir = created;
	}

	/**
	 * Forces the record's name (and the directory's, if this owner made it) to the disk.
	 */
	private void forceName() throws IOException {
		Path dir = this.file.getParent();
		Fsync.directory(dir);
		if (this.createdDir) {
			Fsync.directory(dir.getParent());
			this.createdDir = false;
		}
		this.durable = true;
	}

	/**
	 * The file the next lock links to: the owner file, or a copy of it once it has as
	 * many links as allowed.
	 */
	synchronized Path mark() throws IOException {
		if (this.unpublished != null) {
			publish();
		}
		if (this.durableWanted && !this.durable) {
			forceName();
		}
		if (this.links >= LINKS_PER_MARK) {
			// a long-lived owner's locks come and go: count the links its mark has now
			this.links = AbandonedLocks.links(this.mark) - 1;
			if (this.links >= LINKS_PER_MARK / 2) {
				this.marks++;
				Path copy = this.file.resolveSibling(this.id + "." + this.marks);
				Files.copy(this.file, copy, StandardCopyOption.REPLACE_EXISTING);
				Fsync.file(copy);
				Fsync.directory(copy.getParent());
				this.mark = copy;
				this.links = 0;
			}
		}
		this.links++;
		return this.mark;
	}

	/**
	 * A new file in which a lock's content is staged (on the lock's file system, renamed
	 * over its target).
	 */
	synchronized Path stagingFile() throws IOException {
		long number = ++this.staged;
		if (number == 1) {
			// made once, not looked for per lock: a restore stages a file for every ref
			// it writes
			Files.createDirectories(this.staging);
		}
		return this.staging.resolve(Long.toString(number));
	}

	/**
	 * Removes the record; the caller has released every lock it took. The removal of the
	 * locks that stay longest in one place ({@code packed-refs.lock},
	 * {@code tables.list.lock}) is forced first if the record is durable: a power cut
	 * must not bring back a lock whose owner is forgotten. A record that a lock still
	 * links to (one its holder failed to remove) stays, for the next run to clear.
	 */
	@Override
	public synchronized void close() throws IOException {
		if (this.unpublished != null) {
			// never used: nothing was written
			this.unpublished = null;
			return;
		}
		Path commonDir = this.file.getParent().getParent();
		try {
			if (this.durable) {
				Fsync.directory(commonDir);
				Path reftable = commonDir.resolve("reftable");
				if (Files.isDirectory(reftable)) {
					Fsync.directory(reftable);
				}
			}
		}
		finally {
			// the record stays if the sync failed: the next run clears what this one may
			// have left
			LIVE.remove(this.id);
		}
		for (int i = this.marks; i >= 0; i--) {
			Path mark = (i == 0) ? this.file : this.file.resolveSibling(this.id + "." + i);
			if (Files.exists(mark) && AbandonedLocks.links(mark) > 1) {
				return;
			}
		}
		FileMoves.deleteTree(this.staging);
		for (int i = this.marks; i > 0; i--) {
			Files.deleteIfExists(this.file.resolveSibling(this.id + "." + i));
		}
		Files.deleteIfExists(this.file);
	}

	/**
	 * Removes the locks that owners known to be gone left in the repository of
	 * {@code commonDir}, the files they staged, and their records. Owners that may still
	 * run are left alone and returned. Removes under the repository's break lock
	 * ({@link AbandonedLocks}), looking again under it.
	 * @param deadJob the job instance whose earlier executions the caller knows are dead,
	 * or {@code null}
	 * @return what was removed and who still runs
	 */
	public static Released releaseAbandoned(Path commonDir, String deadJob) throws IOException {
		Path dir = commonDir.resolve(DIR);
		Survey first = survey(dir, deadJob);
		if (first == null || (first.dead().isEmpty() && first.records().isEmpty() && first.unpublished().isEmpty())) {
			return new Released(0, (first != null) ? first.running() : List.of());
		}
		return AbandonedLocks.exclusively(dir, () -> {
			Survey survey = survey(dir, deadJob);
			if (survey == null) {
				return new Released(0, List.of());
			}
			for (Path tmp : survey.unpublished()) {
				removeIfAbandoned(tmp, deadJob);
			}
			int removed = survey.dead().isEmpty() ? 0 : removeLinks(commonDir, survey.dead());
			for (Path record : survey.records()) {
				String name = record.getFileName().toString();
				String id = name.endsWith(TMP) ? name.substring(0, name.length() - TMP.length()) : name;
				FileMoves.deleteTree(dir.resolve(id + STAGING));
				try (DirectoryStream<Path> copies = Files.newDirectoryStream(dir, id + "*")) {
					for (Path copy : copies) {
						if (Files.isRegularFile(copy, LinkOption.NOFOLLOW_LINKS)) {
							Files.deleteIfExists(copy);
						}
					}
				}
			}
			return new Released(removed, survey.running());
		});
	}

	/**
	 * The owners' directory as one look found it.
	 *
	 * @param running the owners that may still run
	 * @param dead the file keys of the records (and copies) of gone owners that locks
	 * link to
	 * @param records the records of gone owners, to remove with their copies and staged
	 * files
	 * @param unpublished the records no lock links to that were never published
	 */
	private record Survey(List<ProcessOwner> running, Set<Object> dead, List<Path> records, List<Path> unpublished) {
	}

	/** Looks at the owners' directory {@code dir}; {@code null} if there is none. */
	private static Survey survey(Path dir, String deadJob) throws IOException {
		Survey survey = new Survey(new ArrayList<>(), new HashSet<>(), new ArrayList<>(), new ArrayList<>());
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
			for (Path entry : entries) {
				String name = entry.getFileName().toString();
				if (name.endsWith(TMP)) {
					if (Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS) && AbandonedLocks.links(entry) > 1) {
						// locks link to a record whose publishing a power cut undid
						survey.dead().add(AbandonedLocks.keyOf(entry));
						survey.records().add(entry);
					}
					else {
						survey.unpublished().add(entry);
					}
					continue;
				}
				if (name.contains(".")) {
					continue;
				}
				String text;
				try {
					text = Files.readString(entry, StandardCharsets.UTF_8);
				}
				catch (NoSuchFileException ex) {
					continue;
				}
				ProcessOwner owner = ProcessOwner.parse(text);
				if (LIVE.contains(name) || (!cutShort(text) && !owner.isGone(deadJob))) {
					survey.running().add(owner);
					continue;
				}
				survey.records().add(entry);
				try (DirectoryStream<Path> copies = Files.newDirectoryStream(dir, name + "*")) {
					for (Path copy : copies) {
						// a file with one link has no lock linked to it: no walk of the
						// refs for it
						if (Files.isRegularFile(copy, LinkOption.NOFOLLOW_LINKS) && AbandonedLocks.links(copy) > 1) {
							survey.dead().add(AbandonedLocks.keyOf(copy));
						}
					}
				}
			}
		}
		catch (NoSuchFileException ex) {
			return null;
		}
		return survey;
	}

	/**
	 * Removes a record that its owner was killed before publishing (between writing
	 * {@code <id>.tmp} and renaming it to {@code <id>}): no lock can link to it. A whole
	 * one (it ends with its id line) goes when its owner is gone; one that is empty or
	 * cut short cannot name its owner, and goes once it is older than any claim in
	 * progress.
	 */
	private static void removeIfAbandoned(Path tmp, String deadJob) throws IOException {
		String name = tmp.getFileName().toString();
		String id = name.substring(0, name.length() - TMP.length());
		String text;
		try {
			text = Files.readString(tmp, StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			return;
		}
		boolean abandoned;
		if (text.endsWith("id " + id + "\n")) {
			// this process's own claim may be between its write and its rename on another
			// thread: only another, gone process abandons one
			abandoned = !text.contains("\npid " + ProcessHandle.current().pid() + "\n")
					&& ProcessOwner.parse(text).isGone(deadJob);
		}
		else {
			abandoned = Files.getLastModifiedTime(tmp).toInstant().isBefore(Instant.now().minus(UNPUBLISHED_AGE));
		}
		if (abandoned) {
			Files.deleteIfExists(tmp);
		}
	}

	/**
	 * Deletes every lock file linked to one of {@code dead} (file keys): those of both
	 * formats' stores, the root refs', those of the linked worktrees' own refs and
	 * stacks, and {@code packed-refs.new} if its lock was one of them (only the lock
	 * holder writes it).
	 */
	private static int removeLinks(Path commonDir, Set<Object> dead) throws IOException {
		List<Path> candidates = new ArrayList<>();
		List<Path> gitDirs = new ArrayList<>(List.of(commonDir));
		// the linked worktrees' own refs (HEAD, root refs, refs/bisect/...) and stacks
		Path worktrees = commonDir.resolve("worktrees");
		if (Files.isDirectory(worktrees, LinkOption.NOFOLLOW_LINKS)) {
			try (DirectoryStream<Path> entries = Files.newDirectoryStream(worktrees)) {
				for (Path entry : entries) {
					if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
						gitDirs.add(entry);
					}
				}
			}
		}
		for (Path gitDir : gitDirs) {
			for (Path dir : List.of(gitDir, gitDir.resolve("reftable"))) {
				if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
					try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*.lock")) {
						entries.forEach(candidates::add);
					}
				}
			}
			Path refs = gitDir.resolve("refs");
			if (Files.isDirectory(refs, LinkOption.NOFOLLOW_LINKS)) {
				FileMoves.forEachFile(refs, (file, attributes) -> {
					if (file.getFileName().toString().endsWith(".lock") && dead.contains(attributes.fileKey())) {
						candidates.add(file);
					}
				});
			}
		}
		int removed = 0;
		for (Path lock : candidates) {
			if (isLinkOf(lock, dead) && AbandonedLocks.removeLock(lock)) {
				removed++;
			}
		}
		return removed;
	}

	private static boolean isLinkOf(Path lock, Set<Object> dead) throws IOException {
		try {
			return dead
				.contains(Files.readAttributes(lock, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey());
		}
		catch (NoSuchFileException ex) {
			return false;
		}
	}

	/**
	 * What {@link #releaseAbandoned} did.
	 *
	 * @param locks how many lock files it removed
	 * @param running the owners that may still run, whose locks stay
	 */
	public record Released(int locks, List<ProcessOwner> running) {
	}

}
