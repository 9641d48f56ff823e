package io.refstore.core.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs one file-system operation per item on all processors: making and removing lock
 * files is kernel work (inode and directory-entry allocation) that one thread cannot
 * hurry, but two threads do in about three quarters of the time. Items are dealt out in
 * turn (thread {@code t} takes items {@code t}, {@code t + n}, ...), so the work still
 * proceeds roughly in the items' order, and every item gets its own outcome: the caller
 * reads them in order, as if they had been done one after another.
 *
 * <p>
 * A few items are done on the calling thread alone; threads come from a shared pool of
 * daemon threads.
 */
public final class ParallelIo {

	/**
	 * Fewer items than this are not worth a second thread (handing over costs tens of
	 * microseconds).
	 */
	static final int PARALLEL_FROM = 64;

	private static final int THREADS = Math.min(4, Runtime.getRuntime().availableProcessors());

	private static final ExecutorService POOL = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "refstore-io");
		thread.setDaemon(true);
		return thread;
	});

	private ParallelIo() {
	}

	/** An operation on one item. */
	@FunctionalInterface
	public interface Operation<T, R> {

		R apply(T item) throws IOException;

	}

	/** What an operation on one item returned, or the exception it threw. */
	public static final class Outcome<R> {

		private final R value;

		private final Exception failure;

		private Outcome(R value, Exception failure) {
			this.value = value;
			this.failure = failure;
		}

		/** The value, or the operation's exception thrown again. */
		public R get() throws IOException {
			if (this.failure instanceof IOException io) {
				throw io;
			}
			if (this.failure instanceof RuntimeException runtime) {
				throw runtime;
			}
			return this.value;
		}

		/** The exception the operation threw, or {@code null}. */
		public Exception failure() {
			return this.failure;
		}

	}

	/**
	 * Applies {@code operation} to every item, on several threads when there are many,
	 * and returns each item's outcome in the items' order. Returns when every operation
	 * has ended.
	 */
	public static <T, R> List<Outcome<R>> map(List<T> items, Operation<? super T, R> operation) {
		int threads = (items.size() >= PARALLEL_FROM) ? THREADS : 1;
		@SuppressWarnings("unchecked")
		Outcome<R>[] outcomes = new Outcome[items.size()];
		List<Future<?>> helpers = new ArrayList<>(threads - 1);
		for (int t = 1; t < threads; t++) {
			int first = t;
			helpers.add(POOL.submit(() -> run(items, operation, outcomes, first, threads)));
		}
		try {
			run(items, operation, outcomes, 0, threads);
		}
		catch (Error error) {
			// no helper may outlive the call
			helpers.forEach(ParallelIo::await);
			throw error;
		}
		helpers.forEach(ParallelIo::await);
		return List.of(outcomes);
	}

	private static <T, R> void run(List<T> items, Operation<? super T, R> operation, Outcome<R>[] outcomes, int first,
			int step) {
		for (int i = first; i < items.size(); i += step) {
			T item = items.get(i);
			outcomes[i] = attempt(() -> operation.apply(item));
		}
	}

	/** Work that returns a value. */
	@FunctionalInterface
	public interface Work<R> {

		R get() throws IOException;

	}

	/** Does {@code work} on this thread and keeps what it returned or threw. */
	public static <R> Outcome<R> attempt(Work<R> work) {
		try {
			return new Outcome<>(work.get(), null);
		}
		catch (IOException | RuntimeException ex) {
			return new Outcome<>(null, ex);
		}
	}

	/** A piece of file-system work. */
	@FunctionalInterface
	public interface Task {

		void run() throws IOException;

	}

	/**
	 * Runs {@code first} on another thread while {@code second} runs on this one, and
	 * returns when both have ended: with {@code first}'s exception if it threw, else
	 * {@code second}'s. On a single processor they run one after the other, and a failure
	 * of {@code first} stops there.
	 */
	public static void both(Task first, Task second) throws IOException {
		if (THREADS == 1) {
			first.run();
			second.run();
			return;
		}
		Future<Outcome<Void>> helper = POOL.submit(() -> attempt(() -> {
			first.run();
			return null;
		}));
		Outcome<Void> own;
		try {
			own = attempt(() -> {
				second.run();
				return null;
			});
		}
		catch (Error error) {
			// the helper must not outlive the call
			await(helper);
			throw error;
		}
		await(helper).get();
		own.get();
	}

	/** Waits for a helper's end, even when interrupted (its outcome must be known). */
	private static <T> T await(Future<T> helper) {
		try {
			return getUninterruptibly(helper);
		}
		catch (ExecutionException ex) {
			// a helper catches every exception; only an Error gets here
			Throwable cause = ex.getCause();
			if (cause instanceof Error error) {
				throw error;
			}
			throw new IllegalStateException(cause);
		}
	}

	/**
	 * Waits for {@code future}'s end even when this thread is interrupted (work under way
	 * on another thread cannot be taken back, and its outcome must be known), then passes
	 * the interrupt on.
	 * @return the future's value
	 * @throws ExecutionException what the work failed with
	 */
	public static <T> T getUninterruptibly(Future<T> future) throws ExecutionException {
		boolean interrupted = false;
		try {
			while (true) {
				try {
					return future.get();
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
