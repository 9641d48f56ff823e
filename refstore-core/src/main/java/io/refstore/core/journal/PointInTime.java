package io.refstore.core.journal;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.SymbolicRef;

/**
 * Point-in-time restore's sorting of refs: given each ref's last journaled change at or
 * before a moment and its first one after ({@link RefAtTime}), the journal's base and the
 * refs now, which refs putting them back as they were would create, delete or move, which
 * it cannot (an object gone) and which the journal cannot tell about; and the plan's
 * steps for those it can. The console and the API read the changes around the moment from
 * the database, the {@code refstore journal rewind} command from the journal files
 * ({@link #around}). Stateless.
 */
public final class PointInTime {

	private PointInTime() {
	}

	/** Where each ref goes, as it is sorted. */
	public interface Sink {

		/** A ref to create at {@code target}, its value then. */
		void create(String ref, String target);

		/** A ref to delete, created since: {@code current} is its value now. */
		void delete(String ref, String current);

		/** A ref to set back from {@code current} to {@code target}. */
		void move(String ref, String current, String target);

		/**
		 * A ref whose value then is an object the repository no longer has: left out.
		 * @param current its value now, or {@code null} if it does not exist
		 */
		void missing(String ref, String current, String target);

		/** A ref whose value then the journal cannot tell: left alone. */
		void unknown(String ref);

		/** A ref that changed since and holds its value then again. */
		void unchanged(String ref);

	}

	/**
	 * Each ref's changes around a moment.
	 *
	 * @param last each ref's newest change at or before the moment
	 * @param next each ref's oldest change after the moment
	 */
	public record Around(Map<String, RefAtTime.Change> last, Map<String, RefAtTime.Change> next) {

		/** Every ref either names. */
		public Set<String> names() {
			Set<String> names = new TreeSet<>(this.last.keySet());
			names.addAll(this.next.keySet());
			return names;
		}

	}

	/**
	 * Reads the changes around {@code at} of the refs whose names start with
	 * {@code prefix} from journal files, oldest file first, in the order they hold them:
	 * the moment falls after the last entry recorded at or before it, as the database's
	 * entries are cut at the newest id recorded by then.
	 * @param files the journal files, oldest first; a missing one counts as empty
	 * @return the changes, and how many damaged lines the files had
	 */
	public static Read around(List<Path> files, Instant at, String prefix) throws IOException {
		// two passes: the first finds where the moment falls, the second takes each
		// ref's change on either side of it
		long boundary = -1;
		long skipped;
		try (JournalReader reader = JournalReader.open(files)) {
			long index = 0;
			for (JournalEntry entry = reader.next(); entry != null; entry = reader.next(), index++) {
				if (!entry.time().isAfter(at)) {
					boundary = index;
				}
			}
			skipped = reader.skipped();
		}
		Map<String, RefAtTime.Change> last = new HashMap<>();
		Map<String, RefAtTime.Change> next = new HashMap<>();
		try (JournalReader reader = JournalReader.open(files)) {
			long index = 0;
			for (JournalEntry entry = reader.next(); entry != null; entry = reader.next(), index++) {
				if (entry.refName().startsWith(prefix)) {
					RefAtTime.Change change = new RefAtTime.Change(entry.oldValue(), entry.newValue());
					if (index <= boundary) {
						last.put(entry.refName(), change);
					}
					else {
						next.putIfAbsent(entry.refName(), change);
					}
				}
			}
		}
		return new Read(new Around(last, next), skipped);
	}

	/**
	 * The changes {@link #around} read.
	 *
	 * @param around each ref's changes around the moment
	 * @param skipped damaged lines skipped
	 */
	public record Read(Around around, long skipped) {

	}

	/**
	 * Sorts every ref {@code around} names into {@code sink}, in name order.
	 * @param at the moment
	 * @param base the journal's base, if the repository has one
	 * @param store the repository's store, as it is now
	 * @param objects the repository's objects
	 * @return the steps of a {@link RewindPlan} that puts back what can be, in name order
	 */
	public static List<RewindPlan.Step> sort(Around around, Instant at, Optional<JournalBase> base, RefStore store,
			ObjectDatabase objects, Sink sink) throws IOException {
		Set<String> names = around.names();
		boolean covers = base.isPresent() && !base.get().time().isAfter(at);
		Set<String> needed = new HashSet<>();
		if (covers) {
			for (String name : names) {
				if (!around.last().containsKey(name) && DeletedRefs.isZero(around.next().get(name).oldValue())) {
					needed.add(name);
				}
			}
		}
		Map<String, String> baseValues = covers ? base.get().values(needed) : Map.of();
		Map<String, Ref> now = store.exactRefs(names);
		HashAlgorithm hash = store.hashAlgorithm();
		List<RewindPlan.Step> steps = new ArrayList<>();
		for (String name : names) {
			Ref ref = now.get(name);
			String current = (ref == null) ? null : (ref instanceof SymbolicRef symbolic) ? "ref:" + symbolic.target()
					: ((DirectRef) ref).id().name();
			RefAtTime.State then = RefAtTime.at(around.last().get(name), around.next().get(name), covers,
					baseValues.get(name), current);
			sortOne(name, current, then, hash, objects, sink, steps);
		}
		return steps;
	}

	private static void sortOne(String name, String current, RefAtTime.State then, HashAlgorithm hash,
			ObjectDatabase objects, Sink sink, List<RewindPlan.Step> steps) throws IOException {
		boolean symbolicNow = current != null && current.startsWith("ref:");
		switch (then.kind()) {
			case SYMBOLIC -> {
				// symbolic refs are not restored
			}
			case UNKNOWN -> sink.unknown(name);
			case ABSENT -> {
				if (current != null && !symbolicNow) {
					sink.delete(name, current);
					steps.add(new RewindPlan.Step(name, ObjectId.fromHex(hash, current), hash.zeroId()));
				}
			}
			case VALUE -> {
				ObjectId target = ObjectId.tryParse(hash, then.value());
				if (then.value().equals(current)) {
					sink.unchanged(name);
				}
				else if (symbolicNow) {
					// a symbolic ref now is left alone
				}
				else if (target == null || !objects.exists(target)) {
					sink.missing(name, current, then.value());
				}
				else if (current == null) {
					sink.create(name, then.value());
					steps.add(new RewindPlan.Step(name, hash.zeroId(), target));
				}
				else {
					sink.move(name, current, then.value());
					steps.add(new RewindPlan.Step(name, ObjectId.fromHex(hash, current), target));
				}
			}
		}
	}

}
