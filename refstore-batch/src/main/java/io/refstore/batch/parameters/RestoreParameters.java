package io.refstore.batch.parameters;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import io.refstore.batch.support.JobParameterNames;
import io.refstore.batch.support.JobResults;
import io.refstore.batch.support.RefJobType;
import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.repo.Repository;

/**
 * {@code restoreRefsJob}'s parameters.
 *
 * @param manifest a manifest file, or a directory of manifests, a deletion wrote:
 * relative to the repository's {@value JobResults#PLANS_DIR} as a caller gives it,
 * absolute once checked in the repository
 */
public record RestoreParameters(Path manifest) implements RefJobParameters {

	static final Set<String> KEYS = Set.of(JobParameterNames.MANIFEST);

	/** The parameters of a job's parameters. */
	public static RestoreParameters from(Map<String, ?> jobParameters) {
		return read(new ParameterText(jobParameters));
	}

	static RestoreParameters read(ParameterText text) {
		return new RestoreParameters(text.path(JobParameterNames.MANIFEST));
	}

	@Override
	public RestoreParameters checkedIn(Repository repository, ProtectedRefs protection) {
		return new RestoreParameters(ParameterText.within(JobParameterNames.MANIFEST, this.manifest,
				repository.gitDir().resolve(JobResults.PLANS_DIR), false));
	}

	@Override
	public RefJobType type() {
		return RefJobType.RESTORE;
	}

	@Override
	public Map<String, String> toMap() {
		return Map.of(JobParameterNames.MANIFEST, this.manifest.toString());
	}

}
