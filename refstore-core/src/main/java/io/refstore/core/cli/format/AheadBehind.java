package io.refstore.core.cli.format;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.objects.ObjectDatabase.StoredObject;
import io.refstore.core.objects.ObjectText;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * Counts the commits each of two tips has that the other lacks, for {@code :track} and
 * {@code :trackshort}: a plain walk of both histories (no commit-graph), adequate for the
 * few branches with an upstream. Not thread-safe.
 */
final class AheadBehind {

	private final ObjectDatabase objects;

	private final HashAlgorithm hash;

	AheadBehind(ObjectDatabase objects, HashAlgorithm hash) {
		this.objects = objects;
		this.hash = hash;
	}

	/**
	 * {ahead, behind}: commits reachable from {@code tip} only, from {@code base} only.
	 */
	long[] count(ObjectId tip, ObjectId base) throws IOException {
		Set<ObjectId> fromTip = reachable(tip);
		Set<ObjectId> fromBase = reachable(base);
		long ahead = fromTip.stream().filter((id) -> !fromBase.contains(id)).count();
		long behind = fromBase.stream().filter((id) -> !fromTip.contains(id)).count();
		return new long[] { ahead, behind };
	}

	private Set<ObjectId> reachable(ObjectId start) throws IOException {
		Set<ObjectId> seen = new HashSet<>();
		ArrayDeque<ObjectId> todo = new ArrayDeque<>();
		todo.add(start);
		while (!todo.isEmpty()) {
			ObjectId id = todo.poll();
			if (!seen.add(id)) {
				continue;
			}
			StoredObject object = this.objects.read(id);
			if (object == null || object.type() != ObjectType.COMMIT) {
				seen.remove(id);
				continue;
			}
			for (String parent : ObjectText.parse(object.content()).headers("parent")) {
				todo.add(ObjectId.fromHex(this.hash, parent.strip()));
			}
		}
		return seen;
	}

}
