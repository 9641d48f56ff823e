package io.refstore.core.delete;

import java.io.IOException;

/**
 * A deletion plan that no longer covers the store: a ref its selection picks now is
 * missing from it, or holds another value than the plan has. Nothing was deleted by the
 * check or the chunk that found it; plan again.
 */
public class StalePlanException extends IOException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message names the plan or the ref that differs, the value now and the plan's
	 */
	public StalePlanException(String message) {
		super(message);
	}

}
