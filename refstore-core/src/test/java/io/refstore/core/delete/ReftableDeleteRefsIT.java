package io.refstore.core.delete;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogPolicy;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Mass deletion on the reftable backend, judged by a git that speaks reftable: with
 * auto-compaction off, each chunk adds exactly one table to {@code tables.list}.
 */
class ReftableDeleteRefsIT extends DeleteRefsContract {

	/**
	 * A restore's chunks each add their tables and none is merged until the restore ends,
	 * which compacts once, as git's geometric policy picks: its tables grow past the
	 * stack's largest ones, which per-chunk compaction would merge again and again.
	 */
	@Test
	void aRestoreCompactsTheStackOnceWhenItEnds() throws IOException {
		Path manifest = this.tmp.resolve("delete.manifest");
		DeleteResult deleted = new RefDeleter(this.store).delete(selection(),
				DeleteOptions.to(manifest).withChunkSize(97));
		assertThat(deleted.chunks()).isGreaterThan(5);
		int before = tables().size();
		List<Integer> depths = new ArrayList<>();
		try (RefStore restoring = RefStores.open(this.repository, ReflogPolicy.EXISTING_ONLY)) {
			RestoreResult restored = new RefRestorer(restoring).restore(manifest, new ChunkListener() {
				@Override
				public void afterCommit(int chunk, List<Ref> refs) throws IOException {
					depths.add(tables().size());
				}
			});
			assertThat(restored.complete()).isTrue();
		}
		assertThat(depths).hasSize(deleted.chunks());
		for (int i = 0; i < depths.size(); i++) {
			assertThat(depths.get(i)).as("tables after chunk " + (i + 1)).isGreaterThanOrEqualTo(before + i + 1);
		}
		assertThat(tables()).hasSizeLessThan(depths.get(depths.size() - 1));
		try (RefStore store = RefStores.open(this.repository)) {
			assertThat(store.statistics().maintenanceDue()).isFalse();
		}
		assertGitChecksPass();
	}

	private List<String> tables() throws IOException {
		return Files.readAllLines(this.repo.gitDir().resolve("reftable/tables.list"));
	}

	@Override
	TempRepo newRepo(Path dir) {
		return TempRepo.init(GitCli.reftable(), dir, "--ref-format=reftable");
	}

	@Override
	boolean packs() {
		return false;
	}

	@Override
	void assertGitChecksPass() {
		this.repo.git("fsck", "--no-progress");
		assertThat(this.repo.git("refs", "verify", "--strict")).isEmpty();
	}

	@Override
	void startCountingWrites() throws IOException {
		this.repo.git("config", "reftable.autoCompaction", "false");
		open();
	}

	@Override
	void stopCountingWrites() throws IOException {
		this.repo.git("config", "reftable.autoCompaction", "true");
		open();
	}

	@Override
	Object writeState() throws IOException {
		return Files.readAllLines(this.repo.gitDir().resolve("reftable/tables.list"));
	}

	@Override
	@SuppressWarnings("unchecked")
	void assertOneWrite(List<Ref> chunk, Object before, Object after) {
		List<String> old = (List<String>) before;
		assertThat((List<String>) after).hasSize(old.size() + 1).startsWith(old.toArray(String[]::new));
	}

}
