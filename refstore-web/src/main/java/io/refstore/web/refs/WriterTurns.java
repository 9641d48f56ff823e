package io.refstore.web.refs;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import io.refstore.web.system.Problems;

/**
 * The application's writers of one repository take turns, first come first served, before
 * each takes the repository's own lock: that lock is git's, taken with git's back-off and
 * timeout ({@code core.filesRefLockTimeout}, {@code reftable.lockTimeout}, 100 ms by
 * default), which is short enough that a hundred of the application's own batches
 * arriving together would time out on each other, where a queue in the application lets
 * each wait its turn. Git processes and other instances still meet the file lock and its
 * timeout. One lock per repository directory, kept while the application runs (one small
 * object per repository written to). Thread-safe.
 */
@Component
class WriterTurns {

	/**
	 * How long a writer waits for its turn behind the application's other writers before
	 * it is refused; far longer than a batch takes.
	 */
	static final Duration WAIT = Duration.ofSeconds(30);

	private final Map<Path, ReentrantLock> turns = new ConcurrentHashMap<>();

	/** A write under the repository's lock. */
	@FunctionalInterface
	interface Write<T> {

		T run() throws IOException;

	}

	/**
	 * Runs {@code write} in its turn among the application's writers of the repository
	 * whose common directory is {@code commonDir}.
	 * @throws org.springframework.web.ErrorResponseException 409 {@code lock-failure} if
	 * the turn did not come within {@link #WAIT}
	 */
	<T> T inTurn(String repo, Path commonDir, Write<T> write) throws IOException {
		ReentrantLock turn = this.turns.computeIfAbsent(commonDir.toAbsolutePath().normalize(),
				(dir) -> new ReentrantLock(true));
		boolean mine;
		try {
			mine = turn.tryLock(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("interrupted waiting for a turn to write " + repo, ex);
		}
		if (!mine) {
			throw Problems.exception(
					HttpStatus.CONFLICT, "lock-failure", "other writers of this application held repository " + repo
							+ " for " + WAIT.toSeconds() + "s; try again later",
					Map.of("repository", repo, "queued", turn.getQueueLength()));
		}
		try {
			return write.run();
		}
		finally {
			turn.unlock();
		}
	}

}
