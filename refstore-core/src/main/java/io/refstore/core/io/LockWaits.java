package io.refstore.core.io;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where this process hears how long its writers waited for locks: for git's lock files
 * ({@link LockFile}) and for a repository's store gate (a writer let in, a swap or a bulk
 * run's chunk closing it, a bulk run announcing itself). Every wait is reported, those
 * that found the lock free at once too, with whether the lock was had in the end. The
 * application turns the reports into metrics; without a listener nothing is measured.
 * Thread-safe; a listener is called on the waiting thread and must be quick.
 */
public final class LockWaits {

	/** What was waited for. */
	public enum Kind {

		/** A lock file of git's ({@code <name>.lock}). */
		LOCK_FILE,
		/** A writer waiting for a swap or a bulk run's chunk to let it into the store. */
		GATE_WRITER,
		/** A swap waiting for the writers inside to leave. */
		GATE_SWAP,
		/** A bulk run's chunk waiting for the writers inside to leave. */
		GATE_CHUNK,
		/** A bulk run waiting for a swap or another run to end. */
		GATE_RUN

	}

	/** Hears each wait. */
	@FunctionalInterface
	public interface Listener {

		/**
		 * @param kind what was waited for
		 * @param nanos how long
		 * @param had whether the lock was had in the end (false: timed out or refused)
		 */
		void waited(Kind kind, long nanos, boolean had);

	}

	/** What takes the lock: the wait's work. */
	@FunctionalInterface
	public interface Taking<T> {

		T take() throws IOException;

	}

	private static final List<Listener> listeners = new CopyOnWriteArrayList<>();

	private LockWaits() {
	}

	/**
	 * Makes {@code listener} hear every wait of this process from now on, besides the
	 * listeners before (an application context each, in a test's JVM).
	 */
	public static void listen(Listener listener) {
		listeners.add(Objects.requireNonNull(listener, "listener"));
	}

	/** Stops the reports to {@code listener}. */
	public static void stopListening(Listener listener) {
		listeners.remove(listener);
	}

	/** Runs {@code taking} and reports how long it took, as a wait for {@code kind}. */
	public static <T> T timed(Kind kind, Taking<T> taking) throws IOException {
		if (listeners.isEmpty()) {
			return taking.take();
		}
		long start = System.nanoTime();
		boolean had = false;
		try {
			T taken = taking.take();
			had = true;
			return taken;
		}
		finally {
			long nanos = System.nanoTime() - start;
			for (Listener listener : listeners) {
				listener.waited(kind, nanos, had);
			}
		}
	}

}
