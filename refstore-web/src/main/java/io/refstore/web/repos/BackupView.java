package io.refstore.web.repos;

import io.refstore.core.migrate.Backups;

/**
 * A backup a format migration kept, as the API and the console show it: by name, never by
 * server path.
 *
 * @param name the backup's name, by which it is rolled back
 * ({@code POST /api/jobs/rollbacks}) or dropped
 * @param format the format of the store it holds ({@code files} or {@code reftable})
 * @param madeAt when it was made, server-local ISO date-time (from its name)
 * @param bytes the size of its files
 * @param refs how many refs it holds, or {@code null} for a backup without a record
 * @param logEntries how many reflog entries it holds, or {@code null} for a backup
 * without a record
 * @param digest the digest of its refs and reflogs a rollback checks, or {@code null}
 * without a record
 * @param recorded whether it holds that record
 */
public record BackupView(String name, String format, String madeAt, long bytes, Long refs, Long logEntries,
		String digest, boolean recorded) {

	static BackupView of(Backups.Backup backup) {
		return new BackupView(backup.name(), backup.format().configName(), backup.madeAt().toString(), backup.bytes(),
				backup.refs(), backup.logEntries(), backup.digest(), backup.recorded());
	}

}
