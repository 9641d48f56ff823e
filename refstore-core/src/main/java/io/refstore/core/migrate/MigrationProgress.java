package io.refstore.core.migrate;

/**
 * Hears how far a long operation has come, phase by phase, for a progress display (such
 * as the {@code refstore} command's on a terminal). Called on the thread doing the work,
 * often: an implementation must be cheap.
 */
public interface MigrationProgress {

	/** Hears nothing. */
	MigrationProgress NONE = new MigrationProgress() {

		@Override
		public void start(String title, long total) {
		}

		@Override
		public void update(long done) {
		}

		@Override
		public void stop() {
		}

	};

	/**
	 * A phase begins.
	 * @param title what it does, as git titles its progress ({@code Copying refs})
	 * @param total how many units it will do, 0 if unknown (an estimate may be off:
	 * {@link #update} may pass it)
	 */
	void start(String title, long total);

	/** {@code done} units of the phase are done so far. */
	void update(long done);

	/** The phase ended. */
	void stop();

}
