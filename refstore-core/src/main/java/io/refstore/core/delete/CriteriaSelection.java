package io.refstore.core.delete;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.refstore.core.graph.CommitHistory;
import io.refstore.core.graph.RefTips;
import io.refstore.core.graph.TipFacts;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.SymbolicRef;

/**
 * The refs a {@link RefSelection} with namespaces or criteria selects, in two passes: the
 * refs its names, prefixes, globs and namespaces pick (exclusions and protection applied)
 * are read once into flat arrays (names back to back, raw values back to back: no object
 * per ref), their facts are computed in bulk ({@link CommitHistory#facts}: one walk for
 * all of them), then each is judged by every criterion. A symbolic ref is judged by the
 * value it resolves to, as {@code for-each-ref} shows it; one that resolves to nothing
 * has no commit and no date.
 *
 * <p>
 * Not thread-safe; one selection per instance.
 */
final class CriteriaSelection {

	private final RefStore store;

	private final CommitHistory history;

	private final RefSelection selection;

	private final RefTips tips;

	private final Map<Integer, String> symbolic = new HashMap<>();

	CriteriaSelection(RefStore store, CommitHistory history, RefSelection selection) {
		this.store = store;
		this.history = history;
		this.selection = selection;
		this.tips = new RefTips(store.hashAlgorithm());
	}

	DryRun select(int sampleSize, RefDeleter.RefConsumer consumer) throws IOException {
		if (this.selection.needsHistory() && this.history == null) {
			throw new IllegalStateException("the selection's criteria need the repository's history");
		}
		long picked = 0;
		long inNamespace = 0;
		long missing;
		ProtectedRefs.Report kept;
		try (SelectedRefs refs = new SelectedRefs(this.store, this.selection, sampleSize)) {
			while (refs.next()) {
				picked++;
				if (this.selection.inNamespace(refs.nameBuffer(), refs.nameLength())) {
					inNamespace++;
					add(refs.nameBuffer(), refs.nameLength(), refs.ref());
				}
			}
			missing = refs.missing();
			kept = refs.kept();
		}
		TipFacts facts = this.selection.needsHistory()
				? this.tips.facts(this.history, this.selection.mergedBase(), false) : null;
		Map<String, Long> criteria = new LinkedHashMap<>();
		criteria.put("picked by names, prefixes, globs or namespaces", picked);
		boolean namespacesFilter = !this.selection.namespaces().isEmpty()
				&& !this.selection.prefixes().equals(this.selection.namespaces());
		if (namespacesFilter) {
			criteria.put("in " + String.join(" or ", this.selection.namespaces()), inNamespace);
		}
		String mergedLabel = (this.selection.mergedBase() != null) ? "merged into " + this.selection.mergedInto() + " ("
				+ this.selection.mergedBase().name().substring(0, 12) + ")" : null;
		String olderLabel = (this.selection.olderThan() != Long.MIN_VALUE)
				? "dated before " + CriterionTime.describe(this.selection.olderThan()) : null;
		String updatedLabel = (this.selection.notUpdatedSince() != Long.MIN_VALUE)
				? "not updated since " + CriterionTime.describe(this.selection.notUpdatedSince()) : null;
		long[] matches = new long[3];
		List<String> sample = new ArrayList<>();
		List<String> reasons = new ArrayList<>();
		long matched = 0;
		for (int i = 0; i < this.tips.count(); i++) {
			boolean merged = mergedLabel == null || (facts.merged(i));
			boolean older = olderLabel == null
					|| (facts.date(i) != TipFacts.NO_DATE && facts.date(i) < this.selection.olderThan());
			long updated = (updatedLabel != null) ? lastUpdate(i, facts) : TipFacts.NO_DATE;
			boolean notUpdated = updatedLabel == null
					|| (updated != TipFacts.NO_DATE && updated < this.selection.notUpdatedSince());
			matches[0] += (mergedLabel != null && merged) ? 1 : 0;
			matches[1] += (olderLabel != null && older) ? 1 : 0;
			matches[2] += (updatedLabel != null && notUpdated) ? 1 : 0;
			if (!(merged && older && notUpdated)) {
				continue;
			}
			matched++;
			if (sample.size() < sampleSize) {
				sample.add(name(i));
				reasons.add(reason(i, facts, updated));
			}
			if (consumer != null) {
				consumer.accept(ref(i));
			}
		}
		if (mergedLabel != null) {
			criteria.put(mergedLabel, matches[0]);
		}
		if (olderLabel != null) {
			criteria.put(olderLabel, matches[1]);
		}
		if (updatedLabel != null) {
			criteria.put(updatedLabel, matches[2]);
		}
		return new DryRun(matched, missing, sample, kept, criteria, reasons);
	}

	private void add(byte[] name, int length, Ref ref) throws IOException {
		ObjectId value;
		if (ref instanceof DirectRef direct) {
			value = direct.id();
		}
		else {
			this.symbolic.put(this.tips.count(), ((SymbolicRef) ref).target());
			value = this.store.resolve(ref.name()).map(DirectRef::id).orElse(null);
		}
		this.tips.add(name, length, value);
	}

	private String name(int i) {
		return this.tips.name(i);
	}

	private Ref ref(int i) {
		String target = this.symbolic.get(i);
		return (target != null) ? new SymbolicRef(name(i), target) : new DirectRef(name(i), this.tips.id(i));
	}

	/**
	 * When ref {@code i} was last updated: its newest reflog entry's time, or without a
	 * reflog its creator date.
	 */
	private long lastUpdate(int i, TipFacts facts) throws IOException {
		List<ReflogEntry> log = this.store.reflog(name(i));
		return log.isEmpty() ? facts.date(i) : log.get(log.size() - 1).who().epochSeconds();
	}

	/** The facts the criteria judged ref {@code i} by. */
	private String reason(int i, TipFacts facts, long updated) {
		if (facts == null) {
			return "in " + String.join(" or ", this.selection.namespaces());
		}
		List<String> parts = new ArrayList<>();
		if (this.selection.mergedBase() != null) {
			parts.add("merged into " + this.selection.mergedInto());
		}
		if (facts.date(i) != TipFacts.NO_DATE) {
			parts.add(((facts.kind(i) == TipFacts.Kind.COMMIT) ? "committed " : "tagged ")
					+ CriterionTime.describe(facts.date(i)));
		}
		if (this.selection.notUpdatedSince() != Long.MIN_VALUE && updated != facts.date(i)) {
			parts.add("last updated " + CriterionTime.describe(updated));
		}
		return String.join("; ", parts);
	}

}
