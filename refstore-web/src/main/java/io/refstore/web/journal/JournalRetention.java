package io.refstore.web.journal;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import io.refstore.batch.api.JournalRetainer;
import io.refstore.core.journal.JournalBase;
import io.refstore.core.journal.JournalHook;
import io.refstore.web.audit.AuditEntry;
import io.refstore.web.audit.AuditEntry.Outcome;
import io.refstore.web.audit.AuditLog;
import io.refstore.web.console.ConsoleFormat;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoRegistry;
import io.refstore.web.security.Actors;
import io.refstore.web.system.InvalidRequestException;

/**
 * What the journal keeps, and whether a repository journals at all. Every
 * {@code refstore.journal.retention.interval} a sweep, for each repository in the
 * database, sets its journal file aside once it is ingested whole and large
 * ({@link JournalIngester#compact}), then deletes the entries older than the repository's
 * retention (its own, else the default): each ref keeps its newest older change, so its
 * value at any moment since is still known, and a point-in-time restore to a moment
 * before is refused. The same retention runs as {@code journalRetentionJob}
 * ({@link JournalRetainer}) for the repositories a schedule selects, with its run,
 * outcome and audit like any job's; the sweep stays on beside it (a schedule may select
 * only some repositories, and applying a retention twice deletes nothing more), unless
 * the interval is set to {@code 0}. An ADMIN switches journaling on (the hook installed,
 * the base taken) or off (the hook removed; the entries stay) and sets a repository's
 * retention; both are audited as {@value #SETTINGS}. Thread-safe.
 */
@Component
public class JournalRetention implements SchedulingConfigurer, JournalRetainer {

	private static final Logger logger = LoggerFactory.getLogger(JournalRetention.class);

	/** The audit log's action for a change of a repository's journal settings. */
	static final String SETTINGS = "journal.settings";

	/** How long a file set aside is read on for appends in flight at its rename. */
	static final Duration GRACE = Duration.ofSeconds(1);

	private static final ConsoleFormat FORMAT = new ConsoleFormat();

	private final JournalStore store;

	private final JournalIngester ingester;

	private final RepoRegistry registry;

	private final TransactionTemplate transactions;

	private final AuditLog audit;

	private final JournalProperties.Retention defaults;

	private final JournalNames names;

	JournalRetention(JournalStore store, JournalIngester ingester, RepoRegistry registry,
			TransactionTemplate transactions, AuditLog audit, JournalProperties settings, JournalNames names) {
		this.names = names;
		this.store = store;
		this.ingester = ingester;
		this.registry = registry;
		this.transactions = transactions;
		this.audit = audit;
		this.defaults = settings.retention();
	}

	@Override
	public void configureTasks(ScheduledTaskRegistrar tasks) {
		if (!this.defaults.interval().isZero()) {
			tasks
				.addFixedDelayTask(new FixedDelayTask(this::sweep, this.defaults.interval(), this.defaults.interval()));
		}
	}

	/**
	 * Applies the retention of every repository in the database that is in a storage of
	 * this node (another node's are that node's to sweep); one that fails is logged and
	 * skipped.
	 */
	void sweep() {
		for (String name : this.store.repositories()) {
			try {
				if (this.names.here(name)) {
					apply(name);
				}
			}
			catch (IOException | RuntimeException ex) {
				logger.warn("Applying the journal retention of repository '{}' failed", name, ex);
			}
		}
	}

	/**
	 * Ingests a repository's journal, sets its file aside if it is large, and deletes the
	 * entries its retention lets go: what the sweep does for each repository, and what
	 * {@code journalRetentionJob} does for its one
	 * ({@link JournalRetentionJobConfiguration}).
	 * @return what it did
	 */
	public Applied apply(String repository) throws IOException {
		String key = this.names.key(repository);
		long ingested = this.ingester.ingest(key);
		boolean setAside = this.ingester.compact(key, this.defaults.compactAbove().toBytes(), GRACE);
		JournalStore.Source source = this.store.source(key).orElse(null);
		if (source == null) {
			return new Applied(false, ingested, setAside, 0, null);
		}
		Duration maxAge = (source.maxAgeDays() != null) ? Duration.ofDays(source.maxAgeDays()) : this.defaults.maxAge();
		Long maxEntries = (source.maxEntries() != null) ? source.maxEntries() : this.defaults.maxEntries();
		if (maxAge == null && maxEntries == null) {
			return new Applied(true, ingested, setAside, 0, null);
		}
		Integer deleted = this.transactions.execute((status) -> this.store.prune(source.id(),
				this.store.horizon(source.id(), (maxAge == null) ? null : Instant.now().minus(maxAge), maxEntries)));
		return new Applied(true, ingested, setAside, (deleted == null) ? 0 : deleted, retention(maxAge, maxEntries));
	}

	/**
	 * Applies a repository's retention for {@code journalRetentionJob}, which a schedule
	 * launches ({@link #apply}).
	 */
	@Override
	public Retained retain(String repository) throws IOException {
		Applied applied = apply(repository);
		return new Retained(applied.ingested(), applied.setAside(), applied.deleted(), applied.words());
	}

	/** A retention in words: {@code 30 days}, {@code 1,000 entries}, or both. */
	private static String retention(Duration maxAge, Long maxEntries) {
		String age = null;
		if (maxAge != null) {
			age = (maxAge.toSeconds() % 86_400 == 0) ? FORMAT.plural(maxAge.toDays(), "day", "days")
					: FORMAT.duration(maxAge);
		}
		String entries = (maxEntries != null) ? FORMAT.plural(maxEntries, "entry", "entries") : null;
		return (age != null && entries != null) ? age + " and at most " + entries : (age != null) ? age : entries;
	}

	/**
	 * What applying a repository's retention did.
	 *
	 * @param journaled whether the database holds a journal of the repository
	 * @param ingested how many new entries were ingested first
	 * @param setAside whether the journal file was set aside
	 * @param deleted how many entries were deleted
	 * @param retention the retention applied, in words ({@code 30 days}), or {@code null}
	 * for none (every entry is kept)
	 */
	public record Applied(boolean journaled, long ingested, boolean setAside, int deleted, String retention) {

		/**
		 * What it did, in words, without a capital or a full stop: {@code deleted 4
		 * entries past the retention (3 entries), ...}, or {@code nothing to do: ...}.
		 */
		public String words() {
			String aside = this.setAside ? "set the journal file aside (its entries are in the database)" : null;
			if (!this.journaled) {
				return (aside != null) ? aside : "nothing to do: the repository has no journal in the database";
			}
			if (this.retention == null) {
				return ((aside != null) ? aside + "; " : "nothing to do: ")
						+ "no retention is set, so every entry is kept";
			}
			if (this.deleted == 0) {
				return ((aside != null) ? aside + "; " : "nothing to do: ") + "no entry is past the retention ("
						+ this.retention + ")";
			}
			return "deleted " + FORMAT.plural(this.deleted, "entry", "entries") + " past the retention ("
					+ this.retention + "), each ref's newest older change kept" + ((aside != null) ? "; " + aside : "");
		}

	}

	/**
	 * A repository's journal settings.
	 *
	 * @param enabled whether its journal's hook is installed
	 * @param maxAgeDays its own retention in days, or {@code null} for the default
	 * @param maxEntries its own retention in entries, or {@code null} for the default
	 * @param defaultMaxAge the default retention in time ({@code null}: for ever)
	 * @param defaultMaxEntries the default retention in entries ({@code null}: all)
	 * @param prunedBefore before when entries were pruned, or {@code null}
	 */
	public record Settings(boolean enabled, Integer maxAgeDays, Long maxEntries, Duration defaultMaxAge,
			Long defaultMaxEntries, Instant prunedBefore) {

	}

	/**
	 * What an ADMIN sets; a {@code null} field leaves that setting as it is, and
	 * {@code 0} sets a retention back to the default.
	 *
	 * @param enabled journaling on (hook installed, base taken) or off (hook removed)
	 * @param maxAgeDays days of entries kept, 1 to 36500, or 0 for the default
	 * @param maxEntries entries kept, or 0 for the default
	 */
	public record Change(Boolean enabled, Integer maxAgeDays, Long maxEntries) {

	}

	@PreAuthorize("hasRole('VIEWER')")
	public Settings settings(String repository) throws IOException {
		boolean enabled;
		try (OpenRepo open = this.registry.open(repository)) {
			enabled = JournalHook.installed(open.repository());
		}
		JournalStore.Source source = this.store.source(this.names.key(repository)).orElse(null);
		return new Settings(enabled, (source == null) ? null : source.maxAgeDays(),
				(source == null) ? null : source.maxEntries(), this.defaults.maxAge(), this.defaults.maxEntries(),
				(source == null) ? null : source.prunedBefore());
	}

	@PreAuthorize("hasRole('ADMIN')")
	public Settings change(String repository, Change change) throws IOException {
		if (change == null) {
			throw new InvalidRequestException("settings", null, "give enabled, maxAgeDays or maxEntries");
		}
		if (change.maxAgeDays() != null && (change.maxAgeDays() < 0 || change.maxAgeDays() > 36_500)) {
			throw new InvalidRequestException("maxAgeDays", change.maxAgeDays().toString(),
					"it must be 1 to 36500 days, or 0 for the default");
		}
		if (change.maxEntries() != null && change.maxEntries() < 0) {
			throw new InvalidRequestException("maxEntries", change.maxEntries().toString(),
					"it must be positive, or 0 for the default");
		}
		Map<String, String> given = new LinkedHashMap<>();
		try (OpenRepo open = this.registry.open(repository)) {
			if (change.enabled() != null) {
				given.put("enabled", change.enabled().toString());
				if (change.enabled()) {
					JournalHook.install(open.repository(), JournalHook.DEFAULT_WRITER_ENV);
					JournalBase.writeIfAbsent(open.repository().commonDir(), open.store());
				}
				else {
					JournalHook.uninstall(open.repository());
				}
			}
		}
		if (change.maxAgeDays() != null || change.maxEntries() != null) {
			String key = this.names.key(repository);
			this.store.ensureSource(key);
			JournalStore.Source source = this.store.source(key).orElseThrow();
			Integer days = (change.maxAgeDays() == null) ? source.maxAgeDays()
					: (change.maxAgeDays() == 0) ? null : change.maxAgeDays();
			Long entries = (change.maxEntries() == null) ? source.maxEntries()
					: (change.maxEntries() == 0) ? null : change.maxEntries();
			this.store.retention(key, days, entries);
			given.put("maxAgeDays", String.valueOf(days));
			given.put("maxEntries", String.valueOf(entries));
		}
		this.audit.record(AuditEntry.of(Actors.current(), SETTINGS, repository, "", given, Outcome.SUCCESS, null));
		return settings(repository);
	}

}
