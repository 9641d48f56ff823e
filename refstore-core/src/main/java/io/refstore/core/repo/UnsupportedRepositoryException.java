package io.refstore.core.repo;

import java.io.IOException;

/**
 * A repository whose format refstore must not touch: an unknown
 * {@code core.repositoryformatversion}, an unknown extension, or an extension value it
 * does not understand. The message names the config key and its value.
 */
public class UnsupportedRepositoryException extends IOException {

	private static final long serialVersionUID = 1L;

	private final String key;

	private final String value;

	/**
	 * @param key the config key, such as {@code extensions.refstorage}
	 * @param value its value as written (may be {@code null} for a key without {@code =})
	 * @param message the complete message, which names key and value
	 */
	public UnsupportedRepositoryException(String key, String value, String message) {
		super(message);
		this.key = key;
		this.value = value;
	}

	/** The offending config key, in lower case. */
	public String key() {
		return this.key;
	}

	/** The offending value, or {@code null} for a key without a value. */
	public String value() {
		return this.value;
	}

}
