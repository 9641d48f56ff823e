package io.refstore.batch.inventory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import io.refstore.core.graph.CommitHistory;
import io.refstore.core.graph.TipFacts;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.StoreStatistics;
import io.refstore.core.repo.Repository;

/**
 * Takes a {@link RefInventory}: streams every ref under {@code refs/} once, putting its
 * raw id (a symbolic ref's resolved one) into one growing array and noting where each
 * namespace's run of names starts (refs arrive in bytewise name order, so a namespace is
 * one run and a string is made only when a new run starts), then asks
 * {@link CommitHistory#facts} for every ref's creator date and whether it is merged into
 * {@code HEAD}'s branch, in one walk of that branch's history. No object per ref: a
 * million refs cost their ids' bytes and the history's walk. Stateless.
 */
final class RefCounter {

	/** Refs per byte of a reftable stack, to size the id array before reading. */
	private static final int REFTABLE_BYTES_PER_REF = 40;

	private RefCounter() {
	}

	/**
	 * Counts the refs of {@code store}, stale ones judged against {@code now}.
	 * @param repository the name the inventory carries
	 * @throws IOException if the store or the object database cannot be read
	 */
	static RefInventory count(String repository, Repository repo, RefStore store, Instant now, Duration staleAfter)
			throws IOException {
		StoreStatistics statistics = store.statistics();
		int rawLength = store.hashAlgorithm().rawLength();
		long expected = (statistics.format() == RefFormat.FILES) ? statistics.looseRefs() + statistics.packedRefs()
				: statistics.bytes() / REFTABLE_BYTES_PER_REF;
		byte[] ids = new byte[(int) Math.min(Math.max(expected, 64), Integer.MAX_VALUE / 2 / rawLength) * rawLength];
		List<String> names = new ArrayList<>();
		List<Integer> starts = new ArrayList<>();
		byte[] current = new byte[0];
		int count = 0;
		try (RefCursor cursor = store.refs(RefQuery.ALL)) {
			while (cursor.next()) {
				byte[] name = cursor.nameBuffer();
				int end = namespaceEnd(name, cursor.nameLength());
				if (end != current.length || !Arrays.equals(name, 0, end, current, 0, end)) {
					current = Arrays.copyOf(name, end);
					names.add(new String(current, StandardCharsets.UTF_8));
					starts.add(count);
				}
				if ((count + 1) * rawLength > ids.length) {
					ids = Arrays.copyOf(ids, Math.multiplyExact(ids.length, 2));
				}
				if (cursor.isSymbolic()) {
					// a symbolic ref counts with the value it resolves to, as
					// for-each-ref
					// shows it; a dangling one keeps zeros, which name nothing
					Optional<DirectRef> target = store.resolve(cursor.name());
					if (target.isPresent()) {
						target.get().id().copyRawTo(ids, count * rawLength);
					}
				}
				else {
					System.arraycopy(cursor.idBuffer(), 0, ids, count * rawLength, rawLength);
				}
				count++;
			}
		}
		CommitHistory history = CommitHistory.open(repo);
		DirectRef head = store.resolve("HEAD").orElse(null);
		ObjectId base = (head != null && history.walk().commitOf(head.id()) >= 0) ? head.id() : null;
		TipFacts facts = history.facts(ids, count, base, false);
		long cutoff = now.minus(staleAfter).getEpochSecond();
		List<RefInventory.Namespace> namespaces = new ArrayList<>(names.size());
		for (int n = 0; n < names.size(); n++) {
			int from = starts.get(n);
			int to = (n + 1 < names.size()) ? starts.get(n + 1) : count;
			long stale = 0;
			long merged = 0;
			for (int i = from; i < to; i++) {
				long date = facts.date(i);
				if (date != TipFacts.NO_DATE && date < cutoff) {
					stale++;
				}
				if (facts.merged(i)) {
					merged++;
				}
			}
			namespaces.add(new RefInventory.Namespace(names.get(n), to - from, stale, (base != null) ? merged : null));
		}
		boolean files = statistics.format() == RefFormat.FILES;
		return new RefInventory(repository, now, statistics.format().configName(),
				files ? statistics.looseRefs() : null, files ? statistics.packedRefs() : null,
				files ? null : statistics.tables(), statistics.bytes(), (base != null) ? head.name() : null,
				namespaces);
	}

	/**
	 * The end of a name's namespace: its second {@code /} ({@code refs/heads}), or the
	 * whole name when it has no level below the first ({@code refs/stash}).
	 */
	static int namespaceEnd(byte[] name, int length) {
		int slashes = 0;
		for (int i = 0; i < length; i++) {
			if (name[i] == '/' && ++slashes == 2) {
				return i;
			}
		}
		return length;
	}

}
