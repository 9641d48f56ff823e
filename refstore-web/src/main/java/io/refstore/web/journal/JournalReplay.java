package io.refstore.web.journal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.refstore.core.journal.JournalEntry;

/**
 * Keeps a journal file read again from its first byte from storing entries twice. The
 * hook only appends, so such a file is one the database has not seen (a new file after a
 * compaction, another repository's) or one it has seen part of: a file restored from a
 * backup, or set aside by a compaction and put back. Its entries are told from the stored
 * ones by transaction, ref and new value (git's hook names a transaction by its time and
 * process, and git refuses two updates of one ref in a transaction), looked up among the
 * entries the source held when the reading began ({@code replay_to}), one query per ref
 * of a run; an entry recorded at or before the source's retention horizon is one
 * retention pruned and is not stored again either. Thread-safe.
 */
@Component
class JournalReplay {

	private final JdbcClient jdbc;

	JournalReplay(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/** The highest entry id a source holds, or {@code null} if it holds none. */
	Long newestId(long source) {
		return this.jdbc.sql("SELECT MAX(id) FROM refstore_journal_entry WHERE source_id = ?")
			.params(source)
			.query(Long.class)
			.optional()
			.orElse(null);
	}

	/**
	 * The entries of a run that the source did not hold up to entry {@code upTo}, in
	 * their order.
	 */
	List<JournalEntry> unstored(JournalStore.Source source, long upTo, List<JournalEntry> run) {
		Map<String, Set<String>> stored = new HashMap<>();
		List<JournalEntry> unstored = new ArrayList<>();
		for (JournalEntry entry : run) {
			if (source.prunedBefore() != null && !entry.time().isAfter(source.prunedBefore())) {
				continue;
			}
			Set<String> ofRef = stored.computeIfAbsent(entry.refName(), (ref) -> stored(source.id(), ref, upTo));
			if (!ofRef.contains(key(entry.transaction(), entry.newValue()))) {
				unstored.add(entry);
			}
		}
		return unstored;
	}

	private Set<String> stored(long source, String ref, long upTo) {
		return new HashSet<>(this.jdbc
			.sql("SELECT transaction_id, new_value FROM refstore_journal_entry WHERE source_id = ? AND ref_key = ?"
					+ " AND ref_name = ? AND id <= ?")
			.params(source, JournalStore.refKey(ref), ref, upTo)
			.query((rs, row) -> key(rs.getString("transaction_id"), rs.getString("new_value")))
			.list());
	}

	private static String key(String transaction, String newValue) {
		return transaction + '\t' + newValue;
	}

}
