package io.refstore.batch.api;

import java.util.Arrays;
import java.util.List;

/**
 * The keys of the refstore jobs' parameters and of the values they keep in their
 * execution contexts. Jobs read parameters only in {@code @StepScope} beans, through
 * these keys.
 */
public final class JobParameterNames {

	/** The repository name as given, relative to a configured root (identifying). */
	public static final String REPOSITORY = "repository";

	/**
	 * The real path of the repository directory {@link #REPOSITORY} resolved to when the
	 * job was launched.
	 */
	public static final String REPOSITORY_PATH = "repositoryPath";

	/** Who launched the job (not identifying). */
	public static final String ACTOR = "actor";

	/** A unique value per launch, so each launch is a new job instance (identifying). */
	public static final String LAUNCH_ID = "launchId";

	/** Migration: the target format, {@code files} or {@code reftable}. */
	public static final String TARGET_FORMAT = "targetFormat";

	/** Migration: {@code true} (default) to carry reflogs over. */
	public static final String REFLOGS = "reflogs";

	/**
	 * Migration and deletion: refs per chunk (migration default 100000, deletion default
	 * 1000).
	 */
	public static final String CHUNK_SIZE = "chunkSize";

	/**
	 * Migration and deletion: milliseconds to pause between chunks (default 0), to spare
	 * a busy server.
	 */
	public static final String THROTTLE_MILLIS = "throttleMillis";

	/** Rollback: the backup directory a migration kept. */
	public static final String BACKUP = "backup";

	/** Deletion: prefixes, separated by commas. */
	public static final String PREFIXES = "prefixes";

	/** Deletion: for-each-ref globs, separated by commas. */
	public static final String GLOBS = "globs";

	/**
	 * Deletion: full ref names, separated by commas. Restore: the manifest's refs to
	 * restore, the others left deleted (default: all).
	 */
	public static final String NAMES = "names";

	/** Deletion: exclusion patterns, separated by commas. */
	public static final String EXCLUDES = "excludes";

	/**
	 * Deletion: namespaces the refs must be in ({@code refs/heads/}), separated by
	 * commas; alone they select their refs.
	 */
	public static final String NAMESPACES = "namespaces";

	/**
	 * Deletion: only refs merged into this branch ({@code HEAD} for the branch HEAD
	 * names, a full or short name), judged by the commit it has when planned.
	 */
	public static final String MERGED_INTO = "mergedInto";

	/**
	 * Deletion: only refs whose creator date is before this time (an age such as
	 * {@code 90d}, counted back from the planning, or a date).
	 */
	public static final String OLDER_THAN = "olderThan";

	/**
	 * Deletion: only refs last updated (newest reflog entry, else creator date) before
	 * this time, as {@link #OLDER_THAN} takes it.
	 */
	public static final String NOT_UPDATED_SINCE = "notUpdatedSince";

	/**
	 * Deletion: what the plan keeps whatever its selection, separated by commas
	 * ({@code for-each-ref} patterns and {@code HEAD}); set at launch from
	 * {@code refstore.deletion.protected-refs}, empty when overridden. Not accepted from
	 * callers.
	 */
	public static final String PROTECTED_REFS = "protectedRefs";

	/**
	 * Deletion: {@code true} to plan without protecting anything; needs
	 * {@link #OVERRIDE_REASON}.
	 */
	public static final String OVERRIDE_PROTECTION = "overrideProtection";

	/**
	 * Deletion: why the protection is overridden, kept with the launch for the audit log.
	 */
	public static final String OVERRIDE_REASON = "overrideReason";

	/**
	 * Deletion: {@code true} to plan only (count, sample, manifest of what would go) and
	 * stop.
	 */
	public static final String PLAN_ONLY = "planOnly";

	/** Deletion: the plan file to execute instead of planning anew. */
	public static final String PLAN = "plan";

	/** Restore: a manifest file, or a directory of manifests, a deletion wrote. */
	public static final String MANIFEST = "manifest";

	/**
	 * Maintenance: {@code true} to pack or compact even when git's heuristics say it is
	 * not due.
	 */
	public static final String FORCE = "force";

	/** Context: items done by a step (refs copied, deleted...). */
	public static final String PROGRESS_DONE = "progress.done";

	/**
	 * Context: items a step has to do in all, exact unless {@link #PROGRESS_ESTIMATE}
	 * says otherwise.
	 */
	public static final String PROGRESS_TOTAL = "progress.total";

	/**
	 * Context: {@code true} while {@link #PROGRESS_TOTAL} is an estimate; the step
	 * replaces it with the real count once it knows it, and a count that passed the
	 * estimate shows as a count without a total until then.
	 */
	public static final String PROGRESS_ESTIMATE = "progress.estimate";

	/**
	 * Context: what a step with several phases is doing now ({@code Verifying backup},
	 * {@code Comparing with the backup}), whose count and total {@link #PROGRESS_DONE}
	 * and {@link #PROGRESS_TOTAL} are; removed when the step ends.
	 */
	public static final String PROGRESS_PHASE = "progress.phase";

	/**
	 * Context: when the phase of {@link #PROGRESS_PHASE} began, in milliseconds since the
	 * epoch: the rate and the time left are the phase's own.
	 */
	public static final String PROGRESS_PHASE_STARTED = "progress.phase.started";

	private JobParameterNames() {
	}

	/**
	 * The comma-separated values of a list parameter, stripped, blank ones dropped; empty
	 * for {@code null}.
	 */
	public static List<String> list(String value) {
		if (value == null) {
			return List.of();
		}
		return Arrays.stream(value.split(",")).map(String::strip).filter((s) -> !s.isEmpty()).toList();
	}

}
