package io.refstore.batch.api;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.refstore.core.delete.Manifest;
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

	/**
	 * The manifest resolved inside the repository's plans: it, or each manifest of its
	 * directory, a file reached without a symbolic link that this repository wrote
	 * ({@link Manifest#checkInput}).
	 */
	@Override
	public RestoreParameters checkedIn(Repository repository, ProtectedRefs protection) {
		manifests(repository);
		return new RestoreParameters(
				repository.gitDir().resolve(JobResults.PLANS_DIR).resolve(this.manifest.toString()).normalize());
	}

	/**
	 * The manifest files to restore from, in order, each checked as {@link #checkedIn}
	 * checks them.
	 * @throws InvalidJobParameterException naming {@code manifest} if one is refused
	 */
	public List<Path> manifests(Repository repository) {
		return ParameterText.input(() -> Manifest.checkInput(JobParameterNames.MANIFEST, repository,
				repository.gitDir(), JobResults.PLANS_DIR, this.manifest.toString()));
	}

	@Override
	public boolean namesInput() {
		return true;
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
