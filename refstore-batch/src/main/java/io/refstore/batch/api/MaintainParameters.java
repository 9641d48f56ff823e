package io.refstore.batch.api;

import java.util.Map;
import java.util.Set;

/**
 * {@code maintainRefsJob}'s parameters.
 *
 * @param force pack or compact even when git's heuristics say it is not due
 */
public record MaintainParameters(boolean force) implements RefJobParameters {

	static final Set<String> KEYS = Set.of(JobParameterNames.FORCE);

	/** The parameters of a job's parameters. */
	public static MaintainParameters from(Map<String, ?> jobParameters) {
		return read(new ParameterText(jobParameters));
	}

	static MaintainParameters read(ParameterText text) {
		return new MaintainParameters(text.bool(JobParameterNames.FORCE, false));
	}

	@Override
	public RefJobType type() {
		return RefJobType.MAINTAIN;
	}

	@Override
	public Map<String, String> toMap() {
		return Map.of(JobParameterNames.FORCE, Boolean.toString(this.force));
	}

}
