package io.refstore.web.repos;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;
import org.springframework.web.ErrorResponseException;

import io.refstore.core.migrate.Backups;
import io.refstore.core.migrate.InvalidBackupNameException;
import io.refstore.core.migrate.MigrationException;
import io.refstore.web.audit.AuditEntry;
import io.refstore.web.audit.AuditEntry.Outcome;
import io.refstore.web.audit.AuditLog;
import io.refstore.web.security.Actors;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Problems;

/**
 * The backups format migrations kept in a repository ({@link Backups}): listed for VIEWER
 * and above, dropped by ADMIN only, checked here whatever the URL rules say. Every drop
 * is audited as {@code backup.drop} with its outcome, refused ones included. Names come
 * from clients and are refused unless they name a direct child of the backup directory.
 * The rollback form lists a repository's backups to pick from. Thread-safe.
 */
@Service
public class BackupService {

	/** The name of the parameter carrying a backup's name, in problems. */
	public static final String PARAMETER = "name";

	private final RepoRegistry registry;

	private final AuditLog audit;

	public BackupService(RepoRegistry registry, AuditLog audit) {
		this.registry = registry;
		this.audit = audit;
	}

	/**
	 * The backups of {@code repo}, oldest first.
	 * @throws RepoNotFoundException if there is no repository of that name
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public List<BackupView> list(String repo) throws IOException {
		try (OpenRepo open = this.registry.open(repo)) {
			return new Backups(open.repository().gitDir()).list().stream().map(BackupView::of).toList();
		}
	}

	/**
	 * Drops the backup {@code name} of {@code repo}.
	 * @return the backup as it was before the drop
	 * @throws InvalidRequestException naming the parameter for a name that is not a
	 * backup's
	 * @throws ErrorResponseException 404 if there is no such backup (or repository), 409
	 * if an unfinished migration still needs it
	 */
	@PreAuthorize("hasRole('ADMIN')")
	public BackupView drop(String repo, String name) throws IOException {
		String actor = Actors.current();
		try {
			BackupView dropped = dropOrFail(repo, name);
			this.audit.record(AuditEntry.of(actor, "backup.drop", repo, name, Map.of(), Outcome.SUCCESS,
					"dropped a " + dropped.format() + " store of " + dropped.bytes() + " bytes"));
			return dropped;
		}
		catch (ErrorResponseException ex) {
			this.audit.record(AuditEntry.of(actor, "backup.drop", repo, Problems.printable(name), Map.of(),
					Outcome.REJECTED, ex.getBody().getDetail()));
			throw ex;
		}
		catch (InvalidRequestException ex) {
			this.audit.record(AuditEntry.of(actor, "backup.drop", repo, Problems.printable(name), Map.of(),
					Outcome.REJECTED, ex.getMessage()));
			throw ex;
		}
		catch (IOException | RuntimeException ex) {
			// the exception's message may name server paths: the server log has it, the
			// audit log says what failed
			this.audit.record(AuditEntry.of(actor, "backup.drop", repo, Problems.printable(name), Map.of(),
					Outcome.ERROR, "the backup could not be deleted; the server log has the details"));
			throw ex;
		}
	}

	private BackupView dropOrFail(String repo, String name) throws IOException {
		try (OpenRepo open = this.registry.open(repo)) {
			Backups.Backup dropped = new Backups(open.repository()).drop(name);
			if (dropped == null) {
				throw Problems.notFound("backup-not-found", "repository '" + Problems.printable(repo)
						+ "' has no backup named '" + Problems.printable(name) + "'",
						Map.of(PARAMETER, Problems.printable(name)));
			}
			return BackupView.of(dropped);
		}
		catch (InvalidBackupNameException ex) {
			throw new InvalidRequestException(PARAMETER, name,
					"it is not the name of a backup of this repository as the"
							+ " listing shows it, one directory name without '/', '..' or a leading '.', reached through no"
							+ " symbolic link (" + ex.getMessage() + ")");
		}
		catch (MigrationException ex) {
			// the only other refusal: an interrupted migration still has to move the old
			// store into it
			throw Problems.exception(HttpStatus.CONFLICT, "backup-in-use",
					"backup '" + Problems.printable(name)
							+ "' belongs to a migration that has not finished; run the migration again first",
					Map.of(PARAMETER, Problems.printable(name)));
		}
	}

}
