package io.refstore.core.cli;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

import io.refstore.core.io.ParallelIo;

/**
 * Waiting for work a command handed to a second thread, and failing, on the command's
 * thread, with what that work failed with (an {@link IOException}, a
 * {@link CommandFailure}, or an unchecked exception or error), as if this thread had done
 * it.
 */
final class OtherThread {

	private OtherThread() {
	}

	/**
	 * Waits for the work's end, even when this thread is interrupted (its outcome must be
	 * known), and gives its result or throws its failure.
	 */
	static <T> T join(Future<T> work) throws IOException, CommandFailure {
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
	static IllegalStateException rethrow(Throwable failure) throws IOException, CommandFailure {
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
