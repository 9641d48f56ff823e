package io.refstore.web.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import io.refstore.core.journal.JournalEntry;
import io.refstore.core.journal.JournalHook;
import io.refstore.core.journal.JournalReader;
import io.refstore.core.repo.RepositoryPaths;
import io.refstore.web.repos.RepoRegistry;

/**
 * Copies each repository's journal file (docs/journal.md) into the database,
 * incrementally: from the offset its source row records, at most
 * {@code refstore.journal.ingest-run} entries per transaction, each run's entries and the
 * new offset committed together, so that a run killed half way is read again and no entry
 * is stored twice. Two instances ingesting one repository take turns on its source row's
 * lock. A file whose bytes before the offset are no longer the ones read then (a file
 * replaced or truncated) is read from its start; a file copied or moved with the
 * repository goes on where it was. Queries ingest their repository first; a sweep every
 * {@code refstore.journal.ingest-interval} ingests every repository the roots hold.
 * Thread-safe.
 */
@Component
class JournalIngester implements SchedulingConfigurer {

	private static final Logger logger = LoggerFactory.getLogger(JournalIngester.class);

	/** How many bytes before the offset tell the file read before from another. */
	static final int TAIL = 64;

	private final RepoRegistry registry;

	private final JournalStore store;

	private final TransactionTemplate transactions;

	private final JournalReplay replay;

	private final JournalProperties settings;

	JournalIngester(RepoRegistry registry, JournalStore store, JournalReplay replay, TransactionTemplate transactions,
			JournalProperties settings) {
		this.registry = registry;
		this.store = store;
		this.replay = replay;
		this.transactions = transactions;
		this.settings = settings;
	}

	@Override
	public void configureTasks(ScheduledTaskRegistrar tasks) {
		if (!this.settings.ingestInterval().isZero()) {
			tasks.addFixedDelayTask(
					new FixedDelayTask(this::sweep, this.settings.ingestInterval(), this.settings.ingestInterval()));
		}
	}

	/**
	 * Ingests the new entries of every repository of this node's storages (a path two
	 * storages hold is two repositories); one that fails is logged and skipped.
	 */
	void sweep() {
		for (RepositoryPaths.Located repository : this.registry.repositories()) {
			String name = repository.qualified();
			try {
				ingest(name);
			}
			catch (IOException | RuntimeException ex) {
				logger.warn("Ingesting the journal of repository '{}' failed", name, ex);
			}
		}
	}

	/**
	 * Ingests a repository's new entries, into the source row of its storage and path
	 * ({@link JournalNames}), whichever of its names is given.
	 * @return how many entries were ingested
	 * @throws io.refstore.web.repos.RepoNotFoundException if there is no such repository
	 */
	long ingest(String name) throws IOException {
		String repository = this.registry.identify(name).qualified();
		Path file = JournalHook.journalFile(this.registry.commonDir(repository));
		if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
			return 0;
		}
		this.store.ensureSource(repository);
		long total = 0;
		try {
			for (;;) {
				Long run = this.transactions.execute((status) -> run(repository, file));
				if (run == null || run < 0) {
					return total;
				}
				total += run;
			}
		}
		catch (UncheckedIOException ex) {
			throw ex.getCause();
		}
	}

	/**
	 * Sets a repository's journal file aside for a new one if it is at least
	 * {@code above} bytes and ingested whole ({@link JournalHook#setAside}): its entries
	 * are in the database, and the file would only grow. An append that opened the file
	 * before the rename lands in the file set aside, so that file is read on for
	 * {@code grace} before the new one is recorded as the one to read from its start; the
	 * source row stays locked meanwhile, so no ingestion runs in between.
	 * @return whether the file was set aside
	 */
	boolean compact(String name, long above, Duration grace) throws IOException {
		String repository = this.registry.identify(name).qualified();
		Path commonDir = this.registry.commonDir(repository);
		Path file = JournalHook.journalFile(commonDir);
		if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) < above) {
			return false;
		}
		try {
			boolean setAside = Boolean.TRUE.equals(this.transactions.execute((status) -> {
				JournalStore.Source source = this.store.lockSource(repository);
				try {
					if (Files.size(file) != source.offset()) {
						// not ingested whole, or written since: the next round
						return false;
					}
					// the rename below replaces the previous file set aside for
					// good: what the database holds of this one must be on the disk
					// first
					this.store.forceCommitted();
					Path aside = JournalHook.setAside(commonDir);
					Thread.sleep(grace.toMillis());
					while (run(repository, aside) >= 0) {
						// what the appends in flight at the rename wrote
					}
					this.store.newFile(source.id());
					return true;
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("interrupted while setting the journal aside", ex);
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			}));
			if (setAside) {
				// the appends in flight at the rename are only in the file set
				// aside and the database now
				this.store.forceCommitted();
			}
			return setAside;
		}
		catch (UncheckedIOException ex) {
			throw ex.getCause();
		}
	}

	/**
	 * Ingests the next run of entries in the caller's transaction.
	 * @return the entries ingested, or -1 if the file had nothing more
	 */
	private long run(String repository, Path file) {
		JournalStore.Source source = this.store.lockSource(repository);
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
			long size = channel.size();
			// the file read before, if the bytes before the offset are the ones read then
			boolean same = source.offset() == 0
					|| (size >= source.offset() && tail(channel, source.offset()).equals(source.tailDigest()));
			long from = same ? source.offset() : 0;
			if (from >= size) {
				return -1;
			}
			// a file read from its first byte may hold entries stored already: one
			// restored from a backup, or set aside by a compaction and put back
			Long replayTo = (from == 0) ? this.replay.newestId(source.id()) : source.replayTo();
			channel.position(from);
			// the reader closes the channel's stream, and with it the channel
			JournalReader reader = new JournalReader(Channels.newInputStream(channel));
			int added = 0;
			JournalEntry entry = null;
			try (JournalStore.Appender entries = this.store.appender(source.id())) {
				if (replayTo == null) {
					// streamed: on PostgreSQL the server stores rows while the next are
					// read
					while (added < this.settings.ingestRun() && (entry = reader.next()) != null) {
						entries.add(entry);
						added++;
					}
				}
				else {
					List<JournalEntry> read = new ArrayList<>();
					while (read.size() < this.settings.ingestRun() && (entry = reader.next()) != null) {
						read.add(entry);
					}
					List<JournalEntry> unstored = this.replay.unstored(source, replayTo, read);
					unstored.forEach(entries::add);
					added = unstored.size();
				}
				if (reader.offset() == 0) {
					// only a line still being written
					return -1;
				}
				entries.finish();
			}
			// read to its last complete line: what is appended from now on is new
			Long replayNext = (entry == null) ? null : replayTo;
			// counted over every file the repository's journal has had: a file read again
			// from its start (another file now) adds to them
			long skipped = reader.skipped() + source.skipped();
			long ingested = added + source.entries();
			long offset = from + reader.offset();
			// the hook does not force what it appends (docs/journal.md): the bytes
			// read are forced before their offset is recorded, so that a power cut
			// cannot leave the file shorter than a recorded offset; and the file's
			// name with its first run, which the hook's first append made
			if (from == 0) {
				JournalHook.forceName(file);
			}
			channel.force(false);
			this.store.advance(source.id(), tail(channel, offset), offset, ingested, skipped, Instant.now(),
					replayNext);
			return added;
		}
		catch (NoSuchFileException ex) {
			return -1;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The SHA-256 (hex) of the at most {@link #TAIL} bytes of a file before
	 * {@code offset}.
	 */
	static String tail(FileChannel channel, long offset) throws IOException {
		int length = (int) Math.min(TAIL, offset);
		ByteBuffer bytes = ByteBuffer.allocate(length);
		while (bytes.hasRemaining()) {
			if (channel.read(bytes, offset - length + bytes.position()) < 0) {
				// shorter than that now: no digest of these bytes can match
				return "";
			}
		}
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes.array()));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java has SHA-256", ex);
		}
	}

}
