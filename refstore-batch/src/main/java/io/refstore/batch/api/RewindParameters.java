package io.refstore.batch.api;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.journal.RewindPlan;
import io.refstore.core.repo.Repository;

/**
 * {@code rewindRefsJob}'s parameters.
 *
 * @param plan a point-in-time restore's plan ({@link RewindPlan}): relative to the
 * repository's {@value JobResults#PLANS_DIR} as a caller gives it, absolute once checked
 * in the repository
 */
public record RewindParameters(Path plan) implements RefJobParameters {

	static final Set<String> KEYS = Set.of(JobParameterNames.PLAN);

	/** The parameters of a job's parameters. */
	public static RewindParameters from(Map<String, ?> jobParameters) {
		return read(new ParameterText(jobParameters));
	}

	static RewindParameters read(ParameterText text) {
		return new RewindParameters(text.path(JobParameterNames.PLAN));
	}

	/**
	 * The plan resolved inside the repository's plans: a file reached without a symbolic
	 * link that records this repository ({@link RewindPlan#checkInput}).
	 */
	@Override
	public RewindParameters checkedIn(Repository repository, ProtectedRefs protection) {
		return new RewindParameters(ParameterText.input(() -> RewindPlan.checkInput(JobParameterNames.PLAN, repository,
				JobResults.PLANS_DIR, this.plan.toString())));
	}

	@Override
	public boolean namesInput() {
		return true;
	}

	@Override
	public RefJobType type() {
		return RefJobType.REWIND;
	}

	@Override
	public Map<String, String> toMap() {
		return Map.of(JobParameterNames.PLAN, this.plan.toString());
	}

}
