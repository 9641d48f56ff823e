package io.refstore.core.migrate;

/**
 * A store built for a swap: the digest of what went in, the digest read back from it (once verified) and its
 * counts. Made by {@link StoreBuilder}, {@link StreamedAssembly} and a rollback's copy of its backup.
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

}
