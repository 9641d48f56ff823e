package io.refstore.batch.api;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.refstore.core.delete.InvalidSelectionException;
import io.refstore.core.delete.Manifest;
import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.delete.RefSelection;
import io.refstore.core.repo.Repository;

/**
 * {@code restoreRefsJob}'s parameters.
 *
 * @param manifest a manifest file, or a directory of manifests, a deletion wrote:
 * relative to the repository's {@value JobResults#PLANS_DIR} as a caller gives it,
 * absolute once checked in the repository
 * @param names the full names of the manifest's refs to restore, the others left deleted
 * (one branch put back where the deletion left it); empty for every ref of the manifest
 */
public record RestoreParameters(Path manifest, List<String> names) implements RefJobParameters {

	static final Set<String> KEYS = Set.of(JobParameterNames.MANIFEST, JobParameterNames.NAMES);

	/**
	 * @throws InvalidJobParameterException naming {@code names} for one that is no full
	 * ref name
	 */
	public RestoreParameters {
		names = (names == null) ? List.of() : List.copyOf(names);
		RefSelection.Builder check = RefSelection.builder();
		try {
			names.forEach(check::name);
		}
		catch (InvalidSelectionException ex) {
			throw new InvalidJobParameterException(JobParameterNames.NAMES, ex.value(), ex.problem());
		}
	}

	/** Every ref of the manifest. */
	public RestoreParameters(Path manifest) {
		this(manifest, List.of());
	}

	/** The parameters of a job's parameters. */
	public static RestoreParameters from(Map<String, ?> jobParameters) {
		return read(new ParameterText(jobParameters));
	}

	static RestoreParameters read(ParameterText text) {
		return new RestoreParameters(text.path(JobParameterNames.MANIFEST), text.list(JobParameterNames.NAMES));
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
				repository.gitDir().resolve(JobResults.PLANS_DIR).resolve(this.manifest.toString()).normalize(),
				this.names);
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
		Map<String, String> map = RefJobParameters.map();
		map.put(JobParameterNames.MANIFEST, this.manifest.toString());
		if (!this.names.isEmpty()) {
			map.put(JobParameterNames.NAMES, String.join(",", this.names));
		}
		return map;
	}

}
