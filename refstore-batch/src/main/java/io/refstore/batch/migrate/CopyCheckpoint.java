package io.refstore.batch.migrate;

import org.springframework.batch.infrastructure.item.ExecutionContext;

import io.refstore.core.migrate.CopyProgress;

/**
 * The checkpoint of {@code copyRefsStep} in its step context: written after every chunk
 * in the chunk's transaction, read back when the step restarts.
 */
final class CopyCheckpoint {

	static final String LAST_NAME = "copy.lastName";

	static final String SEGMENTS = "copy.segments";

	static final String REFS = "copy.refs";

	static final String DONE = "copy.done";

	/**
	 * How many refs had been copied when this step execution began (0 for a first run).
	 */
	static final String RESUMED_FROM = "copy.resumedFrom";

	private CopyCheckpoint() {
	}

	static CopyProgress read(ExecutionContext context) {
		if (!context.containsKey(SEGMENTS)) {
			return CopyProgress.START;
		}
		return new CopyProgress(context.getString(LAST_NAME), context.getInt(SEGMENTS), context.getLong(REFS),
				Boolean.parseBoolean(context.getString(DONE, "false")));
	}

	static void write(ExecutionContext context, CopyProgress progress) {
		context.putString(LAST_NAME, progress.lastName());
		context.putInt(SEGMENTS, progress.segments());
		context.putLong(REFS, progress.refs());
		context.putString(DONE, Boolean.toString(progress.done()));
	}

}
