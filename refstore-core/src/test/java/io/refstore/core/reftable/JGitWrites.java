package io.refstore.core.reftable;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.jgit.lib.BatchRefUpdate;
import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.transport.ReceiveCommand;

/**
 * Test tool: writes refs into a reftable repository through JGit's own repository API, so
 * that JGit decides every byte of the tables (names, layout, compaction). Each step
 * checks JGit's result.
 */
final class JGitWrites {

	/** JGit's identity at {@code +05:30}, which JGit stores as 330 minutes. */
	static final PersonIdent INDIA = new PersonIdent("J G It", "jgit@example.com", Instant.ofEpochSecond(1700000000),
			ZoneOffset.ofHoursMinutes(5, 30));

	/** JGit's identity at {@code -08:00} (-480 minutes). */
	static final PersonIdent PACIFIC = new PersonIdent("J G It", "jgit@example.com", Instant.ofEpochSecond(1700000456),
			ZoneOffset.ofHours(-8));

	private final Repository jgit;

	JGitWrites(Repository jgit) {
		this.jgit = jgit;
	}

	/**
	 * Creates {@code refs/heads/main} and a batch of branches and tags, links a symbolic
	 * ref, deletes, renames and moves branches: one table per step, and JGit's
	 * auto-compaction between them.
	 */
	void history(List<String> commits, String annotatedTag) throws IOException {
		update("refs/heads/main", commits.get(0), ObjectId.zeroId(), INDIA, "first", RefUpdate.Result.NEW);
		List<ReceiveCommand> batch = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			batch.add(new ReceiveCommand(ObjectId.zeroId(), ObjectId.fromString(commits.get(i % commits.size())),
					"refs/heads/j/" + i));
		}
		batch.add(new ReceiveCommand(ObjectId.zeroId(), ObjectId.fromString(annotatedTag), "refs/tags/v1"));
		batch.add(new ReceiveCommand(ObjectId.zeroId(), ObjectId.fromString(commits.get(2)), "refs/tags/light"));
		batch(batch);
		link("refs/remotes/origin/HEAD", "refs/heads/main");
		delete("refs/heads/j/0");
		delete("refs/heads/j/5");
		RefUpdate.Result renamed = this.jgit.getRefDatabase()
			.newRename("refs/heads/j/1", "refs/heads/renamed")
			.rename();
		check("rename refs/heads/j/1", renamed, RefUpdate.Result.RENAMED);
		update("refs/heads/main", commits.get(1), ObjectId.fromString(commits.get(0)), PACIFIC, "forward",
				RefUpdate.Result.FAST_FORWARD);
	}

	void update(String name, String newId, ObjectId expectedOld, PersonIdent who, String message,
			RefUpdate.Result expected) throws IOException {
		RefUpdate update = this.jgit.updateRef(name);
		update.setNewObjectId(ObjectId.fromString(newId));
		update.setExpectedOldObjectId(expectedOld);
		update.setRefLogIdent(who);
		update.setRefLogMessage(message, false);
		check("update " + name, update.update(), expected);
	}

	void batch(List<ReceiveCommand> commands) throws IOException {
		BatchRefUpdate batch = this.jgit.getRefDatabase()
			.newBatchUpdate()
			.setAtomic(true)
			.setRefLogIdent(INDIA)
			.setRefLogMessage("batch", false)
			.addCommand(commands);
		try (RevWalk walk = new RevWalk(this.jgit)) {
			batch.execute(walk, NullProgressMonitor.INSTANCE);
		}
		for (ReceiveCommand command : commands) {
			if (command.getResult() != ReceiveCommand.Result.OK) {
				throw new AssertionError("JGit's batch left " + command.getRefName() + " " + command.getResult() + ": "
						+ command.getMessage());
			}
		}
	}

	void link(String name, String target) throws IOException {
		RefUpdate update = this.jgit.updateRef(name);
		update.setRefLogIdent(INDIA);
		update.setRefLogMessage("link", false);
		check("link " + name, update.link(target), RefUpdate.Result.NEW);
	}

	void delete(String name) throws IOException {
		RefUpdate update = this.jgit.updateRef(name);
		update.setForceUpdate(true);
		update.setRefLogIdent(INDIA);
		check("delete " + name, update.delete(), RefUpdate.Result.FORCED);
	}

	private static void check(String what, RefUpdate.Result actual, RefUpdate.Result expected) {
		if (actual != expected) {
			throw new AssertionError("JGit's " + what + " gave " + actual + ", expected " + expected);
		}
	}

}
