package io.refstore.core.cli.format;

import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.env.OtherThread;
import io.refstore.core.cli.options.Options;
import io.refstore.core.cli.revision.RevParse;
import io.refstore.core.graph.CommitGraph;
import io.refstore.core.graph.CommitWalk;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * The object filters of {@code for-each-ref}: {@code --points-at}, {@code --merged},
 * {@code --no-merged}, {@code --contains} and {@code --no-contains}, combined as git
 * combines them. A ref is kept if it (or a tag on its chain) points at one of the
 * {@code --points-at} objects; it reaches one of the {@code --contains} commits and none
 * of the {@code --no-contains} ones; and one of the {@code --merged} commits reaches it
 * and none of the {@code --no-merged} ones does. With any commit filter, refs that do not
 * peel to a commit are dropped. The reachability questions are answered for all refs at
 * once by one {@link CommitWalk}.
 */
public final class RefObjectFilter {

	/**
	 * A listed ref: copies of its name, resolved id and symbolic target, and its object's
	 * type where a filter looked it up ({@code null} where none did).
	 */
	public record Entry(byte[] name, byte[] id, byte[] target, ObjectType type) {

		public Entry(byte[] name, byte[] id, byte[] target) {
			this(name, id, target, null);
		}

	}

	/**
	 * From this many refs on, their objects' types are looked up by a second thread while
	 * this one walks the history.
	 */
	static final int SHARED_MIN = 4096;

	private final Set<ObjectId> pointsAt;

	private final List<ObjectId> merged;

	private final List<ObjectId> noMerged;

	private final List<ObjectId> contains;

	private final List<ObjectId> noContains;

	private RefObjectFilter(Set<ObjectId> pointsAt, List<ObjectId> merged, List<ObjectId> noMerged,
			List<ObjectId> contains, List<ObjectId> noContains) {
		this.pointsAt = pointsAt;
		this.merged = merged;
		this.noMerged = noMerged;
		this.contains = contains;
		this.noContains = noContains;
	}

	/**
	 * Reads and resolves the filter options, with git's messages for values that name no
	 * object or no commit.
	 * @param parsed the parsed options ({@code points-at}, {@code merged},
	 * {@code no-merged}, {@code contains}, {@code no-contains})
	 * @param revParse resolves the values
	 * @param walk tells commits from other objects
	 * @throws CommandFailure for a bad value
	 * @throws IOException if the repository cannot be read
	 */
	public static RefObjectFilter of(Options.Parsed parsed, RevParse revParse, CommitWalk walk)
			throws CommandFailure, IOException {
		Set<ObjectId> pointsAt = new HashSet<>();
		for (String value : parsed.values("points-at")) {
			Optional<ObjectId> id = revParse.resolve(value);
			if (id.isEmpty()) {
				throw CommandFailure.error("malformed object name '" + value + "'", CommandFailure.USAGE);
			}
			pointsAt.add(id.get());
		}
		return new RefObjectFilter(pointsAt, mergeCommits(parsed, "merged", revParse, walk),
				mergeCommits(parsed, "no-merged", revParse, walk), containsCommits(parsed, "contains", revParse, walk),
				containsCommits(parsed, "no-contains", revParse, walk));
	}

	/** Whether no filter option was given: every ref the patterns match is listed. */
	public static boolean none(Options.Parsed parsed) {
		return !parsed.given("points-at") && !parsed.given("merged") && !parsed.given("no-merged")
				&& !parsed.given("contains") && !parsed.given("no-contains");
	}

	private static List<ObjectId> mergeCommits(Options.Parsed parsed, String option, RevParse revParse, CommitWalk walk)
			throws CommandFailure, IOException {
		List<ObjectId> commits = new ArrayList<>();
		for (String value : values(parsed, option)) {
			Optional<ObjectId> id = revParse.resolve(value);
			if (id.isEmpty()) {
				throw CommandFailure.fatal("malformed object name " + value);
			}
			commits.add(commit(id.get(), walk, "option `" + option + "' must point to a commit"));
		}
		return commits;
	}

	private static List<ObjectId> containsCommits(Options.Parsed parsed, String option, RevParse revParse,
			CommitWalk walk) throws CommandFailure, IOException {
		List<ObjectId> commits = new ArrayList<>();
		for (String value : values(parsed, option)) {
			Optional<ObjectId> id = revParse.resolve(value);
			if (id.isEmpty()) {
				throw CommandFailure.error("malformed object name " + value, CommandFailure.USAGE);
			}
			commits.add(commit(id.get(), walk, "no such commit " + value));
		}
		return commits;
	}

	/** An option given without a value means {@code HEAD}, as in git. */
	private static List<String> values(Options.Parsed parsed, String option) {
		List<String> values = new ArrayList<>();
		for (String value : parsed.values(option)) {
			values.add((value != null) ? value : "HEAD");
		}
		return values;
	}

	private static ObjectId commit(ObjectId id, CommitWalk walk, String refusal) throws CommandFailure, IOException {
		if (walk.commitOf(id) >= 0) {
			return id;
		}
		ObjectType type = walk.objectType(id);
		String detail = (type != null && type != ObjectType.TAG)
				? "object " + id.name() + " is a " + type.gitName() + ", not a commit\nerror: " : "";
		throw CommandFailure.error(detail + refusal, CommandFailure.USAGE);
	}

	/** Whether a commit walk is needed. */
	boolean needsWalk() {
		return !this.merged.isEmpty() || !this.noMerged.isEmpty() || !this.contains.isEmpty()
				|| !this.noContains.isEmpty();
	}

	/**
	 * The entries the filters keep, in their order.
	 * @param entries the refs the patterns matched
	 * @param hash the ids' hash
	 * @param objects reads tags for {@code --points-at}
	 * @param walk answers the commit filters
	 * @param dropRootRefs whether root refs are left out of commit-filtered listings (git
	 * 2.55 does so for the files format, and keeps them with reftable)
	 */
	public List<Entry> apply(List<Entry> entries, HashAlgorithm hash, ObjectDatabase objects, CommitWalk walk,
			boolean dropRootRefs) throws IOException, CommandFailure {
		List<Entry> kept = entries;
		if (!this.pointsAt.isEmpty()) {
			kept = new ArrayList<>();
			for (Entry entry : entries) {
				if (pointsAt(ObjectId.fromRaw(hash, entry.id(), 0), objects)) {
					kept.add(entry);
				}
			}
		}
		if (!needsWalk()) {
			return kept;
		}
		// the refs' commits: their ids, root refs left out where git leaves them out
		int rawLength = hash.rawLength();
		int[] index = new int[kept.size()];
		byte[] ids = new byte[kept.size() * rawLength];
		int count = 0;
		for (int i = 0; i < index.length; i++) {
			Entry entry = kept.get(i);
			if (!dropRootRefs || isUnderRefs(entry.name())) {
				System.arraycopy(entry.id(), 0, ids, count * rawLength, rawLength);
				index[i] = count++;
			}
			else {
				index[i] = -1;
			}
		}
		// their types (read from the packs) while the merge walks read the history
		int idCount = count;
		Callable<ObjectType[]> lookup = () -> {
			ObjectType[] types = new ObjectType[idCount];
			objects.types(hash, ids, idCount, types);
			return types;
		};
		// from SHARED_MIN ids on in a second thread (the object database is safe for
		// several threads)
		Future<ObjectType[]> types = (count < SHARED_MIN) ? OtherThread.here(lookup)
				: OtherThread.start("refstore-types", lookup);
		BitSet mergedInto;
		BitSet notMergedInto;
		try {
			mergedInto = this.merged.isEmpty() ? null : walk.reachable(nodes(this.merged, walk));
			notMergedInto = this.noMerged.isEmpty() ? null : walk.reachable(nodes(this.noMerged, walk));
		}
		catch (IOException | RuntimeException | Error ex) {
			// a failure reading the types came first in one thread's order
			OtherThread.join(types);
			throw ex;
		}
		ObjectType[] typeOf = OtherThread.join(types);
		int[] nodeOf = walk.commitsOf(ids, count, typeOf);
		int[] nodes = new int[index.length];
		for (int i = 0; i < nodes.length; i++) {
			nodes[i] = (index[i] >= 0) ? nodeOf[index[i]] : -1;
		}
		BitSet contained = this.contains.isEmpty() ? null : walk.containing(nodes, nodes(this.contains, walk));
		BitSet notContained = this.noContains.isEmpty() ? null : walk.containing(nodes, nodes(this.noContains, walk));
		List<Entry> result = new ArrayList<>();
		for (int i = 0; i < nodes.length; i++) {
			int node = nodes[i];
			if (node < 0 || (contained != null && !contained.get(node))
					|| (notContained != null && notContained.get(node)) || (mergedInto != null && !mergedInto.get(node))
					|| (notMergedInto != null && notMergedInto.get(node))) {
				continue;
			}
			Entry entry = kept.get(i);
			result.add(new Entry(entry.name(), entry.id(), entry.target(), typeOf[index[i]]));
		}
		return result;
	}

	private static boolean isUnderRefs(byte[] name) {
		return name.length > 5 && name[0] == 'r' && name[1] == 'e' && name[2] == 'f' && name[3] == 's'
				&& name[4] == '/';
	}

	private static int[] nodes(List<ObjectId> commits, CommitWalk walk) throws IOException {
		int[] nodes = new int[commits.size()];
		for (int i = 0; i < nodes.length; i++) {
			nodes[i] = walk.commitOf(commits.get(i));
		}
		return nodes;
	}

	/** The object itself, or a tag on its chain, names one of the objects looked for. */
	private boolean pointsAt(ObjectId id, ObjectDatabase objects) throws IOException {
		ObjectId current = id;
		for (int depth = 0; depth < 64 && current != null; depth++) {
			if (this.pointsAt.contains(current)) {
				return true;
			}
			if (objects.type(current) != ObjectType.TAG) {
				return false;
			}
			current = objects.tagTarget(current);
		}
		return false;
	}

	/** Opens the walk: over the commit-graph where the repository has one. */
	public static CommitWalk walk(CommandContext context) throws IOException {
		HashAlgorithm hash = context.refs().hashAlgorithm();
		boolean useGraph = context.repository().config().getBoolean("core", null, "commitGraph").orElse(true);
		CommitGraph graph = useGraph ? CommitGraph.open(context.repository().commonDir().resolve("objects"), hash)
				: null;
		return new CommitWalk(graph, context.objects(), hash);
	}

}
