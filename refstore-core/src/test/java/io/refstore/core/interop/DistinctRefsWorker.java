package io.refstore.core.interop;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntSupplier;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * One worker of {@link ConcurrentUpdateIT}'s distinct-refs test: it alone writes its refs
 * ({@code refs/heads/<worker>/r0..r4}), so it always knows their values and uses them as
 * old values; a refused transaction can then only mean a lock held by someone else, and
 * is retried. After each refusal git reads the ref: a value the worker did not write (a
 * resurrected packed value, a lost update) is a violation. Runs on one thread;
 * {@link #done()} may be read from another.
 */
final class DistinctRefsWorker {

	static final int REFS = 5;

	private static final int OPERATIONS = 40;

	private static final int MAX_TRIES = 60;

	private final TempRepo repo;

	private final String name;

	private final UpdateRefProcess session;

	private final List<String> values;

	private final IntSupplier churnRounds;

	private final Random random;

	private final Map<String, String> expected = new LinkedHashMap<>();

	/**
	 * Whether it deletes (and re-creates) its refs, or only updates them. git's sessions
	 * only update: a long-running {@code git update-ref --stdin} that deletes rewrites
	 * {@code packed-refs} from the snapshot it cached, which it checks by the file's
	 * identity, size and times; ext4 gives a replaced file's inode number to the next new
	 * file, so a rewrite of the same size within the same second passes for the cached
	 * one, and git drops refs packed meanwhile. With four git workers and git alone
	 * packing and deleting, this test lost a ref in 3 of 12 runs with git 2.39 and 2 of
	 * 12 with git 2.55, and in none of 12 once git's sessions only updated; refstore
	 * reads {@code packed-refs} afresh under its lock, so its workers delete.
	 */
	private final boolean deletes;

	private final List<String> violations = Collections.synchronizedList(new ArrayList<>());

	private volatile boolean done;

	private int operations;

	private int refused;

	DistinctRefsWorker(TempRepo repo, String name, UpdateRefProcess session, List<String> values,
			IntSupplier churnRounds, long seed, boolean deletes) {
		this.deletes = deletes;
		this.repo = repo;
		this.name = name;
		this.session = session;
		this.values = values;
		this.churnRounds = churnRounds;
		this.random = new Random(seed);
		for (int j = 0; j < REFS; j++) {
			this.expected.put(refName(name, j), values.get(0));
		}
	}

	static String refName(String worker, int j) {
		return "refs/heads/" + worker + "/r" + j;
	}

	/**
	 * Updates its refs (and deletes and re-creates them, if it {@link #deletes}) until it
	 * did enough and packed-refs was rewritten a few times.
	 */
	void run() {
		try {
			while (this.operations < OPERATIONS || this.churnRounds.getAsInt() < 4) {
				String ref = refName(this.name, this.random.nextInt(REFS));
				String current = this.expected.get(ref);
				String next = this.values.get(1 + this.random.nextInt(this.values.size() - 1));
				if (next.equals(current)) {
					continue;
				}
				boolean delete = this.deletes && current != null && this.random.nextInt(4) == 0;
				String command = (current == null) ? "create " + ref + " " + next
						: delete ? "delete " + ref + " " + current : "update " + ref + " " + next + " " + current;
				apply(ref, current, command + "\n");
				this.expected.put(ref, delete ? null : next);
				this.operations++;
			}
		}
		finally {
			this.done = true;
		}
	}

	private void apply(String ref, String current, String command) {
		for (int tries = 1; !this.session.transact(command); tries++) {
			this.refused++;
			String actual = GitCli.system().run(this.repo.dir(), "rev-parse", "--verify", "-q", ref).stdout().trim();
			if (!actual.equals((current == null) ? "" : current)) {
				this.violations.add(ref + " read as '" + actual + "' where " + this.name + " last wrote '" + current
						+ "' (refusal: " + this.session.lastError() + ")");
			}
			if (tries == MAX_TRIES) {
				this.violations.add(command.trim() + " refused " + tries + " times, last: " + this.session.lastError());
				return;
			}
			sleep(1 + this.random.nextInt(20));
		}
	}

	private static void sleep(int millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	boolean done() {
		return this.done;
	}

	List<String> violations() {
		return List.copyOf(this.violations);
	}

	/** The value of each of its refs, null for a deleted one. */
	Map<String, String> expected() {
		return Collections.unmodifiableMap(this.expected);
	}

	@Override
	public String toString() {
		return this.name + " (" + this.operations + " operations, " + this.refused + " refused, "
				+ this.session.starts() + " processes)";
	}

}
