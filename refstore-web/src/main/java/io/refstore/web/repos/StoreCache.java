package io.refstore.web.repos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.ProcessLocks;
import io.refstore.core.store.RefStores;

/**
 * Keeps ref stores open between requests, so that what a store caches (the parsed
 * {@code packed-refs} of a million refs, the opened reftables, the object database) is
 * not read again for every page. A store stays valid on its own: each read checks whether
 * git replaced its files. What it cannot notice is a change of the repository's
 * configuration (a format migration swaps {@code extensions.refStorage}), so every use
 * compares a fingerprint of the settings a store is opened with and of its directories'
 * identities, read from a freshly opened {@link Repository}, and opens a new store when
 * they differ.
 * <p>
 * An entry replaced or evicted while requests still use it is closed when the last of
 * them is done. At most {@code capacity} repositories are kept, least recently used first
 * out. Thread-safe.
 */
final class StoreCache implements AutoCloseable {

	private final Map<Path, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

	private final int capacity;

	private final ProcessLocks locks;

	/**
	 * @param locks the record of this application's locks: every store it opens takes its
	 * locks as links to it, so that a restart clears those a kill leaves
	 */
	StoreCache(int capacity, ProcessLocks locks) {
		this.capacity = capacity;
		this.locks = locks;
	}

	/** One cached store and the repository it was opened from. */
	static final class Entry {

		final String fingerprint;

		final Repository repository;

		final RefStore store;

		private int users;

		private boolean retired;

		Entry(String fingerprint, Repository repository, RefStore store) {
			this.fingerprint = fingerprint;
			this.repository = repository;
			this.store = store;
		}

	}

	/**
	 * The store for {@code fresh}'s repository: the cached one if its settings are
	 * unchanged, else a new one opened from {@code fresh}. Takes ownership of
	 * {@code fresh}. Call {@link #release} when done.
	 */
	synchronized Entry acquire(Repository fresh) throws IOException {
		String fingerprint;
		try {
			fingerprint = fingerprint(fresh);
		}
		catch (IOException | RuntimeException ex) {
			fresh.close();
			throw ex;
		}
		Entry entry = this.entries.get(fresh.gitDir());
		if (entry != null && entry.fingerprint.equals(fingerprint)) {
			fresh.close();
			entry.users++;
			return entry;
		}
		if (entry != null) {
			this.entries.remove(fresh.gitDir());
			retire(entry);
		}
		RefStore store;
		try {
			store = this.locks.open(fresh);
		}
		catch (IOException | RuntimeException ex) {
			fresh.close();
			throw ex;
		}
		entry = new Entry(fingerprint, fresh, store);
		entry.users = 1;
		this.entries.put(fresh.gitDir(), entry);
		evict();
		return entry;
	}

	/** Ends one use of {@code entry}. */
	synchronized void release(Entry entry) {
		entry.users--;
		if (entry.retired && entry.users == 0) {
			closeEntry(entry);
		}
	}

	private void evict() {
		Iterator<Entry> eldest = this.entries.values().iterator();
		while (this.entries.size() > this.capacity && eldest.hasNext()) {
			Entry entry = eldest.next();
			eldest.remove();
			retire(entry);
		}
	}

	private static void retire(Entry entry) {
		entry.retired = true;
		if (entry.users == 0) {
			closeEntry(entry);
		}
	}

	private static void closeEntry(Entry entry) {
		try {
			entry.store.close();
		}
		catch (IOException ex) {
			// nothing is left to flush: every write committed before the store was
			// released
		}
		finally {
			entry.repository.close();
		}
	}

	static String fingerprint(Repository repository) throws IOException {
		// the directories' identities too: a store follows the directory it opened, so a
		// repository replaced
		// on disk (moved away, another one moved in under its name) needs a new store
		// the swap generation too: a store opened before a swap is refused every write
		// after it
		StringBuilder text = new StringBuilder().append(repository.refFormat())
			.append(' ')
			.append(repository.storeGeneration())
			.append(' ')
			.append(repository.hashAlgorithm())
			.append(' ')
			.append(repository.commonDir())
			.append(' ')
			.append(identity(repository.gitDir()))
			.append(' ')
			.append(identity(repository.commonDir()));
		// and the settings a store is opened under (RefStores.SETTINGS): a store opened
		// under others is not reused
		return text.append('\n').append(RefStores.settings(repository)).toString();
	}

	private static Object identity(Path dir) throws IOException {
		return Files.readAttributes(dir, BasicFileAttributes.class).fileKey();
	}

	@Override
	public synchronized void close() {
		List<Entry> all = new ArrayList<>(this.entries.values());
		this.entries.clear();
		all.forEach(StoreCache::retire);
	}

}
