package io.refstore.core.repo;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The store was opened before its repository switched to another store (a format
 * migration or rollback): nothing was written; open the repository again and retry.
 */
public final class StoreSwappedException extends IOException {

	private static final long serialVersionUID = 1L;

	public StoreSwappedException(Path commonDir) {
		super("the ref store of '" + commonDir + "' was swapped since it was opened (format migration or"
				+ " rollback); nothing was written, open the repository again");
	}

}
