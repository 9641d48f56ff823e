package io.refstore.core.reftable.format;

import java.util.Objects;

import io.refstore.core.ref.HashAlgorithm;

/**
 * How {@link ReftableWriter} lays out a table. The defaults are git's, so a table written
 * with {@link #defaults()} from the same records as git is byte-identical to git's.
 *
 * @param hash the object hash: SHA-1 writes format version 1, SHA-256 version 2 with its
 * hash id (default SHA-1, git's {@code extensions.objectFormat} default)
 * @param blockSize the block size in bytes, 1 to 16777215 (default 4096, git's
 * {@code reftable.blockSize}); a ref or log record must fit into one block
 * @param restartInterval every how many records of a block the key is written in full
 * (default 16, git's {@code reftable.restartInterval}); git also restarts at every record
 * that shares nothing with its predecessor
 * @param indexObjects whether to write the object index ("which ref blocks point at this
 * id"), which git does only when the ref section has an index (default {@code true},
 * git's {@code reftable.indexObjects})
 * @param exactLogMessage whether log messages are written as given; {@code false} (the
 * default, as git) strips trailing newlines, rejects multi-line messages and appends one
 * newline. Copying records from another table (compaction) needs {@code true}
 */
public record WriteOptions(HashAlgorithm hash, int blockSize, int restartInterval, boolean indexObjects,
		boolean exactLogMessage) {

	/** git's default block size. */
	public static final int DEFAULT_BLOCK_SIZE = 4096;

	/** git's default restart interval. */
	public static final int DEFAULT_RESTART_INTERVAL = 16;

	/** The largest block size the format holds (a 24-bit length). */
	public static final int MAX_BLOCK_SIZE = ReftableConstants.MAX_BLOCK_SIZE;

	/** The largest restart interval (a 16-bit count). */
	public static final int MAX_RESTART_INTERVAL = ReftableConstants.MAX_RESTARTS;

	/**
	 * The smallest block size accepted. git takes any: a table whose records do not fit
	 * its blocks fails to be written
	 * ({@link io.refstore.core.ref.EntryTooLargeException}).
	 */
	public static final int MIN_BLOCK_SIZE = 1;

	/**
	 * @throws IllegalArgumentException naming the parameter if a value is out of range
	 */
	public WriteOptions {
		Objects.requireNonNull(hash, "hash");
		if (blockSize < MIN_BLOCK_SIZE || blockSize > ReftableConstants.MAX_BLOCK_SIZE) {
			throw new IllegalArgumentException("blockSize must be between " + MIN_BLOCK_SIZE + " and "
					+ ReftableConstants.MAX_BLOCK_SIZE + ": " + blockSize);
		}
		if (restartInterval < 1 || restartInterval > ReftableConstants.MAX_RESTARTS) {
			throw new IllegalArgumentException(
					"restartInterval must be between 1 and " + ReftableConstants.MAX_RESTARTS + ": " + restartInterval);
		}
	}

	/**
	 * git's defaults: SHA-1, 4096-byte blocks, restart interval 16, object index on,
	 * messages cleaned.
	 */
	public static WriteOptions defaults() {
		return new WriteOptions(HashAlgorithm.SHA1, DEFAULT_BLOCK_SIZE, DEFAULT_RESTART_INTERVAL, true, false);
	}

	/** These options with another hash. */
	public WriteOptions withHash(HashAlgorithm hash) {
		return new WriteOptions(hash, this.blockSize, this.restartInterval, this.indexObjects, this.exactLogMessage);
	}

	/** These options with another block size. */
	public WriteOptions withBlockSize(int blockSize) {
		return new WriteOptions(this.hash, blockSize, this.restartInterval, this.indexObjects, this.exactLogMessage);
	}

	/** These options with another restart interval. */
	public WriteOptions withRestartInterval(int restartInterval) {
		return new WriteOptions(this.hash, this.blockSize, restartInterval, this.indexObjects, this.exactLogMessage);
	}

	/** These options with the object index switched on or off. */
	public WriteOptions withIndexObjects(boolean indexObjects) {
		return new WriteOptions(this.hash, this.blockSize, this.restartInterval, indexObjects, this.exactLogMessage);
	}

	/** These options with log messages written verbatim or cleaned. */
	public WriteOptions withExactLogMessage(boolean exactLogMessage) {
		return new WriteOptions(this.hash, this.blockSize, this.restartInterval, this.indexObjects, exactLogMessage);
	}

	/**
	 * The longest reflog message git's reftable backend stores: half a block. It cuts
	 * every longer message to this many bytes (even inside a UTF-8 sequence) before the
	 * table writer sees it, so that a log record whose name and identity are short fits
	 * in a block however long its message was.
	 */
	public int maxLogMessage() {
		return this.blockSize / 2;
	}

	/** The format version this hash needs: 1 for SHA-1, 2 for SHA-256. */
	int version() {
		return (this.hash == HashAlgorithm.SHA1) ? 1 : 2;
	}

}
