package io.refstore.web.system;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Background work done in passes on a daemon thread of its own: one every {@code every}
 * (counted from the end of the last), and one soon after each {@link #nudge()}; passes
 * never overlap. A pass that fails is logged and the next one runs as planned. The
 * coordinators that own one start and stop it with themselves (they are
 * {@link org.springframework.context.SmartLifecycle} beans). Thread-safe.
 */
public final class Passes {

	private static final Logger log = LoggerFactory.getLogger(Passes.class);

	private final String name;

	private final Duration every;

	private final Runnable pass;

	private volatile ScheduledExecutorService executor;

	/**
	 * @param name the thread's name, and the work's in the log
	 * @param every the delay between passes
	 * @param pass one pass
	 */
	public Passes(String name, Duration every, Runnable pass) {
		this.name = name;
		this.every = every;
		this.pass = pass;
	}

	/** Starts the passes; the first comes after {@code every}, or at a nudge. */
	public synchronized void start() {
		this.executor = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, this.name);
			thread.setDaemon(true);
			return thread;
		});
		this.executor.scheduleWithFixedDelay(this::passSafely, this.every.toMillis(), this.every.toMillis(),
				TimeUnit.MILLISECONDS);
	}

	/** Stops the passes, waiting up to 30 s for one under way to end. */
	public synchronized void stop() {
		ScheduledExecutorService running = this.executor;
		this.executor = null;
		if (running != null) {
			running.shutdown();
			try {
				running.awaitTermination(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** Whether the passes are started. */
	public boolean isRunning() {
		return this.executor != null;
	}

	/** Asks for a pass soon, off the caller's thread; does nothing while stopped. */
	public void nudge() {
		ScheduledExecutorService running = this.executor;
		if (running != null) {
			try {
				running.execute(this::passSafely);
			}
			catch (RuntimeException ex) {
				// shutting down: the next start passes anyway
			}
		}
	}

	private void passSafely() {
		try {
			this.pass.run();
		}
		catch (RuntimeException ex) {
			log.warn("{}: a pass failed; the next one retries: {}", this.name, ex.getMessage(), ex);
		}
	}

}
