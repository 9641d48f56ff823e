package io.refstore.core.journal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The refs a journal shows deleted: those whose last entry is a deletion, each with the
 * newest object id the journal knows it held (the new value of a change that set one, or
 * the old value a deletion reported: git reports none for {@code branch -D}). Whether
 * such a ref exists again now (created by a writer the journal did not see, or a
 * {@code pack-refs} that git reports as deleting loose refs) is for the caller to check
 * in the store.
 */
public final class DeletedRefs {

	private DeletedRefs() {
	}

	/**
	 * A ref whose last journaled change is a deletion.
	 *
	 * @param deletion that deletion
	 * @param lastValue the newest object id the journal knows the ref held, or
	 * {@code null} if it knows none
	 */
	public record Deleted(JournalEntry deletion, String lastValue) {

		/** The ref's full name. */
		public String refName() {
			return this.deletion.refName();
		}

	}

	/**
	 * Reads a whole journal, holding one entry and one value per ref it names.
	 * @return the deleted refs, newest deletion first
	 */
	public static List<Deleted> of(JournalReader reader) throws IOException {
		Map<String, Deleted> last = new HashMap<>();
		Map<String, Long> order = new HashMap<>();
		long n = 0;
		for (JournalEntry entry = reader.next(); entry != null; entry = reader.next()) {
			Deleted before = last.get(entry.refName());
			String known = (before == null) ? null : before.lastValue();
			boolean deletion = isZero(entry.newValue());
			String value = deletion ? entry.oldValue() : entry.newValue();
			if (!isZero(value)) {
				// a symbolic ref's target is no value to restore
				known = value.startsWith("ref:") ? null : value;
			}
			last.put(entry.refName(), new Deleted(entry, known));
			order.put(entry.refName(), n++);
		}
		List<Deleted> deleted = new ArrayList<>();
		for (Deleted ref : last.values()) {
			if (isZero(ref.deletion().newValue())) {
				deleted.add(ref);
			}
		}
		deleted.sort(Comparator.comparingLong((Deleted ref) -> order.get(ref.refName())).reversed());
		return deleted;
	}

	/** Whether a journal value is all zeros: no object. */
	public static boolean isZero(String value) {
		for (int i = 0; i < value.length(); i++) {
			if (value.charAt(i) != '0') {
				return false;
			}
		}
		return !value.isEmpty();
	}

}
