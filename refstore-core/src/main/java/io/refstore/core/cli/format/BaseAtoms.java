package io.refstore.core.cli.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.format.FormatTemplate.Rich;
import io.refstore.core.cli.format.RefObjectFilter.Entry;
import io.refstore.core.cli.revision.RevParse;
import io.refstore.core.graph.CommitWalk;
import io.refstore.core.graph.Divergence;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.objects.ObjectDatabase.StoredObject;
import io.refstore.core.objects.ObjectText;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * The atoms that compare every listed ref with one commit, and so are worked out for the
 * whole list before any line prints: {@code %(ahead-behind:<committish>)} (how many
 * commits each ref has that the commit lacks, and the reverse) and
 * {@code %(is-base:<committish>)} (which one ref the commit's branch most likely started
 * from). As in git they see the refs in the order they were found, before sorting. Not
 * thread-safe.
 */
public final class BaseAtoms {

	/** Each atom's value per ref name; a ref without one prints nothing. */
	private final Map<Rich, Map<String, String>> values = new HashMap<>();

	private BaseAtoms() {
	}

	/** Whether a format has atoms this class answers. */
	public static boolean any(List<FormatTemplate.Segment> segments) {
		return segments.stream().anyMatch(BaseAtoms::isBaseAtom);
	}

	private static boolean isBaseAtom(FormatTemplate.Segment segment) {
		return segment instanceof Rich r && (r.name().equals("ahead-behind") || r.name().equals("is-base"));
	}

	/**
	 * Works out the atoms' values for the refs to be listed.
	 * @param errors receives git's {@code error:} lines about objects that peel wrongly
	 * @throws CommandFailure if an atom's commit cannot be found
	 */
	public static BaseAtoms compute(List<FormatTemplate.Segment> segments, List<Entry> entries, CommandContext context,
			Consumer<String> errors) throws IOException, CommandFailure {
		BaseAtoms atoms = new BaseAtoms();
		RevParse revParse = new RevParse(context.refs(), context::objects);
		HashAlgorithm hash = context.refs().hashAlgorithm();
		ObjectDatabase objects = context.objects();
		CommitWalk walk = null;
		List<ObjectId> bases = null;
		for (FormatTemplate.Segment segment : segments) {
			if (!isBaseAtom(segment) || atoms.values.containsKey(segment)) {
				continue;
			}
			Rich atom = (Rich) segment;
			if (atom.arg() == null) {
				throw CommandFailure.fatal("expected format: %(" + atom.name() + ":<committish>)");
			}
			Optional<ObjectId> resolved = revParse.resolve(atom.arg());
			ObjectId commit = resolved.isPresent() ? objects.peel(resolved.get()) : null;
			if (commit == null && resolved.isPresent()) {
				commit = resolved.get();
			}
			if (commit == null || objects.type(commit) != ObjectType.COMMIT) {
				throw CommandFailure.fatal("failed to find '" + atom.arg() + "'");
			}
			Map<String, String> byRef = new HashMap<>();
			if (atom.name().equals("ahead-behind")) {
				walk = (walk != null) ? walk : RefObjectFilter.walk(context);
				int base = walk.commitOf(commit);
				int[] tips = new int[entries.size()];
				for (int i = 0; i < tips.length; i++) {
					tips[i] = walk.commitOf(entries.get(i).id(), 0);
				}
				Divergence divergence = new Divergence(walk, base);
				int[] counts = new int[2];
				for (int i = 0; i < tips.length; i++) {
					if (tips[i] >= 0) {
						divergence.aheadBehind(tips[i], counts);
						byRef.put(name(entries.get(i)), counts[0] + " " + counts[1]);
					}
				}
			}
			else {
				if (bases == null) {
					bases = new ArrayList<>(entries.size());
					for (Entry entry : entries) {
						bases.add(peelToCommit(ObjectId.fromRaw(hash, entry.id(), 0), objects, hash, errors));
					}
				}
				int index = new BranchBase(objects, hash).baseFor(commit, bases);
				if (index >= 0) {
					byRef.put(name(entries.get(index)), "(" + atom.arg() + ")");
				}
			}
			atoms.values.put(atom, byRef);
		}
		return atoms;
	}

	/** An atom's value for a ref, empty where it has none. */
	String value(Rich atom, String refName) {
		Map<String, String> byRef = this.values.get(atom);
		return (byRef != null) ? byRef.getOrDefault(refName, "") : "";
	}

	private static String name(Entry entry) {
		return new String(entry.name(), StandardCharsets.UTF_8);
	}

	/**
	 * The commit an object peels to, or {@code null}. A tag whose {@code type} header
	 * names another type than its object has is broken: git says so (two errors) and the
	 * ref gets no value.
	 */
	private static ObjectId peelToCommit(ObjectId id, ObjectDatabase objects, HashAlgorithm hash,
			Consumer<String> errors) throws IOException {
		ObjectId current = id;
		for (int depth = 0; depth < 64; depth++) {
			StoredObject object = objects.read(current);
			if (object == null) {
				return null;
			}
			if (object.type() == ObjectType.COMMIT) {
				return current;
			}
			if (object.type() != ObjectType.TAG) {
				return null;
			}
			ObjectText tag = ObjectText.parse(object.content());
			String target = tag.header("object");
			String claimed = tag.header("type");
			if (target == null) {
				return null;
			}
			ObjectId next = ObjectId.fromHex(hash, target.strip());
			ObjectType actual = objects.type(next);
			if (actual != null && claimed != null && !actual.gitName().equals(claimed)) {
				errors.accept("error: object " + next.name() + " is a " + actual.gitName() + ", not a " + claimed);
				errors.accept("error: bad tag pointer to " + next.name() + " in " + current.name());
				return null;
			}
			current = next;
		}
		return null;
	}

}
