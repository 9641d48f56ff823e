package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.RepositoryId;
import io.refstore.core.store.RefStores;

/**
 * What a backup held when a swap made it: the {@link RefDigest} of its refs and reflogs,
 * kept in the backup so that a rollback can prove the copy it restores is the store that
 * was retired, not merely a copy of itself.
 *
 * @param digest the digest, reflogs included
 * @param refs how many refs (root refs included)
 * @param logEntries how many reflog entries
 */
record BackupRecord(String digest, long refs, long logEntries) {

	static final String FILE = "refstore-backup.properties";

	/** The record's key of the repository's identity (absent in records before it). */
	private static final String REPOSITORY = "repository";

	/**
	 * The record of a store built with its reflogs, whose digest is {@code built}'s
	 * source digest.
	 */
	static BackupRecord of(BuiltStore built) {
		return new BackupRecord(built.sourceDigest, built.refs, built.logEntries);
	}

	/** Reads the whole store of {@code format} in {@code backup} for its record. */
	static BackupRecord read(Repository repository, RefFormat format, Path backup) throws IOException {
		return read(repository, format, backup, MigrationProgress.NONE);
	}

	/**
	 * As {@link #read(Repository, RefFormat, Path)}, telling {@code progress} the refs
	 * read.
	 */
	static BackupRecord read(Repository repository, RefFormat format, Path backup, MigrationProgress progress)
			throws IOException {
		try (RefStore store = RefStores.openAt(repository, format, backup)) {
			RefDigest digest = RefDigest.of(store, repository.objectDatabase(), true, progress);
			String hex = digest.finish();
			return new BackupRecord(hex, digest.refs(), digest.logEntries());
		}
	}

	/**
	 * Writes the record into {@code backup}, durably, with the identity of the repository
	 * it belongs to, which a rollback checks.
	 */
	void write(Path backup, RepositoryId repository) throws IOException {
		Properties properties = new Properties();
		properties.setProperty(REPOSITORY, repository.value());
		properties.setProperty("digest", this.digest);
		properties.setProperty("refs", Long.toString(this.refs));
		properties.setProperty("logEntries", Long.toString(this.logEntries));
		DurableFiles.writeProperties(backup.resolve(FILE), properties);
	}

	/**
	 * The identity of the repository whose store {@code backup} holds, as its record
	 * says; empty without a record, or with one made before identities were recorded.
	 * @throws IOException if the record cannot be read, is a symbolic link, or holds a
	 * malformed identity
	 */
	static Optional<RepositoryId> repositoryOf(Path backup) throws IOException {
		Properties properties = DurableFiles.readProperties(backup.resolve(FILE));
		String value = (properties != null) ? properties.getProperty(REPOSITORY) : null;
		if (value == null) {
			return Optional.empty();
		}
		return Optional.of(RepositoryId.parse(value)
			.orElseThrow(() -> new IOException(FILE + ": bad repository id '" + value + "'")));
	}

	/**
	 * The record kept in {@code backup}, or {@code null} for a backup made before records
	 * were kept.
	 */
	static BackupRecord readRecorded(Path backup) throws IOException {
		Properties properties = DurableFiles.readProperties(backup.resolve(FILE));
		if (properties == null || properties.getProperty("digest") == null) {
			return null;
		}
		return new BackupRecord(properties.getProperty("digest"), Long.parseLong(properties.getProperty("refs", "0")),
				Long.parseLong(properties.getProperty("logEntries", "0")));
	}

}
