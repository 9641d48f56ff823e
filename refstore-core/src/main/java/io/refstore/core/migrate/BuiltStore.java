package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Properties;

/**
 * A store built for a swap: the digest of what went in, the digest read back from it
 * (once verified) and its counts. Made by {@link StoreBuilder}, {@link StreamedAssembly}
 * and a rollback's copy of its backup.
 */
final class BuiltStore {

	final String sourceDigest;

	final String targetDigest;

	final long refs;

	final long logEntries;

	/** What {@code source} digested; the target digest is the source's until verified. */
	BuiltStore(RefDigest source, String targetDigest) {
		this.refs = source.refs();
		this.logEntries = source.logEntries();
		this.sourceDigest = source.finish();
		this.targetDigest = (targetDigest != null) ? targetDigest : this.sourceDigest;
	}

	BuiltStore(String sourceDigest, String targetDigest, long refs, long logEntries) {
		this.sourceDigest = sourceDigest;
		this.targetDigest = targetDigest;
		this.refs = refs;
		this.logEntries = logEntries;
	}

	/**
	 * Records this store durably in {@code file}, its target digest only if
	 * {@code verified}.
	 */
	void write(Path file, boolean verified) throws IOException {
		Properties properties = new Properties();
		properties.setProperty("sourceDigest", this.sourceDigest);
		properties.setProperty("refs", Long.toString(this.refs));
		properties.setProperty("logEntries", Long.toString(this.logEntries));
		if (verified) {
			properties.setProperty("targetDigest", this.targetDigest);
		}
		DurableFiles.writeProperties(file, properties);
	}

	/**
	 * The store {@link #write} recorded in {@code file}; {@code null} if none is
	 * (verified, if asked).
	 */
	static BuiltStore read(Path file, boolean verified) throws IOException {
		Properties properties = DurableFiles.readProperties(file);
		if (properties == null || (verified && properties.getProperty("targetDigest") == null)) {
			return null;
		}
		String source = properties.getProperty("sourceDigest");
		return new BuiltStore(source, properties.getProperty("targetDigest", source),
				Long.parseLong(properties.getProperty("refs")), Long.parseLong(properties.getProperty("logEntries")));
	}

}
