package io.refstore.core.ref;

import java.util.Locale;

/**
 * The ref storage format of a repository, from {@code extensions.refStorage}.
 */
public enum RefFormat {

	/** Loose ref files plus {@code packed-refs}: git's default. */
	FILES("files"),

	/** A stack of reftable files under {@code reftable/}. */
	REFTABLE("reftable");

	private final String configName;

	RefFormat(String configName) {
		this.configName = configName;
	}

	/**
	 * The value git writes to {@code extensions.refStorage} (and accepts for
	 * {@code --ref-format}).
	 */
	public String configName() {
		return this.configName;
	}

	/**
	 * Parses a format name as git spells it.
	 * @param name {@code files} or {@code reftable}
	 * @return the format
	 * @throws IllegalArgumentException naming the unknown format
	 */
	public static RefFormat fromConfigName(String name) {
		for (RefFormat format : values()) {
			if (format.configName.equals(name)) {
				return format;
			}
		}
		throw new IllegalArgumentException("unknown ref storage format '" + name + "' (expected files or reftable)");
	}

	@Override
	public String toString() {
		return this.configName.toLowerCase(Locale.ROOT);
	}

}
