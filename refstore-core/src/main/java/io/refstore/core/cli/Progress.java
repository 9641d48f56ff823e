package io.refstore.core.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.migrate.MigrationProgress;

/**
 * git's progress display on standard error: {@code Title:  45% (450/1000)} rewritten in
 * place with a carriage return, or a bare count when the total is unknown; shown only
 * once the operation has run for a second (git's delayed progress), then again when the
 * percentage changes or a second has passed, and ended by {@code , done.} on the last
 * line. A line wider than the terminal ({@code COLUMNS}, else 80) puts the counters on a
 * line of their own, as git does.
 *
 * <p>
 * Hand-written after git's {@code progress.c}: the look of git's progress is what
 * operators' scripts and eyes expect, and no library draws it. Not thread-safe.
 */
final class Progress implements MigrationProgress {

	private static final long SECOND = 1_000_000_000L;

	private final OutputStream err;

	private final int columns;

	private final long delayTicks;

	private String title;

	private long total;

	private long lastValue;

	private int lastPercent;

	private long delay;

	private long nextTick;

	private String counters = "";

	private boolean split;

	/**
	 * @param err standard error
	 * @param columns the terminal's width
	 * @param delaySeconds how long an operation runs before its progress shows (git's
	 * {@code GIT_PROGRESS_DELAY}, 1 by default)
	 */
	Progress(OutputStream err, int columns, long delaySeconds) {
		this.err = err;
		this.columns = columns;
		this.delayTicks = delaySeconds;
	}

	/**
	 * The progress a command shows: on standard error when it is a terminal, unless
	 * {@code --no-progress} or {@code -q}; with {@code --progress} even when it is not.
	 * @param forced {@code --progress} ({@code TRUE}), {@code --no-progress}
	 * ({@code FALSE}) or neither ({@code null})
	 */
	static MigrationProgress of(CommandContext context, Boolean forced, boolean quiet) {
		boolean show = (forced != null) ? forced : !quiet && context.stderrIsTerminal();
		if (!show) {
			return MigrationProgress.NONE;
		}
		return new Progress(context.err(), number(context.env().get("COLUMNS"), 80),
				number(context.env().get("GIT_PROGRESS_DELAY"), 1));
	}

	private static int number(String value, int fallback) {
		try {
			return (value != null) ? Math.max(0, Integer.parseInt(value.trim())) : fallback;
		}
		catch (NumberFormatException ex) {
			return fallback;
		}
	}

	@Override
	public void start(String title, long total) {
		this.title = title;
		this.total = Math.max(total, 0);
		this.lastValue = -1;
		this.lastPercent = -1;
		this.delay = this.delayTicks;
		this.nextTick = System.nanoTime() + SECOND;
		this.counters = "";
		this.split = false;
	}

	@Override
	public void update(long done) {
		if (this.title == null) {
			return;
		}
		long now = System.nanoTime();
		boolean tick = now - this.nextTick >= 0;
		if (tick) {
			this.nextTick = now + SECOND;
		}
		display(done, tick, null);
	}

	@Override
	public void stop() {
		if (this.title != null && this.lastValue != -1) {
			// the last count may have passed an estimated total: the total is what was
			// done
			if (this.total > 0 && this.lastValue > this.total) {
				this.total = this.lastValue;
			}
			display(this.lastValue, true, ", done.\n");
		}
		this.title = null;
	}

	private void display(long n, boolean tick, String done) {
		if (this.delay > 0 && (!tick || --this.delay > 0)) {
			return;
		}
		this.lastValue = n;
		int lastLength = this.counters.length();
		boolean show = false;
		if (this.total > 0) {
			int percent = (int) Math.min(n * 100 / this.total, 100);
			if (percent != this.lastPercent || tick) {
				this.lastPercent = percent;
				this.counters = String.format("%3d%% (%d/%d)", percent, n, Math.max(n, this.total));
				show = true;
			}
		}
		else if (tick) {
			this.counters = Long.toString(n);
			show = true;
		}
		if (!show) {
			return;
		}
		String eol = (done != null) ? done : "\r";
		int clear = (this.counters.length() < lastLength) ? lastLength - this.counters.length() + 1 : 0;
		int lineLength = this.title.length() + this.counters.length() + 2;
		StringBuilder line = new StringBuilder();
		if (this.split) {
			line.append("  ").append(this.counters).append(" ".repeat(clear)).append(eol);
		}
		else if (done == null && this.columns < lineLength) {
			clear = (this.title.length() + 1 < this.columns) ? this.columns - this.title.length() - 1 : 0;
			line.append(this.title)
				.append(':')
				.append(" ".repeat(clear))
				.append("\n  ")
				.append(this.counters)
				.append(eol);
			this.split = true;
		}
		else {
			line.append(this.title).append(": ").append(this.counters).append(" ".repeat(clear)).append(eol);
		}
		try {
			this.err.write(line.toString().getBytes(StandardCharsets.UTF_8));
			this.err.flush();
		}
		catch (IOException ex) {
			// standard error is gone: nothing to show progress on
		}
	}

}
