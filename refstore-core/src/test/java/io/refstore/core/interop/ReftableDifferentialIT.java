package io.refstore.core.interop;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.testing.TempRepo;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The differential test of {@link UpdateRefDifferentialIT} on reftable repositories,
 * judged by the reftable-capable git
 * ({@link io.refstore.core.testing.GitCli#reftable()}): the same seeded random
 * {@code update-ref --stdin} sessions, single {@code update-ref} and {@code symbolic-ref}
 * commands and {@code pack-refs}, applied by git to twin A and by refstore to twin B,
 * both with their automatic compaction after every write.
 *
 * <p>
 * The tables are not compared byte for byte (update indices, compaction timing and table
 * names legitimately differ). After every step: both answer the same exit code and
 * standard output, the model's prediction holds for git, git reads the same refs from
 * both twins, refstore reads the same refs and reflog entries from both (every field), a
 * failed command added no table to twin B, and each stack directory holds only its listed
 * tables. Every few steps and at the end git and refstore read both twins
 * ({@code show-ref}, {@code for-each-ref}; git also {@code --include-root-refs} and
 * {@code reflog list}); at the end every reflog as git shows it, {@code git fsck}, and
 * {@code refs verify} by git and by refstore. The run must see both twins compact
 * automatically and by {@code pack-refs}.
 *
 * <p>
 * System properties: {@code refstore.difftest.reftableTransactions} (at least this many,
 * 1,000 by default, in the main run), and those of {@link DifferentialTest}.
 */
class ReftableDifferentialIT {

	private static final long DEFAULT_SEED = 20250301L;

	private final StoreFormat format = StoreFormat.reftable();

	@Test
	void refstoreWritesWhatGitReadsInAReftableRepositoryWithAWorkingTree(@TempDir Path dir) {
		TempRepo a = TempRepo.init(this.format.git(), dir.resolve("a"), "--ref-format=reftable");
		TempRepo b = TempRepo.init(this.format.git(), dir.resolve("b"), "--ref-format=reftable");
		run(a, b, Integer.getInteger("refstore.difftest.reftableTransactions", 1000), 1);
	}

	/**
	 * With small blocks: tables of many blocks with index blocks, and messages cut at 512
	 * bytes.
	 */
	@Test
	void refstoreWritesWhatGitReadsInABareReftableRepositoryWithSmallBlocksLoggingEveryRef(@TempDir Path dir) {
		TempRepo a = TempRepo.init(this.format.git(), dir.resolve("a.git"), "--bare", "--ref-format=reftable");
		TempRepo b = TempRepo.init(this.format.git(), dir.resolve("b.git"), "--bare", "--ref-format=reftable");
		for (TempRepo twin : List.of(a, b)) {
			twin.git("config", "reftable.blockSize", "1024");
		}
		run(a, b, Integer.getInteger("refstore.difftest.reftableTransactions", 2000) / 4, 2);
	}

	private void run(TempRepo a, TempRepo b, int transactions, long seedOffset) {
		DifferentialRun.Counts counts = new DifferentialTest("ReftableDifferentialIT", this.format, DEFAULT_SEED).run(a,
				b, transactions, seedOffset);
		assertThat(counts.autoCompactedA).as("automatic compactions by git").isPositive();
		assertThat(counts.autoCompactedB).as("automatic compactions on twin B").isPositive();
		assertThat(counts.packedA).as("compactions by git pack-refs").isPositive();
		assertThat(counts.packedB).as("compactions by pack-refs on twin B").isPositive();
		assertThat(counts.verifications).as("refs verify runs").isPositive();
	}

}
