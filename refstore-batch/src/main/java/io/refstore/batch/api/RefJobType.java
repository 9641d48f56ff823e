package io.refstore.batch.api;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The refstore jobs: their bean names, and whether they change a repository (and so need
 * its lease).
 */
public enum RefJobType {

	/** Moves the refs to the other format ({@code migrateRefsJob}). */
	MIGRATE("migrateRefsJob", true),

	/** Restores the store a migration kept ({@code rollbackMigrationJob}). */
	ROLLBACK("rollbackMigrationJob", true),

	/**
	 * Plans and deletes refs ({@code deleteRefsJob}); a plan-only run changes nothing.
	 */
	DELETE("deleteRefsJob", true),

	/** Recreates refs from a deletion's manifests ({@code restoreRefsJob}). */
	RESTORE("restoreRefsJob", true),

	/**
	 * Sets refs back to the values a point-in-time restore planned from the journal
	 * ({@code rewindRefsJob}).
	 */
	REWIND("rewindRefsJob", true),

	/** Packs loose refs or compacts the reftable stack ({@code maintainRefsJob}). */
	MAINTAIN("maintainRefsJob", true),

	/** Checks the store and digests it ({@code verifyRefsJob}). */
	VERIFY("verifyRefsJob", false),

	/**
	 * Counts the refs per namespace, stale and merged, and what the store holds on disk,
	 * for the inventory history ({@code inventoryRefsJob}).
	 */
	INVENTORY("inventoryRefsJob", false),

	/**
	 * Applies a repository's ref journal retention ({@code journalRetentionJob}): ingests
	 * its journal, sets a large file aside and deletes the entries past its retention.
	 * The journal lives in the application's database: the job hands the repository to
	 * the application's {@link JournalRetainer}. It changes no ref and takes no lease, as
	 * the journal's own sweep takes none.
	 */
	JOURNAL_RETENTION("journalRetentionJob", false);

	private final String jobName;

	private final boolean mutating;

	RefJobType(String jobName, boolean mutating) {
		this.jobName = jobName;
		this.mutating = mutating;
	}

	/** The job's bean and repository name. */
	public String jobName() {
		return this.jobName;
	}

	/** Whether the job changes the repository. */
	public boolean mutating() {
		return this.mutating;
	}

	/**
	 * Whether a schedule or a campaign may launch it: not a point-in-time restore, whose
	 * plan a person previews and confirms for one repository at one moment.
	 */
	public boolean schedulable() {
		return this != REWIND;
	}

	/** The types a schedule or a campaign may launch, in order. */
	public static List<RefJobType> schedulableTypes() {
		return Arrays.stream(values()).filter(RefJobType::schedulable).toList();
	}

	/** The type of a job name, or {@code null}. */
	public static RefJobType ofJobName(String jobName) {
		for (RefJobType type : values()) {
			if (type.jobName.equals(jobName)) {
				return type;
			}
		}
		return null;
	}

	/**
	 * The type a text names by its constant or job name, ignoring case; empty if none.
	 */
	public static Optional<RefJobType> find(String text) {
		for (RefJobType type : values()) {
			if (type.name().equalsIgnoreCase(text) || type.jobName.equalsIgnoreCase(text)) {
				return Optional.of(type);
			}
		}
		return Optional.empty();
	}

	/** The names {@link #find} takes, lower case, as a refusal lists them. */
	public static String names() {
		return Arrays.toString(values()).toLowerCase(Locale.ROOT);
	}

	/**
	 * Parses a type by its constant or job name, ignoring case.
	 * @throws InvalidJobParameterException naming {@code jobType}
	 */
	public static RefJobType parse(String text) {
		return find(text).orElseThrow(() -> new InvalidJobParameterException("jobType", text, "not one of " + names()));
	}

}
