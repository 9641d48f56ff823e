package io.refstore.core.delete;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.refstore.core.ref.Ref;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Mass deletion on the reftable backend, judged by a git that speaks reftable: with
 * auto-compaction off, each chunk adds exactly one table to {@code tables.list}.
 */
class ReftableDeleteRefsIT extends DeleteRefsContract {

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
