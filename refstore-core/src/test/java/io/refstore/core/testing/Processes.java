package io.refstore.core.testing;

import java.util.concurrent.TimeUnit;

/** Waiting for the processes a test starts, killing one that hangs. */
public final class Processes {

	private Processes() {
	}

	/**
	 * Waits up to two minutes for {@code process} to end.
	 * @param what the command, for the error
	 * @return its exit code
	 * @throws IllegalStateException if it did not end in time (it is killed then)
	 */
	public static int waitFor(Process process, String what) {
		try {
			if (!process.waitFor(2, TimeUnit.MINUTES)) {
				process.destroyForcibly();
				throw new IllegalStateException(what + " did not finish in 2 minutes");
			}
			return process.exitValue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
