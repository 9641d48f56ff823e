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
	 * A restore never merges the tables the stack had when it began until it ends, which
	 * compacts the whole stack once, as git's geometric policy picks (per-chunk
	 * compaction would merge the stack's largest tables again and again as the restore's
	 * tables grow past them); the tables its chunks add are compacted among themselves as
	 * they come, so they stay a handful, not one per chunk.
	 */
	@Test
	void aRestoreKeepsItsOwnTablesFewAndCompactsTheStackOnceWhenItEnds() throws IOException {
		Path manifest = this.tmp.resolve("delete.manifest");
		DeleteResult deleted = new RefDeleter(this.store).delete(selection(),
				DeleteOptions.to(manifest).withChunkSize(23));
		assertThat(deleted.chunks()).isGreaterThan(20);
		List<String> before = tables();
		List<List<String>> afterChunks = new ArrayList<>();
		try (RefStore restoring = RefStores.open(this.repository, ReflogPolicy.EXISTING_ONLY)) {
			RestoreResult restored = new RefRestorer(restoring).restore(manifest, new ChunkListener() {
				@Override
				public void afterCommit(int chunk, List<Ref> refs) throws IOException {
					afterChunks.add(tables());
				}
			});
			assertThat(restored.complete()).isTrue();
		}
		assertThat(afterChunks).hasSize(deleted.chunks());
		for (int i = 0; i < afterChunks.size(); i++) {
			List<String> listed = afterChunks.get(i);
			assertThat(listed.subList(0, before.size())).as("the tables before the restore, after chunk " + (i + 1))
				.isEqualTo(before);
			// chunks of about equal size compacted geometrically: as many tables as
			// the binary digits of the chunks so far, give or take one
			int bound = 2 + (32 - Integer.numberOfLeadingZeros(i + 1));
			assertThat(listed.size() - before.size()).as("the restore's tables after chunk " + (i + 1))
				.isBetween(1, bound);
		}
		assertThat(afterChunks.get(afterChunks.size() - 1).size() - before.size())
			.as("the restore's tables at the end, of " + deleted.chunks() + " chunks")
			.isLessThan(deleted.chunks() / 3);
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
