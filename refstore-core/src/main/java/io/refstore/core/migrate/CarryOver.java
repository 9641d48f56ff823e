package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

import io.refstore.core.io.FileMoves;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.ReflogPolicy;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * The refs a git process wrote into a files store while a migration swapped it out,
 * carried into the new store.
 * <p>
 * A swap locks {@code packed-refs} and every loose ref that exists, so git can neither
 * delete a ref nor change a locked one. It can still create a loose ref no one has
 * locked: a new ref, or a new value of a ref that was only packed, with its reflog. If
 * git renames that file into place before the old store is retired, the write is
 * confirmed to git's caller but lands in the backup. So the swap records, under its
 * locks, the identity (file key, size, time) of every loose ref and log file; after the
 * retire, any file of the backup whose identity differs, and any ref file a git that had
 * read the old configuration wrote into the git directory after the retire, names a ref
 * to carry: its value and the log entries the new store lacks are written into the new
 * store.
 * <p>
 * A git that read the old configuration and writes after this check is beyond reach: see
 * docs/guarantees.md.
 */
final class CarryOver {

	/**
	 * The message of a carried update whose own reflog entry git did not write (or wrote
	 * differently).
	 */
	static final String MESSAGE = "refs migrate: carried over from the retired files store";

	/** How long a carried update waits for a lock of git's in the new store. */
	private static final Duration LOCK_WAIT = Duration.ofSeconds(10);

	private final Map<String, String> locked;

	/** The identities of the store's directories under the locks. */
	private final Map<String, String> directories;

	private CarryOver(Map<String, String> locked, Map<String, String> directories) {
		this.locked = locked;
		this.directories = directories;
	}

	/**
	 * The prefix of the directories below the work directory that keep refs moved out of
	 * the stubs' way.
	 */
	private static final String STRAYS = "strays-";

	/**
	 * The file in the work directory that keeps the snapshot until the swap is finished.
	 */
	static final String FILE = "loose-identities";

	/**
	 * Records the loose refs and logs of a files store as {@code locked} found them; take
	 * that under the store's locks.
	 */
	static CarryOver of(StoreFiles locked) {
		return new CarryOver(locked.carried(), locked.directories());
	}

	/**
	 * A file of the snapshot whose path under {@code backup}, or its lock's (5 bytes
	 * longer), would be longer than a path may be: the retirement and the carry-over that
	 * follow the switch could not reach it there. Names only, no file system calls; bytes
	 * are counted only for names long enough to matter (UTF-8 takes at most 3 per char).
	 * @return its path relative to the store, or empty
	 */
	Optional<String> tooDeepFor(Path backup) {
		int longest = FileMoves.PATH_MAX - 1;
		int room = longest - backup.toString().getBytes(StandardCharsets.UTF_8).length - "/".length()
				- ".lock".length();
		for (String file : this.locked.keySet()) {
			if (file.length() * 3 > room && file.getBytes(StandardCharsets.UTF_8).length > room) {
				return Optional.of(file);
			}
		}
		return Optional.empty();
	}

	/**
	 * Keeps the snapshot in {@code work}, durably, so that a run finishing a killed swap
	 * can carry too.
	 */
	void write(Path work) throws IOException {
		StringBuilder text = new StringBuilder();
		this.locked.forEach((file, identity) -> text.append(file).append('\0').append(identity).append('\n'));
		// a directory's path ends with a slash, which no file's does
		this.directories.forEach((dir, identity) -> text.append(dir).append("/\0").append(identity).append('\n'));
		DurableFiles.write(work.resolve(FILE), text.toString().getBytes(StandardCharsets.UTF_8));
	}

	/** The snapshot kept in {@code work}, or {@code null} if there is none. */
	static CarryOver read(Path work) throws IOException {
		String text;
		try {
			text = Files.readString(work.resolve(FILE), StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			return null;
		}
		Map<String, String> locked = new TreeMap<>();
		Map<String, String> directories = new HashMap<>();
		for (String line : text.split("\n")) {
			int split = line.indexOf('\0');
			if (split > 1 && line.charAt(split - 1) == '/') {
				directories.put(line.substring(0, split - 1), line.substring(split + 1));
			}
			else if (split > 0) {
				locked.put(line.substring(0, split), line.substring(split + 1));
			}
		}
		return new CarryOver(locked, directories);
	}

	/**
	 * Carries what changed since {@link #snapshot} into the repository's new (reftable)
	 * store.
	 * @param repository the repository, reopened here (with its environment) because its
	 * configuration now names the new store
	 * @param storeDir where the store's files are (the git directory, unless a ref
	 * storage URI puts them elsewhere)
	 * @param backup where the old files store was retired to
	 * @param work the swap's work directory
	 * @return the names of the refs carried, sorted
	 */
	List<String> carry(Repository repository, Path storeDir, Path backup, Path work) throws IOException {
		TreeSet<String> changed = new TreeSet<>();
		// the backup's directories are the store's, moved: only those changed since the
		// locks' snapshot are listed
		StoreFiles.since(backup, StoreFiles.recorded(this.locked, this.directories))
			.carried()
			.forEach((file, identity) -> {
				if (!identity.equals(this.locked.get(file))) {
					changed.add(refName(file));
				}
			});
		// where git processes that read the configuration before the switch wrote after
		// the retire: the
		// refs/heads directories the stubs had to move out of the way, and the git
		// directory itself; a ref's file
		// and its log may be in different ones
		List<Path> strayDirs = new ArrayList<>(straysDirs(work));
		strayDirs.add(storeDir);
		Map<String, Path> strayRefs = new TreeMap<>();
		Map<String, Path> strayLogs = new TreeMap<>();
		for (Path dir : strayDirs) {
			StoreFiles.of(dir)
				.carried()
				.keySet()
				.forEach((file) -> (file.startsWith("logs/") ? strayLogs : strayRefs).put(refName(file), dir));
		}
		if (changed.isEmpty() && strayRefs.isEmpty()) {
			return List.of();
		}
		TreeSet<String> carried = new TreeSet<>();
		Map<Path, RefStore> stores = new HashMap<>();
		try (Repository fresh = repository.reopen()) {
			stores.put(backup, RefStores.openAt(fresh, RefFormat.FILES, backup));
			for (Path dir : strayDirs) {
				stores.put(dir, RefStores.openAt(fresh, RefFormat.FILES, dir));
			}
			for (String name : changed) {
				// the retire moves logs/ before refs/: a stale git may write a ref's log
				// entry after the one move and the ref itself before the other, so a ref
				// that reached the backup can have its entry in a stray log
				if (!strayRefs.containsKey(name) && carryOne(fresh, name, stores.get(backup),
						withStrayLog(reflog(stores.get(backup), name), name, strayLogs, stores))) {
					carried.add(name);
				}
			}
			for (Map.Entry<String, Path> stray : strayRefs.entrySet()) {
				String name = stray.getKey();
				List<ReflogEntry> log = withStrayLog(reflog(stores.get(backup), name), name, strayLogs, stores);
				if (carryOne(fresh, name, stores.get(stray.getValue()), log)) {
					carried.add(name);
				}
			}
		}
		finally {
			for (RefStore store : stores.values()) {
				store.close();
			}
		}
		return List.copyOf(carried);
	}

	/**
	 * A new directory below {@code work} for refs that were in the way of the reftable
	 * stubs.
	 */
	static Path newStraysDir(Path work) throws IOException {
		for (int i = 0;; i++) {
			Path dir = work.resolve(STRAYS + i);
			if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
				return dir;
			}
		}
	}

	private static List<Path> straysDirs(Path work) {
		List<Path> dirs = new ArrayList<>();
		for (int i = 0; Files.isDirectory(work.resolve(STRAYS + i), LinkOption.NOFOLLOW_LINKS); i++) {
			dirs.add(work.resolve(STRAYS + i));
		}
		return dirs;
	}

	/**
	 * {@code retired} followed by the entries of {@code name}'s stray log, if a stale git
	 * began one: it found no log where it looked (retired with the store).
	 */
	private static List<ReflogEntry> withStrayLog(List<ReflogEntry> retired, String name, Map<String, Path> strayLogs,
			Map<Path, RefStore> stores) throws IOException {
		Path strayLog = strayLogs.get(name);
		if (strayLog == null) {
			return retired;
		}
		List<ReflogEntry> log = new ArrayList<>(retired);
		log.addAll(reflog(stores.get(strayLog), name));
		return log;
	}

	private static List<ReflogEntry> reflog(RefStore store, String name) throws IOException {
		return store.hasReflog(name) ? store.reflog(name) : List.of();
	}

	/**
	 * Writes {@code name}'s value from {@code valueFrom} and the entries of {@code log}
	 * that the repository's store lacks into that store.
	 */
	private static boolean carryOne(Repository repository, String name, RefStore valueFrom, List<ReflogEntry> log)
			throws IOException {
		Optional<Ref> value = valueFrom.exactRef(name);
		if (value.isEmpty()) {
			return false;
		}
		ReflogPolicy policy = log.isEmpty() ? ReflogPolicy.EXISTING_ONLY : ReflogPolicy.ALWAYS;
		// git writes the new store from the switch on: its locks are held for moments, so
		// the carry waits for them rather than failing the swap at its last step
		try (RefStore to = RefStores.open(repository, policy, null, LOCK_WAIT)) {
			return carry(name, value.get(), log, to, MESSAGE);
		}
	}

	/**
	 * Writes {@code value} into {@code to}, with the entries of {@code log} that
	 * {@code to}'s log of {@code name} lacks: the last one as the update's own entry if
	 * it is that update, else the update logs {@code message}.
	 * @return whether anything was written
	 * @throws MigrationException if {@code to} refuses the update
	 */
	static boolean carry(String name, Ref value, List<ReflogEntry> log, RefStore to, String message)
			throws IOException {
		List<ReflogEntry> have = to.hasReflog(name) ? to.reflog(name) : List.of();
		List<ReflogEntry> missing = (have.size() <= log.size() && log.subList(0, have.size()).equals(have))
				? log.subList(have.size(), log.size()) : List.of();
		Optional<Ref> current = to.exactRef(name);
		if (current.equals(Optional.of(value))) {
			for (ReflogEntry entry : missing) {
				to.appendReflog(name, entry);
			}
			return !missing.isEmpty();
		}
		ObjectId old = current.filter(DirectRef.class::isInstance)
			.map((ref) -> ((DirectRef) ref).id())
			.orElse(to.hashAlgorithm().zeroId());
		ReflogEntry last = missing.isEmpty() ? null : missing.get(missing.size() - 1);
		// git's own entry for this very update is written by the transaction, so it is
		// not there twice
		boolean lastIsThisUpdate = last != null && value instanceof DirectRef direct && last.newId().equals(direct.id())
				&& last.oldId().equals(old);
		for (ReflogEntry entry : lastIsThisUpdate ? missing.subList(0, missing.size() - 1) : missing) {
			to.appendReflog(name, entry);
		}
		try (RefTransaction transaction = to.newTransaction()) {
			RefUpdate update = (value instanceof DirectRef direct)
					? RefUpdate.update(name, direct.id(), old).withNoDeref()
					: RefUpdate.symref(name, ((SymbolicRef) value).target());
			transaction.add(update);
			if (lastIsThisUpdate) {
				transaction.committer(last.who()).message(last.message());
			}
			else {
				transaction.message(message);
			}
			TransactionResult result = transaction.commit();
			if (!result.committed()) {
				throw new MigrationException("could not carry '" + name + "' into the new store: "
						+ result.firstRejection().map(Object::toString).orElse("rejected"));
			}
		}
		return true;
	}

	/**
	 * The ref a store file holds: {@code refs/x} for itself and for {@code logs/refs/x}.
	 */
	private static String refName(String file) {
		return file.startsWith("logs/") ? file.substring("logs/".length()) : file;
	}

}
