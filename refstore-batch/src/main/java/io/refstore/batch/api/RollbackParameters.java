package io.refstore.batch.api;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.migrate.Backups;
import io.refstore.core.repo.Repository;

/**
 * {@code rollbackMigrationJob}'s parameters.
 *
 * @param backup the backup directory a migration kept: relative to the repository's
 * backup directory as a caller gives it, absolute once checked in the repository
 */
public record RollbackParameters(Path backup) implements RefJobParameters {

	static final Set<String> KEYS = Set.of(JobParameterNames.BACKUP);

	/** The parameters of a job's parameters. */
	public static RollbackParameters from(Map<String, ?> jobParameters) {
		return read(new ParameterText(jobParameters));
	}

	static RollbackParameters read(ParameterText text) {
		return new RollbackParameters(text.path(JobParameterNames.BACKUP));
	}

	/**
	 * The backup resolved inside the repository's backups: a directory reached without a
	 * symbolic link that a migration of this repository made ({@link Backups#check}).
	 */
	@Override
	public RollbackParameters checkedIn(Repository repository, ProtectedRefs protection) {
		return new RollbackParameters(
				ParameterText.input(() -> Backups.check(JobParameterNames.BACKUP, repository, this.backup.toString())));
	}

	@Override
	public boolean namesInput() {
		return true;
	}

	@Override
	public RefJobType type() {
		return RefJobType.ROLLBACK;
	}

	@Override
	public Map<String, String> toMap() {
		return Map.of(JobParameterNames.BACKUP, this.backup.toString());
	}

}
