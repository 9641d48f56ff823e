package io.refstore.core.cli.format;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.StoredObject;
import io.refstore.core.objects.ObjectText;
import io.refstore.core.objects.ObjectText.Ident;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * Which of several candidate commits a commit's branch most likely started from, for
 * {@code %(is-base:<committish>)}: the candidate whose first-parent history meets the
 * tip's first-parent history soonest, the earliest listed candidate winning a tie. The
 * walk follows first parents only, newest generation first (corrected commit dates, as
 * git orders it), from the tip and every candidate at once; the first commit where a
 * candidate's walk joins the tip's decides. Reads commits from the object database. Not
 * thread-safe.
 */
final class BranchBase {

	private record Commit(ObjectId firstParent, long date, List<ObjectId> parents) {
	}

	private record Queued(ObjectId id, long generation, long date, long order) {
	}

	private final ObjectDatabase objects;

	private final HashAlgorithm hash;

	private final Map<ObjectId, Commit> commits = new HashMap<>();

	private final Map<ObjectId, Long> generations = new HashMap<>();

	BranchBase(ObjectDatabase objects, HashAlgorithm hash) {
		this.objects = objects;
		this.hash = hash;
	}

	/**
	 * @param tip the commit whose base is asked for
	 * @param bases the candidates in list order; {@code null} entries are not commits
	 * @return the chosen candidate's index, or -1 for none
	 */
	int baseFor(ObjectId tip, List<ObjectId> bases) throws IOException {
		// per commit: -1 reached from the tip, i + 1 from candidate i (the least i), none
		// unseen
		Map<ObjectId, Integer> best = new HashMap<>();
		PriorityQueue<Queued> queue = new PriorityQueue<>(
				(a, b) -> (a.generation != b.generation) ? Long.compare(b.generation, a.generation)
						: (a.date != b.date) ? Long.compare(b.date, a.date) : Long.compare(a.order, b.order));
		long[] order = { 0 };
		best.put(tip, -1);
		queue.add(queued(tip, order));
		for (int i = 0; i < bases.size(); i++) {
			ObjectId base = bases.get(i);
			if (base == null) {
				continue;
			}
			Integer known = best.get(base);
			if (known != null) {
				if (known == -1) {
					// the tip itself is listed: nothing can be closer
					return i;
				}
				continue;
			}
			best.put(base, i + 1);
			queue.add(queued(base, order));
		}
		int bestIndex = -1;
		ObjectId branchPoint = null;
		while (!queue.isEmpty()) {
			ObjectId c = queue.poll().id;
			if (c.equals(branchPoint)) {
				break;
			}
			ObjectId parent = commit(c).firstParent;
			if (parent == null || commit(parent) == null) {
				continue;
			}
			int bestForC = best.get(c);
			Integer bestForP = best.get(parent);
			if (bestForP == null) {
				best.put(parent, bestForC);
				queue.add(queued(parent, order));
				continue;
			}
			if (bestForP > 0 && bestForC > 0) {
				if (bestForC < bestForP) {
					best.put(parent, bestForC);
				}
				continue;
			}
			// the parent is reachable from the tip: one side is the tip's, the other a
			// candidate's
			int positive = (bestForC < 0) ? bestForP : bestForC;
			if (positive > 0 && (bestIndex < 0 || positive < bestIndex)) {
				bestIndex = positive;
			}
			best.put(parent, -1);
			branchPoint = parent;
		}
		return (bestIndex > 0) ? bestIndex - 1 : -1;
	}

	private Queued queued(ObjectId id, long[] order) throws IOException {
		Commit commit = commit(id);
		return new Queued(id, generation(id), (commit != null) ? commit.date : 0, order[0]++);
	}

	private Commit commit(ObjectId id) throws IOException {
		Commit known = this.commits.get(id);
		if (known != null || this.commits.containsKey(id)) {
			return known;
		}
		StoredObject object = this.objects.read(id);
		Commit commit = null;
		if (object != null && object.type() == ObjectDatabase.ObjectType.COMMIT) {
			ObjectText text = ObjectText.parse(object.content());
			List<ObjectId> parents = new ArrayList<>();
			for (String parent : text.headers("parent")) {
				parents.add(ObjectId.fromHex(this.hash, parent.strip()));
			}
			String committer = text.header("committer");
			Ident ident = (committer != null) ? Ident.parse(committer) : null;
			commit = new Commit(parents.isEmpty() ? null : parents.get(0), (ident != null) ? ident.seconds() : 0,
					parents);
		}
		this.commits.put(id, commit);
		return commit;
	}

	/**
	 * The corrected commit date: the commit's date, raised to one more than any parent's
	 * where a parent's is later. Worked out without recursion, histories being deep.
	 */
	private long generation(ObjectId id) throws IOException {
		Long known = this.generations.get(id);
		if (known != null) {
			return known;
		}
		Deque<ObjectId> stack = new ArrayDeque<>();
		stack.push(id);
		while (!stack.isEmpty()) {
			ObjectId top = stack.peek();
			if (this.generations.containsKey(top)) {
				stack.pop();
				continue;
			}
			Commit commit = commit(top);
			if (commit == null) {
				this.generations.put(top, 0L);
				stack.pop();
				continue;
			}
			boolean ready = true;
			long generation = commit.date;
			for (ObjectId parent : commit.parents) {
				Long parentGeneration = this.generations.get(parent);
				if (parentGeneration == null) {
					stack.push(parent);
					ready = false;
				}
				else {
					generation = Math.max(generation, parentGeneration + 1);
				}
			}
			if (ready) {
				this.generations.put(top, generation);
				stack.pop();
			}
		}
		return this.generations.get(id);
	}

}
