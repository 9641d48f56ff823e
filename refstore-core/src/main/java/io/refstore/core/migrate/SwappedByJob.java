package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;

/**
 * The record a {@link StagedMigration} leaves in the backup it swapped out, naming its
 * job: the job, restarted after a crash that came between the swap and the job's own
 * record of it, finds its migration done instead of refused.
 */
final class SwappedByJob {

	/** The file in a backup naming the job whose migration swapped it out. */
	static final String FILE = "refstore-migration.properties";

	private SwappedByJob() {
	}

	/** Records in {@code report}'s backup that {@code job} swapped it out. */
	static void write(MigrationReport report, String job) throws IOException {
		Properties done = new Properties();
		done.setProperty("job", job);
		done.setProperty("from", report.from().configName());
		done.setProperty("to", report.to().configName());
		done.setProperty("refs", Long.toString(report.refs()));
		done.setProperty("logEntries", Long.toString(report.logEntries()));
		done.setProperty("sourceDigest", report.sourceDigest());
		done.setProperty("targetDigest", report.targetDigest());
		DurableFiles.writeProperties(report.backup().resolve(FILE), done);
	}

	/**
	 * The report of {@code job}'s migration to {@code target} that an earlier process
	 * swapped in, or {@code null}.
	 */
	static MigrationReport find(Repository repository, String job, RefFormat target) throws IOException {
		Path backups = repository.gitDir().resolve(FormatMigrator.BACKUP_DIR);
		if (!Files.isDirectory(backups)) {
			return null;
		}
		try (var dirs = Files.newDirectoryStream(backups)) {
			for (Path backup : dirs) {
				Properties done = DurableFiles.readProperties(backup.resolve(FILE));
				if (done != null && job.equals(done.getProperty("job"))
						&& target.configName().equals(done.getProperty("to"))) {
					return new MigrationReport(RefFormat.fromConfigName(done.getProperty("from")), target,
							Long.parseLong(done.getProperty("refs")), Long.parseLong(done.getProperty("logEntries")),
							done.getProperty("sourceDigest"), done.getProperty("targetDigest"),
							repository.gitDir().resolve(FormatMigrator.WORK_DIR), backup, true, Duration.ZERO);
				}
			}
		}
		return null;
	}

}
