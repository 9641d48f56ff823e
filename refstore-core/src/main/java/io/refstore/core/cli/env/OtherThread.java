package io.refstore.core.cli.env;

import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

import io.refstore.core.io.ParallelIo;

/**
 * Work a command hands to a second thread (a daemon, so that it never holds the process
 * up), waited for even when the command's thread is interrupted, and failing on the
 * command's thread with what the work failed with (an {@link IOException}, a
 * {@link CommandFailure}, or an unchecked exception or error), as if this thread had done
 * it.
 */
public final class OtherThread {

	private OtherThread() {
	}

	/** Starts work on a thread of its own. */
	public static <T> Future<T> start(String name, Callable<T> work) {
		FutureTask<T> task = new FutureTask<>(work);
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
		return task;
	}

	/**
	 * Does the work on this thread now, for a caller that hands it over only when large.
	 */
	public static <T> Future<T> here(Callable<T> work) {
		FutureTask<T> task = new FutureTask<>(work);
		task.run();
		return task;
	}

	/**
	 * Waits for the work's end and leaves its outcome: for a caller that failed on its
	 * own first, in the order that one thread would have done both.
	 */
	public static void await(Future<?> work) {
		try {
			ParallelIo.getUninterruptibly(work);
		}
		catch (ExecutionException ex) {
			// the caller throws its own failure, which comes first
		}
	}

	/**
	 * Waits for the work's end, even when this thread is interrupted (its outcome must be
	 * known), and gives its result or throws its failure.
	 */
	public static <T> T join(Future<T> work) throws IOException, CommandFailure {
		try {
			return ParallelIo.getUninterruptibly(work);
		}
		catch (ExecutionException ex) {
			throw rethrow(ex.getCause());
		}
	}

	/**
	 * Throws a failure caught on another thread.
	 * @return never: it is declared so that callers can write {@code throw rethrow(...)}
	 */
	public static IllegalStateException rethrow(Throwable failure) throws IOException, CommandFailure {
		if (failure instanceof IOException ex) {
			throw ex;
		}
		if (failure instanceof CommandFailure ex) {
			throw ex;
		}
		if (failure instanceof RuntimeException ex) {
			throw ex;
		}
		if (failure instanceof Error error) {
			throw error;
		}
		throw new IllegalStateException(failure);
	}

}
