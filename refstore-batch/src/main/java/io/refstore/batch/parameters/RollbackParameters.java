package io.refstore.batch.parameters;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import io.refstore.batch.support.JobParameterNames;
import io.refstore.batch.support.RefJobType;
import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.migrate.FormatMigrator;
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

	@Override
	public RollbackParameters checkedIn(Repository repository, ProtectedRefs protection) {
		return new RollbackParameters(ParameterText.within(JobParameterNames.BACKUP, this.backup,
				repository.gitDir().resolve(FormatMigrator.BACKUP_DIR), true));
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
