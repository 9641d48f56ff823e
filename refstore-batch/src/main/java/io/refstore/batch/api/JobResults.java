package io.refstore.batch.api;

/**
 * The keys of what the refstore jobs keep in their job execution contexts that callers
 * read back ({@link JobSummary#results()}), and where deletion plans are kept. The names
 * are part of the jobs' public API: the web layer and the history read them, so they
 * change only with a migration of the stored contexts.
 */
public final class JobResults {

	/**
	 * The directory below the git directory where deletion plans and their manifests are
	 * kept.
	 */
	public static final String PLANS_DIR = io.refstore.core.journal.RewindPlan.DIR;

	/** Deletion: the plan file's absolute path. */
	public static final String PLAN_PATH = "plan.path";

	/** Deletion: how many refs the plan deletes. */
	public static final String PLAN_COUNT = "plan.count";

	/** Deletion: the first refs the plan deletes, one a line. */
	public static final String PLAN_SAMPLE = "plan.sample";

	/** Deletion: how many selected refs the protection kept. */
	public static final String PLAN_PROTECTED_COUNT = "plan.protected.count";

	/** Deletion: how many refs each protecting pattern kept, one pattern a line. */
	public static final String PLAN_PROTECTED_BY_PATTERN = "plan.protected.byPattern";

	/** Deletion: the first refs the protection kept, with their patterns. */
	public static final String PLAN_PROTECTED_SAMPLE = "plan.protected.sample";

	/**
	 * Deletion by criteria: how many refs each criterion matched, one
	 * {@code <count> <criterion>} a line, the first line being what the names, prefixes,
	 * globs and namespaces picked.
	 */
	public static final String PLAN_CRITERIA = "plan.criteria";

	/**
	 * Deletion by criteria: why each ref of {@link #PLAN_SAMPLE} was selected, one a line
	 * in the same order.
	 */
	public static final String PLAN_REASONS = "plan.reasons";

	/**
	 * Migration: the estimated number of refs to copy, the copy's progress total until it
	 * knows the real one.
	 */
	public static final String MIGRATION_REFS_ESTIMATE = "migration.refsEstimate";

	/**
	 * Migration: whether it continued staged work a killed execution left ({@code true},
	 * {@code false}).
	 */
	public static final String MIGRATION_RESUMED = "migration.resumed";

	/**
	 * Migration: a migration or rollback to the other format, killed after its switch,
	 * that this one finished before it began.
	 */
	public static final String MIGRATION_FINISHED_FIRST = "migration.finishedFirst";

	/** Migration: where the old store of {@link #MIGRATION_FINISHED_FIRST} went. */
	public static final String MIGRATION_FINISHED_FIRST_BACKUP = "migration.finishedFirstBackup";

	/** Migration: how many refs the copy step copied. */
	public static final String MIGRATION_REFS_COPIED = "migration.refsCopied";

	/** Migration: how many reflog entries were copied. */
	public static final String MIGRATION_REFLOG_ENTRIES_COPIED = "migration.reflogEntriesCopied";

	/** Migration: the digest of the staged store as assembled. */
	public static final String MIGRATION_STAGED_DIGEST = "migration.stagedDigest";

	/** Migration: the digest of the staged store as verified. */
	public static final String MIGRATION_VERIFIED_DIGEST = "migration.verifiedDigest";

	/** Migration: the format migrated from (its config name). */
	public static final String MIGRATION_FROM = "migration.from";

	/** Migration: the format migrated to (its config name). */
	public static final String MIGRATION_TO = "migration.to";

	/** Migration: how many refs the new store holds. */
	public static final String MIGRATION_REFS = "migration.refs";

	/** Migration: how many reflog entries the new store holds. */
	public static final String MIGRATION_LOG_ENTRIES = "migration.logEntries";

	/** Migration: the digest of the old store. */
	public static final String MIGRATION_SOURCE_DIGEST = "migration.sourceDigest";

	/**
	 * Migration: the digest of the new store; equal to {@link #MIGRATION_SOURCE_DIGEST}
	 * when the migration kept every ref.
	 */
	public static final String MIGRATION_TARGET_DIGEST = "migration.targetDigest";

	/** Migration: where the old store was kept, what a rollback names. */
	public static final String MIGRATION_BACKUP = "migration.backup";

	/**
	 * Migration: how many refs written during the migration were carried into the new
	 * store.
	 */
	public static final String MIGRATION_CARRIED = "migration.carried";

	/** Migration: the refs of {@link #MIGRATION_CARRIED}, space-separated. */
	public static final String MIGRATION_CARRIED_REFS = "migration.carriedRefs";

	/** Rollback: the format rolled back from (its config name). */
	public static final String ROLLBACK_FROM = "rollback.from";

	/** Rollback: the format rolled back to (its config name). */
	public static final String ROLLBACK_TO = "rollback.to";

	/** Rollback: how many refs the restored store holds. */
	public static final String ROLLBACK_REFS = "rollback.refs";

	/** Rollback: the digest of the store rolled back from. */
	public static final String ROLLBACK_DIGEST = "rollback.digest";

	/** Rollback: where the store rolled back from was kept. */
	public static final String ROLLBACK_KEPT_CURRENT_AT = "rollback.keptCurrentAt";

	/**
	 * Rollback: a migration or rollback, killed after its switch, that this one finished
	 * before it began.
	 */
	public static final String ROLLBACK_FINISHED_FIRST = "rollback.finishedFirst";

	/** Rollback: where the old store of {@link #ROLLBACK_FINISHED_FIRST} went. */
	public static final String ROLLBACK_FINISHED_FIRST_BACKUP = "rollback.finishedFirstBackup";

	/** Rollback: how many refs written since the migration were kept. */
	public static final String ROLLBACK_KEPT = "rollback.kept";

	/** Rollback: the refs of {@link #ROLLBACK_KEPT}. */
	public static final String ROLLBACK_KEPT_REFS = "rollback.keptRefs";

	/** Rewind: how many refs were set back. */
	public static final String REWIND_APPLIED = "rewind.applied";

	/** Rewind: how many refs of the plan held their value already. */
	public static final String REWIND_PRESENT = "rewind.present";

	/** Rewind: how many refs another writer changed since the plan, left alone. */
	public static final String REWIND_CONFLICTS = "rewind.conflicts";

	/** Rewind: the first of those refs, space-separated. */
	public static final String REWIND_CONFLICTING = "rewind.conflicting";

	/** Restore: how many manifests were read. */
	public static final String RESTORE_MANIFESTS = "restore.manifests";

	/** Restore: how many refs were restored. */
	public static final String RESTORE_RESTORED = "restore.restored";

	/** Restore: how many refs of the manifests were already there. */
	public static final String RESTORE_PRESENT = "restore.present";

	/** Verification: how many errors it found. */
	public static final String VERIFY_ERRORS = "verify.errors";

	/** Verification: how many warnings it found. */
	public static final String VERIFY_WARNINGS = "verify.warnings";

	/** Verification: the first problems it found, one a line. */
	public static final String VERIFY_PROBLEMS = "verify.problems";

	/** Verification: how many refs it read. */
	public static final String VERIFY_REFS = "verify.refs";

	/** Verification: how many reflog entries it read. */
	public static final String VERIFY_LOG_ENTRIES = "verify.logEntries";

	/** Verification: the store's digest. */
	public static final String VERIFY_DIGEST = "verify.digest";

	/** Verification: the store's format (its config name). */
	public static final String VERIFY_FORMAT = "verify.format";

	/** Maintenance: the store's statistics before it. */
	public static final String MAINTAIN_BEFORE = "maintain.before";

	/** Maintenance: whether it packed the store ({@code true}, {@code false}). */
	public static final String MAINTAIN_PACKED = "maintain.packed";

	/** Maintenance: why it was due, or {@code forced}. */
	public static final String MAINTAIN_REASON = "maintain.reason";

	/** Maintenance: the store's statistics after it, when it packed. */
	public static final String MAINTAIN_AFTER = "maintain.after";

	/**
	 * Maintenance: what it did, in words ({@code packed 200 loose refs},
	 * {@code nothing to do: 3 loose refs, below the limit of 16 ...}).
	 */
	public static final String MAINTAIN_DONE = "maintain.done";

	/** Inventory: how many refs the repository holds. */
	public static final String INVENTORY_REFS = "inventory.refs";

	/** Inventory: how many of them are stale. */
	public static final String INVENTORY_STALE = "inventory.stale";

	/** Inventory: how many branches are merged into the base, or {@code none}. */
	public static final String INVENTORY_MERGED = "inventory.merged";

	/** Inventory: the branch merged refs are counted against, empty if none. */
	public static final String INVENTORY_BASE = "inventory.base";

	/** Inventory: the store's format (its config name). */
	public static final String INVENTORY_FORMAT = "inventory.format";

	/** Inventory: loose refs on disk, if the format has them. */
	public static final String INVENTORY_LOOSE = "inventory.loose";

	/** Inventory: packed refs on disk, if the format has them. */
	public static final String INVENTORY_PACKED = "inventory.packed";

	/** Inventory: reftable tables on disk, if the format has them. */
	public static final String INVENTORY_TABLES = "inventory.tables";

	/** Inventory: the store's size on disk in bytes. */
	public static final String INVENTORY_BYTES = "inventory.bytes";

	/** Inventory: the age after which a ref counts as stale. */
	public static final String INVENTORY_STALE_AFTER = "inventory.staleAfter";

	/** Inventory: the counts per namespace. */
	public static final String INVENTORY_NAMESPACES = "inventory.namespaces";

	/** Journal retention: how many journal entries were ingested before it applied. */
	public static final String JOURNAL_INGESTED = "journal.ingested";

	/** Journal retention: whether the journal file was set aside ({@code true}). */
	public static final String JOURNAL_SET_ASIDE = "journal.setAside";

	/** Journal retention: how many journal entries were deleted. */
	public static final String JOURNAL_DELETED = "journal.deleted";

	/**
	 * Journal retention: what it did, in words ("deleted 4 entries ..." or "nothing to
	 * do: ...").
	 */
	public static final String JOURNAL_OUTCOME = "journal.outcome";

	private JobResults() {
	}

}
