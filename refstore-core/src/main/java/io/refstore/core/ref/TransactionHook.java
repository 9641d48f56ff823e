package io.refstore.core.ref;

import java.io.IOException;
import java.util.List;

/**
 * git's {@code reference-transaction} hook, as a transaction runs it: with the state it
 * reaches ({@code preparing} before any lock, {@code prepared} with every lock taken,
 * {@code committed}, {@code aborted}) and one line per update on standard input,
 * {@code <old> SP <new> SP <ref-name>}. A non-zero exit in {@code preparing} or
 * {@code prepared} aborts the transaction; in the other states it is ignored.
 */
public interface TransactionHook {

	/** No hook: nothing runs. */
	TransactionHook NONE = new TransactionHook() {

		@Override
		public boolean present() {
			return false;
		}

		@Override
		public int run(String state, List<String> lines) {
			return 0;
		}

	};

	/**
	 * Whether a hook would run now (it exists and may be executed); asked before every
	 * state, so a hook installed or removed meanwhile counts, and the lines are made only
	 * when there is one.
	 */
	boolean present();

	/**
	 * Runs the hook.
	 * @param state {@code preparing}, {@code prepared}, {@code committed} or
	 * {@code aborted}
	 * @param lines its standard input, one line per update without the line feed
	 * @return its exit code
	 * @throws IOException if it cannot be started
	 */
	int run(String state, List<String> lines) throws IOException;

}
