package io.refstore.batch.support;

/**
 * The keys of the refstore jobs' parameters and of the values they keep in their execution contexts. Jobs read
 * parameters only in {@code @StepScope} beans, through these keys.
 */
public final class JobParameterNames {

	/** The repository name as given, relative to a configured root (identifying). */
	public static final String REPOSITORY = "repository";

	/** The real path of the repository directory {@link #REPOSITORY} resolved to when the job was launched. */
	public static final String REPOSITORY_PATH = "repositoryPath";

	/** Who launched the job (not identifying). */
	public static final String ACTOR = "actor";

	/** A unique value per launch, so each launch is a new job instance (identifying). */
	public static final String LAUNCH_ID = "launchId";

	/** Migration: the target format, {@code files} or {@code reftable}. */
	public static final String TARGET_FORMAT = "targetFormat";

	/** Migration: {@code true} (default) to carry reflogs over. */
	public static final String REFLOGS = "reflogs";

	/** Migration and deletion: refs per chunk (migration default 100000, deletion default 1000). */
	public static final String CHUNK_SIZE = "chunkSize";

	/** Migration and deletion: milliseconds to pause between chunks (default 0), to spare a busy server. */
	public static final String THROTTLE_MILLIS = "throttleMillis";

	/** Rollback: the backup directory a migration kept. */
	public static final String BACKUP = "backup";

	/** Deletion: prefixes, separated by commas. */
	public static final String PREFIXES = "prefixes";

	/** Deletion: for-each-ref globs, separated by commas. */
	public static final String GLOBS = "globs";

	/** Deletion: full ref names, separated by commas. */
	public static final String NAMES = "names";

	/** Deletion: exclusion patterns, separated by commas. */
	public static final String EXCLUDES = "excludes";

	/** Deletion: {@code true} to plan only (count, sample, manifest of what would go) and stop. */
	public static final String PLAN_ONLY = "planOnly";

	/** Deletion: the plan file to execute instead of planning anew. */
	public static final String PLAN = "plan";

	/** Restore: a manifest file, or a directory of manifests, a deletion wrote. */
	public static final String MANIFEST = "manifest";

	/** Maintenance: {@code true} to pack or compact even when git's heuristics say it is not due. */
	public static final String FORCE = "force";

	/** Context: items done by a step (refs copied, deleted...). */
	public static final String PROGRESS_DONE = "progress.done";

	/** Context: items a step has to do in all, or an estimate. */
	public static final String PROGRESS_TOTAL = "progress.total";

	private JobParameterNames() {
	}

}
