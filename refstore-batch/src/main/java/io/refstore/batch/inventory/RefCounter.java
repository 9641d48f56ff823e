package io.refstore.batch.inventory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.refstore.batch.api.RefInventory;
import io.refstore.core.graph.CommitHistory;
import io.refstore.core.graph.RefTips;
import io.refstore.core.graph.TipFacts;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
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
		RefTips tips = RefTips.read(store, RefQuery.ALL);
		int count = tips.count();
		// refs come in name order, so each namespace is one run of them
		List<String> names = new ArrayList<>();
		List<Integer> starts = new ArrayList<>();
		byte[] all = tips.nameBytes();
		int currentStart = -1;
		int currentLength = -1;
		for (int i = 0; i < count; i++) {
			int start = tips.nameStart(i);
			int length = namespaceLength(all, start, tips.nameEnd(i));
			if (length != currentLength
					|| !Arrays.equals(all, start, start + length, all, currentStart, currentStart + length)) {
				names.add(new String(all, start, length, StandardCharsets.UTF_8));
				starts.add(i);
				currentStart = start;
				currentLength = length;
			}
		}
		CommitHistory history = CommitHistory.open(repo);
		DirectRef head = store.resolve("HEAD").orElse(null);
		ObjectId base = (head != null && history.walk().commitOf(head.id()) >= 0) ? head.id() : null;
		TipFacts facts = tips.facts(history, base, false);
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
	 * The length of a name's namespace, the name being {@code name[start, end)}: up to
	 * its second {@code /} ({@code refs/heads}), or the whole name when it has no level
	 * below the first ({@code refs/stash}).
	 */
	static int namespaceLength(byte[] name, int start, int end) {
		int slashes = 0;
		for (int i = start; i < end; i++) {
			if (name[i] == '/' && ++slashes == 2) {
				return i - start;
			}
		}
		return end - start;
	}

}
