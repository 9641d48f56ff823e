package io.refstore.core.delete;

import java.nio.file.Path;
import java.util.Objects;

import io.refstore.core.repo.RepositoryId;

/**
 * How {@link RefDeleter#delete} runs.
 *
 * @param manifest the manifest file to create; it must not exist yet
 * @param chunkSize refs per transaction, at least 1 (default
 * {@value #DEFAULT_CHUNK_SIZE})
 * @param sampleSize how many of the first names to report, at least 0 (default
 * {@value #DEFAULT_SAMPLE_SIZE})
 * @param message the reflog message of the deletions (seen only in the log of a symbolic
 * ref such as {@code HEAD} that points at a deleted ref; a deleted ref's own log goes
 * with it)
 * @param repository the git directory, recorded in the manifest for people reading it;
 * may be {@code null}
 * @param repositoryId the repository's identity, recorded in the manifest so that a
 * restore on another repository refuses it; may be {@code null}
 * @param listener hears about each chunk (default {@link ChunkListener#NONE})
 */
public record DeleteOptions(Path manifest, int chunkSize, int sampleSize, String message, Path repository,
		ChunkListener listener, RepositoryId repositoryId) {

	/** Refs per transaction unless set. */
	public static final int DEFAULT_CHUNK_SIZE = 1000;

	/** Names reported unless set. */
	public static final int DEFAULT_SAMPLE_SIZE = 10;

	/** The reflog message unless set. */
	public static final String DEFAULT_MESSAGE = "refstore delete-refs";

	/**
	 * @throws IllegalArgumentException naming the parameter if a size is out of range
	 */
	public DeleteOptions {
		Objects.requireNonNull(manifest, "manifest");
		Objects.requireNonNull(message, "message");
		Objects.requireNonNull(listener, "listener");
		if (chunkSize < 1) {
			throw new IllegalArgumentException("chunkSize must be at least 1, not " + chunkSize);
		}
		if (sampleSize < 0) {
			throw new IllegalArgumentException("sampleSize must not be negative, not " + sampleSize);
		}
	}

	/** The defaults, writing the manifest to {@code manifest}. */
	public static DeleteOptions to(Path manifest) {
		return new DeleteOptions(manifest, DEFAULT_CHUNK_SIZE, DEFAULT_SAMPLE_SIZE, DEFAULT_MESSAGE, null,
				ChunkListener.NONE, null);
	}

	/** These options with another chunk size. */
	public DeleteOptions withChunkSize(int chunkSize) {
		return new DeleteOptions(this.manifest, chunkSize, this.sampleSize, this.message, this.repository,
				this.listener, this.repositoryId);
	}

	/** These options with another sample size. */
	public DeleteOptions withSampleSize(int sampleSize) {
		return new DeleteOptions(this.manifest, this.chunkSize, sampleSize, this.message, this.repository,
				this.listener, this.repositoryId);
	}

	/** These options with another reflog message. */
	public DeleteOptions withMessage(String message) {
		return new DeleteOptions(this.manifest, this.chunkSize, this.sampleSize, message, this.repository,
				this.listener, this.repositoryId);
	}

	/**
	 * These options, recording {@code gitDir} and the repository's identity in the
	 * manifest.
	 */
	public DeleteOptions withRepository(Path gitDir, RepositoryId id) {
		return new DeleteOptions(this.manifest, this.chunkSize, this.sampleSize, this.message, gitDir, this.listener,
				id);
	}

	/** These options with a listener. */
	public DeleteOptions withListener(ChunkListener listener) {
		return new DeleteOptions(this.manifest, this.chunkSize, this.sampleSize, this.message, this.repository,
				listener, this.repositoryId);
	}

}
