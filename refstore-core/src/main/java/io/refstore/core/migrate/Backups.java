package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.refstore.core.io.FileMoves;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.RefusedJobInputException;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.RepositoryId;
import io.refstore.core.repo.RepositoryInputs;

/**
 * The backups a format migration keeps in
 * {@code refstore-backup/<yyyyMMdd-HHmmss-SSS>-<format>/}: listed, and dropped by name
 * once the operator no longer needs them. Names come from users (command line, URL), so a
 * name is only ever taken as a direct child of the backup directory; anything else is
 * refused.
 * <p>
 * A drop renames the backup to a hidden name before deleting its tree: a drop stopped
 * halfway leaves no half-deleted store that a listing (or a rollback by name) would take
 * for a backup. The next drop finishes what such a stop left.
 */
public final class Backups {

	/**
	 * What {@link FormatMigrator#newBackupDir} names a backup: its time stamp and the
	 * retired store's format.
	 */
	private static final Pattern NAME = Pattern.compile("(\\d{8}-\\d{6}-\\d{3})-([a-z]+)");

	private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS");

	/**
	 * The prefix of a backup being dropped; hidden, as is {@code .restored-} of a
	 * finished rollback.
	 */
	private static final String DROPPING = ".dropping-";

	private final Path gitDir;

	private final Path dir;

	/** The repository, whose identity a drop checks; {@code null} if not known. */
	private final Repository repository;

	/**
	 * The backups of the repository whose git directory is {@code gitDir}; a drop does
	 * not check whose a backup is.
	 */
	public Backups(Path gitDir) {
		this(gitDir, null);
	}

	/**
	 * The backups of {@code repository}; a drop refuses a backup another repository made
	 * ({@link #check}).
	 */
	public Backups(Repository repository) {
		this(repository.gitDir(), repository);
	}

	private Backups(Path gitDir, Repository repository) {
		this.gitDir = gitDir;
		this.dir = gitDir.resolve(FormatMigrator.BACKUP_DIR);
		this.repository = repository;
	}

	/**
	 * The backup a user names for a rollback, checked before the rollback reads it: a
	 * directory inside {@value FormatMigrator#BACKUP_DIR}/ reached without a symbolic
	 * link from the git directory down ({@link RepositoryInputs}), whose record names
	 * {@code repository} (a backup made before records named their repository is taken on
	 * the strength of where it lies).
	 * @param parameter the parameter that named it, for the refusal
	 * @param given the backup as given: its name, a path relative to
	 * {@value FormatMigrator#BACKUP_DIR}/, or an absolute path inside it
	 * @return the backup's absolute path
	 * @throws RefusedJobInputException naming {@code parameter} if it is refused
	 * @throws IOException if the file system cannot be read
	 */
	public static Path check(String parameter, Repository repository, String given) throws IOException {
		Path path = RepositoryInputs.check(parameter, repository.gitDir(), FormatMigrator.BACKUP_DIR, given,
				RepositoryInputs.Kind.DIRECTORY);
		Optional<RepositoryId> recorded;
		try {
			recorded = BackupRecord.repositoryOf(path);
		}
		catch (IOException ex) {
			throw new RefusedJobInputException(parameter, given,
					"its record " + BackupRecord.FILE + " cannot be read (a symbolic link, or not a record)");
		}
		RepositoryInputs.checkOwner(parameter, given, recorded, repository);
		return path;
	}

	/**
	 * The backups, oldest first (their names sort by time); none if no migration ever
	 * ran.
	 */
	public List<Backup> list() throws IOException {
		List<Backup> backups = new ArrayList<>();
		if (!Files.isDirectory(this.dir)) {
			return backups;
		}
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(this.dir)) {
			for (Path entry : entries) {
				Backup backup = describe(entry);
				if (backup != null) {
					backups.add(backup);
				}
			}
		}
		backups.sort((a, b) -> a.name().compareTo(b.name()));
		return backups;
	}

	/**
	 * The backup called {@code name}.
	 * @return the backup, or {@code null} if there is none of that name
	 * @throws InvalidBackupNameException if {@code name} is not the name of a direct
	 * child of the backup directory
	 */
	public Backup find(String name) throws IOException {
		return describe(resolve(name));
	}

	/**
	 * Deletes the backup called {@code name}: renamed to a hidden name (one atomic step
	 * after which it is no backup), then its tree deleted.
	 * @return the backup as it was listed, or {@code null} if there is none of that name
	 * (nothing is changed)
	 * @throws InvalidBackupNameException if {@code name} is not the name of a direct
	 * child of the backup directory
	 * @throws MigrationException if an unfinished migration is still to move the old
	 * store into it
	 */
	public Backup drop(String name) throws IOException {
		Path path = resolve(name);
		Backup backup = describe(path);
		if (backup == null) {
			return null;
		}
		if (this.repository != null) {
			try {
				check("backup", this.repository, name);
			}
			catch (RefusedJobInputException ex) {
				throw new InvalidBackupNameException(name,
						"'" + name + "' is not a backup of this repository: " + ex.reason());
			}
		}
		Journal journal = Journal.read(this.gitDir.resolve(FormatMigrator.WORK_DIR));
		if (journal != null && path.toAbsolutePath().equals(journal.backup().toAbsolutePath().normalize())) {
			throw new MigrationException("backup '" + name + "' belongs to a migration that has not finished;"
					+ " run the migration again to finish it first");
		}
		Path hidden = this.dir.resolve(DROPPING + name);
		FileMoves.move(path, hidden);
		FileMoves.deleteTree(hidden);
		finishEarlierDrops();
		return backup;
	}

	/** Deletes what drops stopped halfway left: hidden, so harmless, but taking room. */
	private void finishEarlierDrops() throws IOException {
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(this.dir, DROPPING + "*")) {
			for (Path entry : entries) {
				FileMoves.deleteTree(entry);
			}
		}
	}

	/**
	 * {@code name} as a path in the backup directory, refused unless it names a direct
	 * child there: one plain file name (no separator, not {@code .} or {@code ..}, not
	 * hidden), not a symbolic link.
	 */
	private Path resolve(String name) throws InvalidBackupNameException {
		if (name == null || name.isEmpty() || name.startsWith(".") || name.indexOf('/') >= 0 || name.indexOf('\\') >= 0
				|| name.indexOf('\0') >= 0) {
			throw new InvalidBackupNameException(name,
					"'" + name + "' is not a backup name: a backup is named by its directory" + " in "
							+ FormatMigrator.BACKUP_DIR + "/, as 'refs backups' lists it");
		}
		Path path = this.dir.resolve(name).normalize();
		if (!this.dir.equals(path.getParent())) {
			throw new InvalidBackupNameException(name,
					"'" + name + "' is not a backup name: it is not a directory in " + FormatMigrator.BACKUP_DIR + "/");
		}
		if (Files.isSymbolicLink(this.dir) || Files.isSymbolicLink(path)) {
			// a link may point anywhere: a drop must never delete what it points to
			throw new InvalidBackupNameException(name,
					"'" + name + "' is not a backup: "
							+ (Files.isSymbolicLink(this.dir) ? FormatMigrator.BACKUP_DIR + "/ is" : "it is")
							+ " a symbolic link");
		}
		return path;
	}

	/**
	 * The backup at {@code path}, or {@code null} if that is no backup (hidden, not a
	 * directory, other name).
	 */
	private Backup describe(Path path) throws IOException {
		Matcher name = NAME.matcher(path.getFileName().toString());
		if (!name.matches() || !Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
			return null;
		}
		RefFormat format;
		LocalDateTime madeAt;
		try {
			format = RefFormat.fromConfigName(name.group(2));
			madeAt = LocalDateTime.parse(name.group(1), STAMP);
		}
		catch (RuntimeException ex) {
			return null;
		}
		BackupRecord record;
		try {
			record = BackupRecord.readRecorded(path);
		}
		catch (IOException | RuntimeException ex) {
			// a damaged record does not hide the backup; a rollback checks it anyway
			record = null;
		}
		return new Backup(name.group(), format, madeAt, bytes(path), (record != null) ? record.refs() : null,
				(record != null) ? record.logEntries() : null, (record != null) ? record.digest() : null);
	}

	/**
	 * The bytes of every file below {@code path}, from the attributes the directory walk
	 * reads anyway.
	 */
	private static long bytes(Path path) throws IOException {
		long[] total = { 0 };
		Files.walkFileTree(path, new SimpleFileVisitor<>() {

			@Override
			public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
				total[0] += attrs.size();
				return FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult visitFileFailed(Path file, IOException ex) {
				// removed while we walked (a concurrent drop or rollback): it takes no
				// room any more
				return FileVisitResult.CONTINUE;
			}

		});
		return total[0];
	}

	/**
	 * One backup.
	 *
	 * @param name its directory's name in {@code refstore-backup/}, by which it is rolled
	 * back or dropped
	 * @param format the format of the store it holds
	 * @param madeAt when the migration that retired the store made it (local time, from
	 * its name)
	 * @param bytes the size of its files
	 * @param refs how many refs it holds (root refs included), as recorded, or
	 * {@code null} without a record
	 * @param logEntries how many reflog entries it holds, as recorded, or {@code null}
	 * without a record
	 * @param digest the digest of its refs and reflogs a rollback checks, or {@code null}
	 * without a record
	 */
	public record Backup(String name, RefFormat format, LocalDateTime madeAt, long bytes, Long refs, Long logEntries,
			String digest) {

		/**
		 * Whether the backup holds a record of what it held when it was made (backups of
		 * old versions do not).
		 */
		public boolean recorded() {
			return this.digest != null;
		}

	}

}
