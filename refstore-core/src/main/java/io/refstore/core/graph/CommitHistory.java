package io.refstore.core.graph;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.objects.ObjectDatabase.StoredObject;
import io.refstore.core.objects.ObjectText;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.repo.Repository;

/**
 * The commit history behind a repository's refs, for the facts an operator judges refs by
 * (their dates, whether they are merged, how far they diverged) and for the
 * {@code refstore} command's reachability filters: one {@link CommitWalk} over git's
 * commit-graph when the repository has one (and {@code core.commitGraph} is not false),
 * over the object database otherwise.
 *
 * <p>
 * Not thread-safe: one per request or job. The object database belongs to the repository,
 * which closes it.
 */
public final class CommitHistory {

	private final CommitWalk walk;

	private final ObjectDatabase objects;

	private final HashAlgorithm algorithm;

	/**
	 * @param graph the commit-graph, or {@code null} to read commits from the object
	 * database only
	 */
	public CommitHistory(CommitGraph graph, ObjectDatabase objects, HashAlgorithm algorithm) {
		this.walk = new CommitWalk(graph, objects, algorithm);
		this.objects = objects;
		this.algorithm = algorithm;
	}

	/**
	 * The history of a repository, with its commit-graph as git would use it.
	 * @throws IOException if the object database or the commit-graph cannot be read
	 */
	public static CommitHistory open(Repository repository) throws IOException {
		HashAlgorithm hash = repository.hashAlgorithm();
		boolean useGraph = repository.config().getBoolean("core", null, "commitGraph").orElse(true);
		CommitGraph graph = useGraph ? CommitGraph.open(repository.commonDir().resolve("objects"), hash) : null;
		return new CommitHistory(graph, repository.objectDatabase(), hash);
	}

	/** The walk behind this history, for reachability questions of its own. */
	public CommitWalk walk() {
		return this.walk;
	}

	/**
	 * The facts about many values at once: each value's kind and date, and with a base
	 * whether it is merged into it (one walk of the base's history for all of them) and,
	 * if asked, how far ahead and behind it is.
	 * @param ids {@code count} raw ids back to back from offset 0 (repeats are cheap)
	 * @param count how many
	 * @param base the commit to judge against, or {@code null} for none (nothing merged)
	 * @param counts whether to count ahead and behind
	 * @return the facts, by index
	 * @throws IOException if the object database cannot be read
	 */
	public TipFacts facts(byte[] ids, int count, ObjectId base, boolean counts) throws IOException {
		int rawLength = this.algorithm.rawLength();
		TipFacts.Kind[] kinds = new TipFacts.Kind[count];
		long[] dates = new long[count];
		int[] nodes = new int[count];
		// the values the graph or an earlier one does not know: typed in one pass over
		// the object database
		int[] unknown = new int[count];
		int unknownCount = 0;
		for (int i = 0; i < count; i++) {
			nodes[i] = this.walk.knownNode(ids, i * rawLength);
			if (nodes[i] >= 0) {
				kinds[i] = TipFacts.Kind.COMMIT;
			}
			else {
				unknown[unknownCount++] = i;
			}
		}
		ObjectType[] types = this.walk.types(ids, unknown, unknownCount);
		Map<ObjectId, long[]> tags = new HashMap<>();
		for (int j = 0; j < unknownCount; j++) {
			int i = unknown[j];
			ObjectType type = types[j];
			if (type == ObjectType.COMMIT) {
				kinds[i] = TipFacts.Kind.COMMIT;
				nodes[i] = this.walk.commitOf(ids, i * rawLength);
			}
			else if (type == ObjectType.TAG) {
				ObjectId id = ObjectId.fromRaw(this.algorithm, ids, i * rawLength);
				long[] tag = tags.get(id);
				if (tag == null) {
					tag = new long[] { taggerTime(id), this.walk.commitOf(ids, i * rawLength) };
					tags.put(id, tag);
				}
				dates[i] = tag[0];
				nodes[i] = (int) tag[1];
				kinds[i] = (nodes[i] >= 0) ? TipFacts.Kind.TAG : TipFacts.Kind.OTHER;
			}
			else {
				kinds[i] = (type == null) ? TipFacts.Kind.MISSING : TipFacts.Kind.OTHER;
				nodes[i] = -1;
				dates[i] = TipFacts.NO_DATE;
			}
		}
		for (int i = 0; i < count; i++) {
			if (kinds[i] == TipFacts.Kind.COMMIT) {
				dates[i] = this.walk.commitTime(nodes[i]);
			}
		}
		if (base == null) {
			return new TipFacts(kinds, dates, nodes, null, null, null);
		}
		Divergence divergence = divergence(base);
		boolean[] merged = new boolean[count];
		int[] ahead = counts ? new int[count] : null;
		int[] behind = counts ? new int[count] : null;
		Map<Integer, int[]> counted = new HashMap<>();
		for (int i = 0; i < count; i++) {
			merged[i] = divergence.merged(nodes[i]);
			if (counts) {
				int[] pair = (nodes[i] < 0) ? new int[] { -1, -1 } : counted.get(nodes[i]);
				if (pair == null) {
					pair = new int[2];
					divergence.aheadBehind(nodes[i], pair);
					counted.put(nodes[i], pair);
				}
				ahead[i] = pair[0];
				behind[i] = pair[1];
			}
		}
		return new TipFacts(kinds, dates, nodes, merged, ahead, behind);
	}

	/**
	 * The walk of a base's history, for judging commits against it one by one.
	 * @param base a commit, or an annotated tag of one
	 * @throws IOException if the base is not a commit or cannot be read
	 */
	public Divergence divergence(ObjectId base) throws IOException {
		int node = this.walk.commitOf(base);
		if (node < 0) {
			throw new IOException(base.name() + " is not a commit");
		}
		return new Divergence(this.walk, node);
	}

	/** The tagger's seconds of an annotated tag, or {@link TipFacts#NO_DATE}. */
	private long taggerTime(ObjectId tag) throws IOException {
		StoredObject object = this.objects.read(tag);
		if (object == null) {
			return TipFacts.NO_DATE;
		}
		String tagger = ObjectText.parse(object.content()).header("tagger");
		ObjectText.Ident.When when = (tagger != null) ? ObjectText.Ident.when(tagger) : null;
		return (when != null) ? when.seconds() : TipFacts.NO_DATE;
	}

	/**
	 * Who made an object and what it says, for a ref's row: a commit's author and
	 * subject, an annotated tag's tagger and subject.
	 *
	 * @param kind {@code commit} or {@code tag}
	 * @param name the person's name
	 * @param email the person's email, without angle brackets
	 * @param seconds the person line's date (for a commit the author's date)
	 * @param subject the message's first paragraph on one line, as git's
	 * {@code %(subject)}
	 */
	public record Description(String kind, String name, String email, long seconds, String subject) {
	}

	/**
	 * Describes a commit or an annotated tag.
	 * @return the description, or {@code null} for a missing object, a tree or a blob
	 * @throws IOException if the object database cannot be read
	 */
	public Description describe(ObjectId id) throws IOException {
		StoredObject object = this.objects.read(id);
		if (object == null || (object.type() != ObjectType.COMMIT && object.type() != ObjectType.TAG)) {
			return null;
		}
		ObjectText text = ObjectText.parse(object.content());
		String header = text.header((object.type() == ObjectType.COMMIT) ? "author" : "tagger");
		ObjectText.Ident who = (header != null) ? ObjectText.Ident.parse(header) : null;
		String email = (who != null) ? who.email().substring(1, who.email().length() - 1) : "";
		return new Description(object.type().gitName(), (who != null) ? who.name() : "", email,
				(who != null) ? who.seconds() : TipFacts.NO_DATE, subject(text.message()));
	}

	/** The first paragraph, its lines joined by spaces, as git's {@code %(subject)}. */
	static String subject(byte[] message) {
		StringBuilder subject = new StringBuilder();
		int at = 0;
		while (at < message.length && message[at] == '\n') {
			at++;
		}
		while (at < message.length) {
			int end = at;
			while (end < message.length && message[end] != '\n') {
				end++;
			}
			String line = new String(message, at, end - at, StandardCharsets.UTF_8).stripTrailing();
			if (line.isBlank()) {
				break;
			}
			if (subject.length() > 0) {
				subject.append(' ');
			}
			subject.append(line);
			at = end + 1;
		}
		return subject.toString();
	}

}
