package io.refstore.batch.support;

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
	public static final String PLANS_DIR = "refstore-plans";

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

	private JobResults() {
	}

}
