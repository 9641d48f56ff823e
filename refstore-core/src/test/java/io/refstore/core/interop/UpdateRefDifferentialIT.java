package io.refstore.core.interop;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.testing.TempRepo;

/**
 * The differential test of {@code update-ref --stdin}: seeded random transactions
 * (creates, updates with and without old values, deletes, verifies,
 * {@code option no-deref}, updates through {@code HEAD} and other symbolic refs,
 * {@code start}/{@code prepare}/{@code commit}/{@code abort}, and transactions that must
 * fail), interleaved with {@code symbolic-ref} and {@code pack-refs}, applied by git to
 * twin A and by refstore to twin B. After every step both answer the same bytes and both
 * twins hold the same ref files byte for byte; readers (git's and refstore's) of both
 * twins are compared every few steps and at the end, with all reflogs and
 * {@code git fsck}.
 *
 * <p>
 * System properties: {@code refstore.difftest.transactions} (at least this many in the
 * main run), and those of {@link DifferentialTest}: {@code refstore.seed},
 * {@code refstore.difftest.twinB}, {@code refstore.difftest.symrefMessages},
 * {@code refstore.difftest.stopAtFirst}.
 */
class UpdateRefDifferentialIT {

	private static final long DEFAULT_SEED = 20240611L;

	private final StoreFormat format = StoreFormat.files();

	@Test
	void refstoreWritesWhatGitWritesInARepositoryWithAWorkingTree(@TempDir Path dir) {
		TempRepo a = TempRepo.init(this.format.git(), dir.resolve("a"));
		TempRepo b = TempRepo.init(this.format.git(), dir.resolve("b"));
		run(a, b, Integer.getInteger("refstore.difftest.transactions", 2000), 1);
	}

	@Test
	void refstoreWritesWhatGitWritesInABareRepositoryLoggingEveryRef(@TempDir Path dir) {
		TempRepo a = TempRepo.init(this.format.git(), dir.resolve("a.git"), "--bare");
		TempRepo b = TempRepo.init(this.format.git(), dir.resolve("b.git"), "--bare");
		run(a, b, Integer.getInteger("refstore.difftest.transactions", 2000) / 4, 2);
	}

	private void run(TempRepo a, TempRepo b, int transactions, long seedOffset) {
		new DifferentialTest("UpdateRefDifferentialIT", this.format, DEFAULT_SEED).run(a, b, transactions, seedOffset);
	}

}
