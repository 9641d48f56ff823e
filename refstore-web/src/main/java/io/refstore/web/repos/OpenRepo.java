package io.refstore.web.repos;

import java.io.Closeable;

import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;

/**
 * A repository opened for one request, with its ref store. Closing closes both. Not shared between threads.
 *
 * @param name the name the client used
 * @param repository the opened repository
 * @param store its ref store
 */
public record OpenRepo(String name, Repository repository, RefStore store) implements Closeable {

	@Override
	public void close() {
		try {
			this.store.close();
		}
		catch (java.io.IOException ex) {
			// a store that fails to close has nothing left to flush: reads and committed writes are done
		}
		finally {
			this.repository.close();
		}
	}

}
