package io.refstore.web.system;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.TaskScheduler;

/**
 * Background work done in passes on the application's {@link TaskScheduler} (the one
 * every periodic task of a node runs on): one every {@code every} (counted from the end
 * of the last), and one soon after each {@link #nudge()}; passes never overlap, and
 * nudges that come while one is waiting make a single pass. A pass that fails is logged
 * and the next one runs as planned. The coordinators that own one start and stop it with
 * themselves (they are {@link org.springframework.context.SmartLifecycle} beans).
 * Thread-safe.
 */
public final class Passes {

	private static final Logger log = LoggerFactory.getLogger(Passes.class);

	private final String name;

	private final Duration every;

	private final Runnable pass;

	private final TaskScheduler scheduler;

	/**
	 * Held through a pass: passes never overlap, and a stop waits for the one under way.
	 */
	private final ReentrantLock passing = new ReentrantLock();

	/** Whether a nudged pass is waiting to run. */
	private final AtomicBoolean nudged = new AtomicBoolean();

	private volatile ScheduledFuture<?> schedule;

	/**
	 * @param name the work's name in the log
	 * @param every the delay between passes
	 * @param pass one pass
	 * @param scheduler the application's task scheduler
	 */
	public Passes(String name, Duration every, Runnable pass, TaskScheduler scheduler) {
		this.name = name;
		this.every = every;
		this.pass = pass;
		this.scheduler = scheduler;
	}

	/** Starts the passes; the first comes after {@code every}, or at a nudge. */
	public synchronized void start() {
		if (this.schedule == null) {
			this.schedule = this.scheduler.scheduleWithFixedDelay(this::passSafely, Instant.now().plus(this.every),
					this.every);
		}
	}

	/** Stops the passes, waiting up to 30 s for one under way to end. */
	public synchronized void stop() {
		ScheduledFuture<?> running = this.schedule;
		this.schedule = null;
		if (running != null) {
			running.cancel(false);
			try {
				if (this.passing.tryLock(30, TimeUnit.SECONDS)) {
					this.passing.unlock();
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** Whether the passes are started. */
	public boolean isRunning() {
		return this.schedule != null;
	}

	/** Asks for a pass soon, off the caller's thread; does nothing while stopped. */
	public void nudge() {
		if (this.schedule != null && this.nudged.compareAndSet(false, true)) {
			try {
				this.scheduler.schedule(() -> {
					this.nudged.set(false);
					passSafely();
				}, Instant.now());
			}
			catch (RuntimeException ex) {
				// shutting down: the next start passes anyway
				this.nudged.set(false);
			}
		}
	}

	private void passSafely() {
		this.passing.lock();
		try {
			if (this.schedule != null) {
				this.pass.run();
			}
		}
		catch (RuntimeException ex) {
			log.warn("{}: a pass failed; the next one retries: {}", this.name, ex.getMessage(), ex);
		}
		finally {
			this.passing.unlock();
		}
	}

}
