package io.refstore.core.reftable;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * Test tool: a repository opened by refstore as git would be run on it (isolated config,
 * a fixed committer and date), with its ref store. Closing closes both.
 */
final class OpenedStore implements Closeable {

	final Repository repository;

	final RefStore store;

	private OpenedStore(Repository repository, RefStore store) {
		this.repository = repository;
		this.store = store;
	}

	/**
	 * Opens the repository at {@code dir}.
	 * @param committerDate the {@code GIT_COMMITTER_DATE} of every reflog entry, such as
	 * {@code @1700000000 +0530}
	 */
	static OpenedStore open(Path dir, String committerDate) throws IOException {
		Repository repository = Repository.open(dir,
				Map.of("GIT_CONFIG_NOSYSTEM", "1", "GIT_CONFIG_GLOBAL", "/dev/null", "GIT_COMMITTER_NAME", "C O Mitter",
						"GIT_COMMITTER_EMAIL", "committer@example.com", "GIT_COMMITTER_DATE", committerDate));
		try {
			return new OpenedStore(repository, RefStores.open(repository));
		}
		catch (IOException | RuntimeException ex) {
			repository.close();
			throw ex;
		}
	}

	ObjectId id(String hex) {
		return ObjectId.fromHex(this.store.hashAlgorithm(), hex);
	}

	/**
	 * Applies the updates as one transaction with {@code message}; fails the test unless
	 * it commits.
	 */
	TransactionResult apply(String message, RefUpdate... updates) throws IOException {
		try (RefTransaction transaction = this.store.newTransaction()) {
			transaction.message(message);
			for (RefUpdate update : updates) {
				transaction.add(update);
			}
			TransactionResult result = transaction.commit();
			if (!result.committed()) {
				throw new AssertionError("transaction '" + message + "' was rejected: " + result.firstRejection());
			}
			return result;
		}
	}

	ReftableStack stack() {
		return ((ReftableRefStore) this.store).stack();
	}

	@Override
	public void close() throws IOException {
		try {
			this.store.close();
		}
		finally {
			this.repository.close();
		}
	}

}
