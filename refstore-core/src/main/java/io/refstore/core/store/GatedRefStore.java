package io.refstore.core.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.StoreStatistics;
import io.refstore.core.ref.TransactionHook;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.ref.UpdateBatch;
import io.refstore.core.ref.Verification;
import io.refstore.core.repo.StoreGate;

/**
 * A repository's live store whose writes pass its {@link StoreGate}: a transaction from
 * its prepare (where it takes its locks) to its end, a reflog append and a pack while
 * they run. Reads are not gated: a store reads consistently on its own, and a swap leaves
 * the old store readable in its backup. Everything else is the backend's.
 */
final class GatedRefStore implements RefStore {

	private final RefStore store;

	private final StoreGate gate;

	private final long generation;

	private final TransactionHook hook;

	GatedRefStore(RefStore store, StoreGate gate, long generation, TransactionHook hook) {
		this.store = store;
		this.gate = gate;
		this.generation = generation;
		this.hook = hook;
	}

	private StoreGate.Pass enter() throws IOException {
		return this.gate.enter(this.generation, StoreGate.WRITER_WAIT);
	}

	@Override
	public RefTransaction newTransaction() {
		return new GatedTransaction(this.store.newTransaction().hook(this.hook));
	}

	@Override
	public void appendReflog(String name, ReflogEntry entry) throws IOException {
		try (StoreGate.Pass pass = enter()) {
			this.store.appendReflog(name, entry);
		}
	}

	@Override
	public void appendReflogs(Map<String, List<ReflogEntry>> logs, boolean force) throws IOException {
		try (StoreGate.Pass pass = enter()) {
			this.store.appendReflogs(logs, force);
		}
	}

	@Override
	public void packRefs(PackOptions options) throws IOException {
		try (StoreGate.Pass pass = enter()) {
			this.store.packRefs(options);
		}
	}

	@Override
	public RefFormat format() {
		return this.store.format();
	}

	@Override
	public HashAlgorithm hashAlgorithm() {
		return this.store.hashAlgorithm();
	}

	@Override
	public Optional<Ref> exactRef(String name) throws IOException {
		return this.store.exactRef(name);
	}

	@Override
	public Map<String, Ref> exactRefs(Collection<String> names) throws IOException {
		return this.store.exactRefs(names);
	}

	@Override
	public RefCursor refs(RefQuery query) throws IOException {
		return this.store.refs(query);
	}

	@Override
	public List<ReflogEntry> reflog(String name) throws IOException {
		return this.store.reflog(name);
	}

	@Override
	public List<String> reflogNames() throws IOException {
		return this.store.reflogNames();
	}

	@Override
	public void forEachReflog(ReflogVisitor visitor) throws IOException {
		this.store.forEachReflog(visitor);
	}

	@Override
	public void forEachReflog(List<String> names, ReflogVisitor visitor) throws IOException {
		this.store.forEachReflog(names, visitor);
	}

	@Override
	public boolean hasReflog(String name) throws IOException {
		return this.store.hasReflog(name);
	}

	@Override
	public Set<String> withReflogs(Collection<String> names) throws IOException {
		return this.store.withReflogs(names);
	}

	@Override
	public Bulk bulk() throws IOException {
		return this.store.bulk();
	}

	@Override
	public Hold exclusive() throws IOException {
		StoreGate.Pass closed = this.gate.closeForChunk(StoreGate.WRITER_WAIT);
		return closed::close;
	}

	@Override
	public Closeable lockStore(Duration timeout, Path ownerFile) throws IOException {
		return this.store.lockStore(timeout, ownerFile);
	}

	@Override
	public int breakLocks(String owner) throws IOException {
		return this.store.breakLocks(owner);
	}

	@Override
	public void verify(Verification verification) throws IOException {
		this.store.verify(verification);
	}

	@Override
	public StoreStatistics statistics() throws IOException {
		return this.store.statistics();
	}

	@Override
	public String fingerprint() throws IOException {
		return this.store.fingerprint();
	}

	@Override
	public void close() throws IOException {
		this.store.close();
	}

	/** A transaction that holds a pass from its prepare to its end. */
	private final class GatedTransaction implements RefTransaction {

		private final RefTransaction transaction;

		private StoreGate.Pass pass;

		GatedTransaction(RefTransaction transaction) {
			this.transaction = transaction;
		}

		@Override
		public RefTransaction add(RefUpdate update) {
			this.transaction.add(update);
			return this;
		}

		@Override
		public RefTransaction addAll(UpdateBatch batch) {
			this.transaction.addAll(batch);
			return this;
		}

		@Override
		public RefTransaction committer(PersonIdent committer) {
			this.transaction.committer(committer);
			return this;
		}

		@Override
		public RefTransaction createReflogs() {
			this.transaction.createReflogs();
			return this;
		}

		@Override
		public RefTransaction message(String message) {
			this.transaction.message(message);
			return this;
		}

		@Override
		public RefTransaction hook(TransactionHook hook) {
			this.transaction.hook(hook);
			return this;
		}

		@Override
		public RefTransaction forceSync() {
			this.transaction.forceSync();
			return this;
		}

		@Override
		public TransactionResult prepare() throws IOException {
			this.pass = enter();
			try {
				TransactionResult result = this.transaction.prepare();
				if (result.firstRejection().isPresent()) {
					leave();
				}
				return result;
			}
			catch (IOException | RuntimeException ex) {
				leave();
				throw ex;
			}
		}

		@Override
		public TransactionResult commit() throws IOException {
			if (this.pass == null) {
				this.pass = enter();
			}
			try {
				return this.transaction.commit();
			}
			finally {
				leave();
			}
		}

		@Override
		public void abort() {
			try {
				this.transaction.abort();
			}
			finally {
				leave();
			}
		}

		@Override
		public void close() {
			try {
				this.transaction.close();
			}
			finally {
				leave();
			}
		}

		private void leave() {
			if (this.pass != null) {
				this.pass.close();
				this.pass = null;
			}
		}

	}

}
