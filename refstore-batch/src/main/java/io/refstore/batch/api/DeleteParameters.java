package io.refstore.batch.api;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.refstore.core.delete.DeletionPlan;
import io.refstore.core.delete.InvalidSelectionException;
import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.delete.RefSelection;
import io.refstore.core.graph.CommitHistory;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * {@code deleteRefsJob}'s parameters: a selection to plan, or a plan to execute.
 *
 * @param prefixes ref name prefixes the selection takes
 * @param globs for-each-ref globs the selection takes
 * @param names full ref names the selection takes
 * @param excludes patterns the selection leaves out
 * @param plan the plan to execute instead of planning anew: relative to the repository's
 * {@value JobResults#PLANS_DIR} as a caller gives it, absolute once checked; {@code null}
 * to plan
 * @param planOnly plan (count, sample, manifest of what would go) and stop
 * @param chunkSize refs per chunk of the deletion, 1 to 100,000 (default 1000)
 * @param throttleMillis pause between chunks, 0 to 60,000 ms (default 0)
 * @param overrideProtection plan without protecting anything (needs
 * {@code overrideReason})
 * @param overrideReason why the protection is overridden, kept for the audit log;
 * {@code null} without override
 * @param protectedRefs what the plan keeps whatever its selection ({@code for-each-ref}
 * patterns and {@code HEAD}), set when checked in the repository from the configuration,
 * empty when overridden; {@code null} before that, and in launches from before protection
 * existed, which protect the defaults
 * @param criteria what narrows the selection (namespaces, merged into, older than, not
 * updated since); {@link DeleteCriteria#NONE} for none
 */
public record DeleteParameters(List<String> prefixes, List<String> globs, List<String> names, List<String> excludes,
		Path plan, boolean planOnly, int chunkSize, long throttleMillis, boolean overrideProtection,
		String overrideReason, List<String> protectedRefs, DeleteCriteria criteria) implements RefJobParameters {

	/**
	 * The longest reason for overriding protection: it is stored as a job parameter (at
	 * most 2500 characters).
	 */
	public static final int MAX_REASON = 1000;

	static final Set<String> KEYS = Set.of(JobParameterNames.PREFIXES, JobParameterNames.GLOBS, JobParameterNames.NAMES,
			JobParameterNames.EXCLUDES, JobParameterNames.PLAN_ONLY, JobParameterNames.PLAN,
			JobParameterNames.CHUNK_SIZE, JobParameterNames.THROTTLE_MILLIS, JobParameterNames.OVERRIDE_PROTECTION,
			JobParameterNames.OVERRIDE_REASON, JobParameterNames.NAMESPACES, JobParameterNames.MERGED_INTO,
			JobParameterNames.OLDER_THAN, JobParameterNames.NOT_UPDATED_SINCE);

	/** Refs per chunk unless given. */
	public static final int CHUNK = 1000;

	/**
	 * @throws InvalidJobParameterException naming the parameter out of range, or,
	 * planning, the bad part of the selection or the override without a reason
	 */
	public DeleteParameters {
		prefixes = List.copyOf(prefixes);
		globs = List.copyOf(globs);
		names = List.copyOf(names);
		excludes = List.copyOf(excludes);
		protectedRefs = (protectedRefs == null) ? null : List.copyOf(protectedRefs);
		criteria = (criteria == null) ? DeleteCriteria.NONE : criteria;
		ParameterText.range(JobParameterNames.CHUNK_SIZE, chunkSize, 1, 100_000);
		ParameterText.range(JobParameterNames.THROTTLE_MILLIS, throttleMillis, 0, 60_000);
		if (plan == null) {
			criteria.check();
			selection(prefixes, globs, names, excludes, criteria);
			checkOverride(overrideProtection, overrideReason);
		}
	}

	/**
	 * Plans a deletion and stops: nothing is deleted.
	 * @param overrideReason why the protection is overridden; required with
	 * {@code overrideProtection}, refused without
	 */
	public static DeleteParameters plan(List<String> prefixes, List<String> globs, List<String> names,
			List<String> excludes, boolean overrideProtection, String overrideReason) {
		return plan(prefixes, globs, names, excludes, DeleteCriteria.NONE, overrideProtection, overrideReason);
	}

	/**
	 * Plans a deletion narrowed by criteria and stops: nothing is deleted.
	 * @param overrideReason why the protection is overridden; required with
	 * {@code overrideProtection}, refused without
	 */
	public static DeleteParameters plan(List<String> prefixes, List<String> globs, List<String> names,
			List<String> excludes, DeleteCriteria criteria, boolean overrideProtection, String overrideReason) {
		return new DeleteParameters(prefixes, globs, names, excludes, null, true, CHUNK, 0, overrideProtection,
				(overrideReason == null) ? null : overrideReason.strip(), null, criteria);
	}

	/**
	 * Executes a plan.
	 * @param plan relative to the repository's {@value JobResults#PLANS_DIR}
	 */
	public static DeleteParameters execute(Path plan) {
		return new DeleteParameters(List.of(), List.of(), List.of(), List.of(), plan, false, CHUNK, 0, false, null,
				null, DeleteCriteria.NONE);
	}

	/** The parameters of a job's parameters. */
	public static DeleteParameters from(Map<String, ?> jobParameters) {
		return read(new ParameterText(jobParameters), false);
	}

	/**
	 * @param caller whether a caller gives the text (checked in full) or a job's
	 * parameters hold it (checked at launch)
	 */
	static DeleteParameters read(ParameterText text, boolean caller) {
		Path plan = text.optionalPath(JobParameterNames.PLAN);
		boolean planOnly = text.bool(JobParameterNames.PLAN_ONLY, false);
		int chunkSize = (int) ParameterText.range(JobParameterNames.CHUNK_SIZE,
				text.number(JobParameterNames.CHUNK_SIZE, CHUNK), 1, 100_000);
		long throttle = text.number(JobParameterNames.THROTTLE_MILLIS, 0);
		String reason = text.text(JobParameterNames.OVERRIDE_REASON);
		boolean override = text.bool(JobParameterNames.OVERRIDE_PROTECTION, false);
		String protectedRefs = text.text(JobParameterNames.PROTECTED_REFS);
		if (caller && plan != null
				&& (text.has(JobParameterNames.OVERRIDE_PROTECTION) || text.has(JobParameterNames.OVERRIDE_REASON))) {
			throw new InvalidJobParameterException(JobParameterNames.OVERRIDE_PROTECTION,
					text.text(JobParameterNames.OVERRIDE_PROTECTION),
					"the plan decides what is protected: override the protection when planning");
		}
		return new DeleteParameters(text.list(JobParameterNames.PREFIXES), text.list(JobParameterNames.GLOBS),
				text.list(JobParameterNames.NAMES), text.list(JobParameterNames.EXCLUDES), plan, planOnly, chunkSize,
				throttle, override, (reason == null) ? null : reason.strip(),
				(protectedRefs == null) ? null : JobParameterNames.list(protectedRefs), DeleteCriteria.read(text));
	}

	/**
	 * An override needs a non-blank reason of at most {@value #MAX_REASON} characters,
	 * and a reason needs an override. Who may override is the caller's rule.
	 */
	private static void checkOverride(boolean override, String reason) {
		if (override && (reason == null || reason.isBlank())) {
			throw new InvalidJobParameterException(JobParameterNames.OVERRIDE_REASON, reason,
					"it is required when overrideProtection is true: say why the protected refs may be deleted");
		}
		if (override && reason.strip().length() > MAX_REASON) {
			throw new InvalidJobParameterException(JobParameterNames.OVERRIDE_REASON, reason.substring(0, 40) + "...",
					"it must be at most " + MAX_REASON + " characters");
		}
		if (!override && reason != null) {
			throw new InvalidJobParameterException(JobParameterNames.OVERRIDE_REASON, reason,
					"it is only taken with overrideProtection true");
		}
	}

	/**
	 * The selection these parameters describe.
	 * @throws InvalidJobParameterException naming the parameter of a bad part
	 */
	public RefSelection selection() {
		return selection(this.prefixes, this.globs, this.names, this.excludes, this.criteria);
	}

	private static RefSelection selection(List<String> prefixes, List<String> globs, List<String> names,
			List<String> excludes, DeleteCriteria criteria) {
		RefSelection.Builder builder = RefSelection.builder();
		String current = JobParameterNames.PREFIXES;
		try {
			prefixes.forEach(builder::prefix);
			current = JobParameterNames.GLOBS;
			globs.forEach(builder::glob);
			current = JobParameterNames.NAMES;
			names.forEach(builder::name);
			current = JobParameterNames.EXCLUDES;
			excludes.forEach(builder::exclude);
			current = JobParameterNames.NAMESPACES;
			criteria.namespaces().forEach(builder::namespace);
			current = JobParameterNames.PREFIXES + "/" + JobParameterNames.GLOBS + "/" + JobParameterNames.NAMES + "/"
					+ JobParameterNames.NAMESPACES;
			return builder.build();
		}
		catch (InvalidSelectionException ex) {
			InvalidJobParameterException refused = new InvalidJobParameterException(current, ex.value(), ex.problem());
			// a bad name's rule stays at hand as the cause (the API names it, as for a
			// ref write)
			refused.initCause(ex.getCause());
			throw refused;
		}
	}

	/**
	 * What the plan keeps: the given protection unless overridden; {@code null} protects
	 * the defaults.
	 */
	public ProtectedRefs protection() {
		return (this.protectedRefs == null) ? ProtectedRefs.defaults() : ProtectedRefs.of(this.protectedRefs);
	}

	/**
	 * The plan resolved inside the repository's plans, or the protection set from
	 * {@code protection}.
	 */
	@Override
	public DeleteParameters checkedIn(Repository repository, ProtectedRefs protection) {
		if (this.plan != null) {
			return new DeleteParameters(List.of(), List.of(), List.of(), List.of(), checkedPlan(repository),
					this.planOnly, this.chunkSize, this.throttleMillis, false, null, null, DeleteCriteria.NONE);
		}
		if (this.criteria.mergedInto() != null) {
			checkBranch(repository, this.criteria.mergedInto());
		}
		return new DeleteParameters(this.prefixes, this.globs, this.names, this.excludes, null, this.planOnly,
				this.chunkSize, this.throttleMillis, this.overrideProtection, this.overrideReason,
				this.overrideProtection ? List.of() : protection.entries(), this.criteria);
	}

	/**
	 * The plan to execute resolved inside the repository's plans: a file reached without
	 * a symbolic link that was planned for this repository
	 * ({@link DeletionPlan#checkInput}).
	 * @throws InvalidJobParameterException naming {@code plan} if it is refused
	 */
	public Path checkedPlan(Repository repository) {
		return ParameterText.input(() -> DeletionPlan.checkInput(JobParameterNames.PLAN, repository,
				JobResults.PLANS_DIR, this.plan.toString()));
	}

	/** Whether the parameters name a plan to execute. */
	@Override
	public boolean namesInput() {
		return this.plan != null;
	}

	/**
	 * Refuses a {@code mergedInto} branch that does not exist or names no commit, naming
	 * it, before a job starts.
	 */
	private static void checkBranch(Repository repository, String branch) {
		try (RefStore store = RefStores.open(repository)) {
			DeletionPlan.resolve(List.of("merged-into " + branch), store, CommitHistory.open(repository),
					Instant.now());
		}
		catch (InvalidSelectionException ex) {
			throw new InvalidJobParameterException(JobParameterNames.MERGED_INTO, ex.value(), ex.problem());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public RefJobType type() {
		return RefJobType.DELETE;
	}

	/**
	 * A plan to execute keeps only the plan and the pace: the plan decides what goes and
	 * what is protected.
	 */
	@Override
	public Map<String, String> toMap() {
		Map<String, String> map = RefJobParameters.map();
		if (this.plan != null) {
			map.put(JobParameterNames.PLAN, this.plan.toString());
		}
		else {
			putList(map, JobParameterNames.PREFIXES, this.prefixes);
			putList(map, JobParameterNames.GLOBS, this.globs);
			putList(map, JobParameterNames.NAMES, this.names);
			putList(map, JobParameterNames.EXCLUDES, this.excludes);
			this.criteria.putInto(map);
			map.put(JobParameterNames.OVERRIDE_PROTECTION, Boolean.toString(this.overrideProtection));
			if (this.overrideProtection) {
				map.put(JobParameterNames.OVERRIDE_REASON, this.overrideReason);
			}
			if (this.protectedRefs != null) {
				map.put(JobParameterNames.PROTECTED_REFS, String.join(",", this.protectedRefs));
			}
		}
		map.put(JobParameterNames.PLAN_ONLY, Boolean.toString(this.planOnly));
		map.put(JobParameterNames.CHUNK_SIZE, Integer.toString(this.chunkSize));
		map.put(JobParameterNames.THROTTLE_MILLIS, Long.toString(this.throttleMillis));
		return map;
	}

	private static void putList(Map<String, String> map, String key, List<String> values) {
		if (!values.isEmpty()) {
			map.put(key, String.join(",", values));
		}
	}

}
