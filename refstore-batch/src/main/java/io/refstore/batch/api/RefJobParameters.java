package io.refstore.batch.api;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.repo.Repository;

/**
 * A refstore job's own parameters, typed: parsed and checked once, from a caller's text
 * ({@link #parse}) or a job's parameters ({@code from} of each record), and written back
 * as the job's text parameters ({@link #toMap}). The repository, the launch id and the
 * actor are the launch's, not these.
 */
public sealed interface RefJobParameters
		permits MigrateParameters, RollbackParameters, DeleteParameters, RestoreParameters, RewindParameters,
		MaintainParameters, VerifyParameters, InventoryParameters, JournalRetentionParameters {

	/** The job these parameters are for. */
	RefJobType type();

	/**
	 * The parameters as the job's text parameters, by {@link JobParameterNames} key;
	 * absent ones left out.
	 */
	Map<String, String> toMap();

	/**
	 * These parameters checked against the repository the job runs on, paths resolved
	 * inside it.
	 * @param protection what a deletion plan keeps unless its launch overrides it
	 * @throws InvalidJobParameterException naming the parameter that cannot apply
	 */
	default RefJobParameters checkedIn(Repository repository, ProtectedRefs protection) {
		return this;
	}

	/**
	 * Whether these parameters name an input in the repository that {@link #checkedIn}
	 * checks (a plan, a manifest, a backup): a schedule or campaign checks it in each
	 * repository when it is created.
	 */
	default boolean namesInput() {
		return false;
	}

	/**
	 * Parses a caller's parameters for a job of {@code type}, defaults filled in.
	 * @param given by {@link JobParameterNames} key, without the repository
	 * @throws InvalidJobParameterException naming the parameter refused: unknown to the
	 * job, malformed, out of range, or contradicting another
	 */
	static RefJobParameters parse(RefJobType type, Map<String, String> given) {
		Set<String> keys = keys(type);
		for (Map.Entry<String, String> entry : given.entrySet()) {
			if (!keys.contains(entry.getKey())) {
				throw new InvalidJobParameterException(entry.getKey(), entry.getValue(),
						"not a parameter of " + type.jobName() + " (it takes repository and " + keys + ")");
			}
		}
		ParameterText text = new ParameterText(given);
		return switch (type) {
			case MIGRATE -> MigrateParameters.read(text);
			case ROLLBACK -> RollbackParameters.read(text);
			case DELETE -> DeleteParameters.read(text, true);
			case RESTORE -> RestoreParameters.read(text);
			case REWIND -> RewindParameters.read(text);
			case MAINTAIN -> MaintainParameters.read(text);
			case VERIFY -> new VerifyParameters();
			case INVENTORY -> new InventoryParameters();
			case JOURNAL_RETENTION -> new JournalRetentionParameters();
		};
	}

	/** The keys a caller may give a job of {@code type}, besides the repository. */
	static Set<String> keys(RefJobType type) {
		return switch (type) {
			case MIGRATE -> MigrateParameters.KEYS;
			case ROLLBACK -> RollbackParameters.KEYS;
			case DELETE -> DeleteParameters.KEYS;
			case RESTORE -> RestoreParameters.KEYS;
			case REWIND -> RewindParameters.KEYS;
			case MAINTAIN -> MaintainParameters.KEYS;
			case VERIFY, INVENTORY, JOURNAL_RETENTION -> Set.of();
		};
	}

	/** The real path of the repository a job runs on, from its parameters. */
	static Path repositoryPath(Map<String, ?> jobParameters) {
		return new ParameterText(jobParameters).path(JobParameterNames.REPOSITORY_PATH);
	}

	/** A map to fill in {@link #toMap}, in insertion order. */
	static Map<String, String> map() {
		return new LinkedHashMap<>();
	}

}
