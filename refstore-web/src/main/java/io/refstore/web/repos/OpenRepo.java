package io.refstore.web.repos;

import java.io.Closeable;

import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;

/**
 * A repository in use by one request, with its ref store (both may be shared with other
 * requests: see {@link RepoRegistry}). Close it when done; closing releases it, it does
 * not close the store under others.
 *
 * @param name the name the client used
 * @param repository the opened repository
 * @param store its ref store, thread-safe
 * @param release what closing does
 */
public record OpenRepo(String name, Repository repository, RefStore store, Runnable release) implements Closeable {

	@Override
	public void close() {
		this.release.run();
	}

}
