package io.refstore.core.interop;

import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Keeps {@code packed-refs} changing while {@link ConcurrentUpdateIT}'s workers run: each
 * round creates two junk refs, packs everything with {@code pack-refs --all} (git and
 * refstore in turn), then deletes one of the now packed junk refs with the other program,
 * which rewrites {@code packed-refs} once more. Refusals for lock contention are expected
 * and counted. Runs on one thread; its counters may be read from others.
 */
final class PackedRefsChurn {

	private final TempRepo repo;

	private final GitCli git = GitCli.system();

	private final GitCli refstore;

	private final String value;

	private volatile int rounds;

	private volatile int rewrites;

	private volatile int refusals;

	PackedRefsChurn(TempRepo repo, GitCli refstore, String value) {
		this.repo = repo;
		this.refstore = refstore;
		this.value = value;
	}

	/** Runs rounds until {@code stop} says so (checked between rounds). */
	void runUntil(BooleanSupplier stop) {
		while (!stop.getAsBoolean()) {
			int round = this.rounds;
			GitCli packer = (round % 2 == 0) ? this.git : this.refstore;
			GitCli deleter = (round % 2 == 0) ? this.refstore : this.git;
			String junk = "refs/junk/r" + round + "/";
			String creates = "create " + junk + "a " + this.value + "\ncreate " + junk + "b " + this.value + "\n";
			this.repo.run(creates.getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
			boolean packed = count(packer.run(this.repo.dir(), "pack-refs", "--all"));
			if (packed) {
				count(deleter.run(this.repo.dir(), "update-ref", "-d", junk + "a", this.value));
			}
			this.rounds = round + 1;
		}
	}

	private boolean count(GitCli.Result result) {
		if (result.exitCode() == 0) {
			this.rewrites++;
			return true;
		}
		this.refusals++;
		return false;
	}

	int rounds() {
		return this.rounds;
	}

	int rewrites() {
		return this.rewrites;
	}

	@Override
	public String toString() {
		return this.rounds + " churn rounds, " + this.rewrites + " packed-refs rewrites, " + this.refusals
				+ " refused for locks";
	}

}
