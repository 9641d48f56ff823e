package io.refstore.core.migrate;

/**
 * A backup name that is refused before anything is looked up: it does not name a direct
 * child of {@code refstore-backup/} (a separator, {@code ..}, an absolute path, a hidden
 * name, a symbolic link).
 */
public class InvalidBackupNameException extends MigrationException {

	private static final long serialVersionUID = 1L;

	private final String name;

	public InvalidBackupNameException(String name, String message) {
		super(message);
		this.name = name;
	}

	/** The name as it was given. */
	public String name() {
		return this.name;
	}

}
