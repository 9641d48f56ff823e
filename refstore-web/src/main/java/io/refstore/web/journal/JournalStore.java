package io.refstore.web.journal;

import static io.refstore.web.system.Columns.instant;
import static io.refstore.web.system.Columns.utc;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import org.postgresql.PGConnection;
import org.postgresql.copy.PGCopyOutputStream;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.SQLExceptionTranslator;
import org.springframework.jdbc.support.SQLStateSQLExceptionTranslator;
import org.springframework.stereotype.Component;

import io.refstore.core.journal.DeletedRefs;
import io.refstore.core.journal.JournalEntry;

/**
 * The {@code refstore_journal_entry} and {@code refstore_journal_source} tables: the
 * entries ingested from each repository's journal file, in the file's order, and how far
 * each file has been read. The methods that write join the caller's transaction.
 * Thread-safe.
 */
@Component
class JournalStore {

	/** The longest ref name prefix the index holds (a column of its own). */
	static final int REF_KEY = 512;

	private static final String ENTRIES = "SELECT * FROM refstore_journal_entry";

	/** Entries with their repository's name, for queries across repositories. */
	private static final String FLEET_ENTRIES = "SELECT e.*, s.repository FROM refstore_journal_entry e"
			+ " JOIN refstore_journal_source s ON s.id = e.source_id";

	/** The columns an insert fills, in the order of its values. */
	private static final String COLUMNS = "source_id, transaction_id, recorded_at, old_value, new_value, deletion,"
			+ " ref_name, ref_key, writer, identity, old_object, new_object";

	private static final SQLExceptionTranslator TRANSLATOR = new SQLStateSQLExceptionTranslator();

	private final JdbcClient jdbc;

	private final JdbcTemplate batch;

	private final DataSource dataSource;

	JournalStore(JdbcClient jdbc, JdbcTemplate batch) {
		this.jdbc = jdbc;
		this.batch = batch;
		this.dataSource = batch.getDataSource();
	}

	/**
	 * How far a repository's journal file has been read.
	 *
	 * @param id what its entries name it by
	 * @param tailDigest the SHA-256 (hex) of the at most 64 bytes before {@code offset},
	 * or {@code null} before the first entry
	 * @param offset the bytes of complete lines read
	 * @param entries the entries ingested
	 * @param skipped the damaged lines skipped
	 * @param ingestedAt when entries were last ingested, or {@code null}
	 * @param maxAgeDays how many days of entries this repository keeps, or {@code null}
	 * for the default
	 * @param maxEntries how many entries it keeps, or {@code null} for the default
	 * @param prunedBefore before when retention pruned entries, or {@code null}
	 * @param replayTo the highest entry id the source held when its file began to be read
	 * again from its first byte, or {@code null} if no such reading is under way
	 * ({@link JournalReplay})
	 */
	record Source(long id, String tailDigest, long offset, long entries, long skipped, Instant ingestedAt,
			Integer maxAgeDays, Long maxEntries, Instant prunedBefore, Long replayTo) {

	}

	/**
	 * Every repository's journal in the database, in figures.
	 *
	 * @param repositories repositories with entries
	 * @param entries entries kept
	 * @param oldest the oldest entry's time, or {@code null}
	 */
	public record Totals(long repositories, long entries, Instant oldest) {

	}

	/**
	 * Makes the repository's source row if it has none; in a transaction of its own,
	 * since a duplicate insert aborts PostgreSQL's transaction.
	 */
	void ensureSource(String repository) {
		if (source(repository).isPresent()) {
			return;
		}
		try {
			this.jdbc
				.sql("INSERT INTO refstore_journal_source (repository, file_offset, entries, skipped)"
						+ " VALUES (?, 0, 0, 0)")
				.params(repository)
				.update();
		}
		catch (DuplicateKeyException ex) {
			// another instance made it meanwhile
		}
	}

	Optional<Source> source(String repository) {
		return this.jdbc.sql("SELECT * FROM refstore_journal_source WHERE repository = ?")
			.params(repository)
			.query(JournalStore::source)
			.optional();
	}

	/**
	 * The repository's source row, locked until the caller's transaction ends, so that
	 * two ingestions of one file (two instances) take turns.
	 */
	Source lockSource(String repository) {
		return this.jdbc.sql("SELECT * FROM refstore_journal_source WHERE repository = ? FOR UPDATE")
			.params(repository)
			.query(JournalStore::source)
			.single();
	}

	void advance(long source, String tailDigest, long offset, long entries, long skipped, Instant at, Long replayTo) {
		this.jdbc
			.sql("UPDATE refstore_journal_source SET tail_digest = ?, file_offset = ?, entries = ?, skipped = ?,"
					+ " ingested_at = ?, replay_to = ? WHERE id = ?")
			.params(tailDigest, offset, entries, skipped, utc(at), replayTo, source)
			.update();
	}

	/** Sets a repository's retention ({@code null}: the default). */
	void retention(String repository, Integer maxAgeDays, Long maxEntries) {
		this.jdbc.sql("UPDATE refstore_journal_source SET max_age_days = ?, max_entries = ? WHERE repository = ?")
			.params(maxAgeDays, maxEntries, repository)
			.update();
	}

	/** Every source's repository, for the retention sweep. */
	List<String> repositories() {
		return this.jdbc.sql("SELECT repository FROM refstore_journal_source ORDER BY repository")
			.query(String.class)
			.list();
	}

	/**
	 * The id of the oldest entry a repository keeps whole from: the first recorded at or
	 * after {@code age} (if given), or the {@code entries}-th newest (if given),
	 * whichever is newer; 0 to keep every entry.
	 */
	long horizon(long source, Instant age, Long entries) {
		long horizon = 0;
		if (age != null) {
			Long id = this.jdbc
				.sql("SELECT MIN(id) FROM refstore_journal_entry WHERE source_id = ? AND recorded_at >= ?")
				.params(source, utc(age))
				.query(Long.class)
				.optional()
				.orElse(null);
			// none that new: every entry is older
			horizon = (id != null) ? id : Long.MAX_VALUE;
		}
		if (entries != null) {
			Long id = this.jdbc
				.sql("SELECT id FROM refstore_journal_entry WHERE source_id = ? ORDER BY id DESC OFFSET ? ROWS"
						+ " FETCH FIRST 1 ROWS ONLY")
				.params(source, Math.max(0, entries - 1))
				.query(Long.class)
				.optional()
				.orElse(null);
			if (id != null) {
				horizon = Math.max(horizon, id);
			}
		}
		return horizon;
	}

	/**
	 * Deletes a source's entries older than id {@code horizon} that a newer entry of the
	 * same ref, also older, supersedes: each ref keeps its newest change before the
	 * horizon, so a ref's value at any moment from the horizon on is still known. A
	 * change that set a value is superseded only by a newer one that names a value (sets
	 * one, or reports its old one): so a ref whose newest older change is a deletion that
	 * reported no old value ({@code git branch -D}) keeps the change that set the value
	 * it held, and can still be restored at it ({@link #lastValue}). Records the
	 * horizon's time as the source's {@code pruned_before}.
	 * @return how many entries were deleted
	 */
	int prune(long source, long horizon) {
		if (horizon <= 0) {
			return 0;
		}
		int deleted = this.jdbc
			.sql("DELETE FROM refstore_journal_entry e WHERE e.source_id = ? AND e.id < ?"
					+ " AND EXISTS (SELECT 1 FROM refstore_journal_entry l WHERE l.source_id = e.source_id"
					+ " AND l.ref_key = e.ref_key AND l.ref_name = e.ref_name AND l.id > e.id AND l.id < ?"
					+ " AND (e.deletion = TRUE OR l.deletion = FALSE OR l.old_object IS NOT NULL"
					+ " OR l.old_value LIKE 'ref:%'))")
			.params(source, horizon, horizon)
			.update();
		if (deleted > 0) {
			this.jdbc
				.sql("UPDATE refstore_journal_source SET pruned_before = (SELECT COALESCE(MAX(recorded_at),"
						+ " CURRENT_TIMESTAMP) FROM refstore_journal_entry WHERE source_id = ? AND id < ?)"
						+ " WHERE id = ?")
				.params(source, horizon, source)
				.update();
		}
		return deleted;
	}

	/** Every repository's journal in figures. */
	Totals totals() {
		return this.jdbc
			.sql("SELECT COUNT(DISTINCT source_id) AS repositories, COUNT(*) AS entries,"
					+ " MIN(recorded_at) AS oldest FROM refstore_journal_entry")
			.query((rs, row) -> new Totals(rs.getLong("repositories"), rs.getLong("entries"), instant(rs, "oldest")))
			.single();
	}

	/**
	 * Records that a source's file was set aside whole, so the next read starts a new
	 * file from its first byte.
	 */
	void newFile(long source) {
		this.jdbc.sql("UPDATE refstore_journal_source SET tail_digest = NULL, file_offset = 0 WHERE id = ?")
			.params(source)
			.update();
	}

	/** The id of a repository's source, or -1 if it has none (nothing was ingested). */
	private long sourceId(String repository) {
		return source(repository).map(Source::id).orElse(-1L);
	}

	/**
	 * Forces what the database has committed to the disk, where a commit does not: H2
	 * writes each commit to its file ({@code WRITE_DELAY=0}) but leaves forcing it to the
	 * operating system, so after a power cut it may hold an older state; its
	 * {@code CHECKPOINT SYNC} forces it. That forces the database file's content, not its
	 * name: H2 never syncs the directory it created the file in, so a power cut before
	 * the file system committed that name on its own left no database at all (an empty
	 * one was created at the restart, and the next compaction renamed the file holding
	 * the entries over the one set aside: a fault-injecting file system, issue 39), hence
	 * the directory is forced too. PostgreSQL forces each commit (with its default
	 * {@code synchronous_commit}): nothing to do there.
	 */
	void forceCommitted() {
		Connection connection = DataSourceUtils.getConnection(this.dataSource);
		try {
			if (connection.isWrapperFor(PGConnection.class)) {
				return;
			}
		}
		catch (SQLException ex) {
			throw TRANSLATOR.translate("CHECKPOINT SYNC", null, ex);
		}
		finally {
			DataSourceUtils.releaseConnection(connection, this.dataSource);
		}
		this.jdbc.sql("CHECKPOINT SYNC").update();
		// the database's file name without its extension; null for one in memory
		String path = this.jdbc.sql("CALL DATABASE_PATH()").query(String.class).optional().orElse(null);
		if (path != null) {
			// fsync(2) of the directory, opened for reading (the web layer keeps
			// off core's storage internals, WebArchitectureTest)
			try (FileChannel directory = FileChannel.open(Path.of(path).toAbsolutePath().getParent(),
					StandardOpenOption.READ)) {
				directory.force(true);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}

	/**
	 * Appends entries of a source, in order, in the caller's transaction, as the caller
	 * reads them: on PostgreSQL streamed into one {@code COPY} on the transaction's
	 * connection (two to three times the rows a second of batched INSERTs,
	 * docs/benchmarks.md), sent 64 KiB at a time so that the server stores rows while the
	 * next ones are read and formatted; elsewhere as one JDBC batch at
	 * {@link Appender#finish()}. Either way the rows commit or roll back with the rest of
	 * the transaction (the ingester's new offset). The caller closes it; closed before
	 * {@link Appender#finish()}, it sends nothing more and cancels the {@code COPY}.
	 */
	Appender appender(long source) {
		Connection connection = DataSourceUtils.getConnection(this.dataSource);
		try {
			if (connection.isWrapperFor(PGConnection.class)) {
				return new CopyAppender(connection, source);
			}
		}
		catch (SQLException ex) {
			DataSourceUtils.releaseConnection(connection, this.dataSource);
			throw TRANSLATOR.translate("COPY refstore_journal_entry", null, ex);
		}
		DataSourceUtils.releaseConnection(connection, this.dataSource);
		return new BatchAppender(source);
	}

	/** Where a run's entries go, one at a time. */
	interface Appender extends AutoCloseable {

		void add(JournalEntry entry);

		/** Stores every entry added; nothing can be added after. */
		void finish();

		@Override
		void close();

	}

	/** Entries as one JDBC batch of INSERTs, sent when the run is finished. */
	private final class BatchAppender implements Appender {

		private final long source;

		private final List<Object[]> rows = new ArrayList<>();

		BatchAppender(long source) {
			this.source = source;
		}

		@Override
		public void add(JournalEntry entry) {
			this.rows.add(new Object[] { this.source, entry.transaction(), utc(entry.time()), entry.oldValue(),
					entry.newValue(), DeletedRefs.isZero(entry.newValue()), entry.refName(), refKey(entry.refName()),
					entry.writer().word(), entry.identity(), object(entry.oldValue()), object(entry.newValue()) });
		}

		@Override
		public void finish() {
			if (!this.rows.isEmpty()) {
				JournalStore.this.batch.batchUpdate("INSERT INTO refstore_journal_entry (" + COLUMNS
						+ ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", this.rows);
			}
			this.rows.clear();
		}

		@Override
		public void close() {
			this.rows.clear();
		}

	}

	/**
	 * Entries streamed to PostgreSQL's {@code COPY ... FROM STDIN} (text format), opened
	 * at the first entry: each row gets its id from the identity in the order sent, as
	 * the INSERTs did.
	 */
	private final class CopyAppender implements Appender {

		private static final int BUFFER = 64 * 1024;

		private final Connection connection;

		private final long source;

		private final StringBuilder row = new StringBuilder(512);

		private PGCopyOutputStream copy;

		private Writer out;

		CopyAppender(Connection connection, long source) {
			this.connection = connection;
			this.source = source;
		}

		@Override
		public void add(JournalEntry entry) {
			StringBuilder rows = this.row;
			rows.setLength(0);
			rows.append(this.source).append('\t');
			copyText(rows, entry.transaction()).append('\t');
			copyTime(rows, entry.time()).append('\t');
			copyText(rows, entry.oldValue()).append('\t');
			copyText(rows, entry.newValue()).append('\t');
			rows.append(DeletedRefs.isZero(entry.newValue()) ? 't' : 'f').append('\t');
			copyText(rows, entry.refName()).append('\t');
			copyText(rows, refKey(entry.refName())).append('\t');
			copyText(rows, entry.writer().word()).append('\t');
			copyText(rows, entry.identity()).append('\t');
			copyText(rows, object(entry.oldValue())).append('\t');
			copyText(rows, object(entry.newValue())).append('\n');
			try {
				if (this.copy == null) {
					this.copy = new PGCopyOutputStream(this.connection.unwrap(PGConnection.class),
							"COPY refstore_journal_entry (" + COLUMNS + ") FROM STDIN", BUFFER);
					this.out = new OutputStreamWriter(this.copy, StandardCharsets.UTF_8);
				}
				this.out.append(rows);
			}
			catch (SQLException ex) {
				throw TRANSLATOR.translate("COPY refstore_journal_entry", null, ex);
			}
			catch (IOException ex) {
				throw copyFailed(ex);
			}
		}

		@Override
		public void finish() {
			if (this.copy == null) {
				return;
			}
			try {
				this.out.flush();
				this.copy.endCopy();
			}
			catch (SQLException ex) {
				throw TRANSLATOR.translate("COPY refstore_journal_entry", null, ex);
			}
			catch (IOException ex) {
				throw copyFailed(ex);
			}
			finally {
				this.copy = null;
			}
		}

		@Override
		public void close() {
			try {
				if (this.copy != null && this.copy.isActive()) {
					this.copy.cancelCopy();
				}
			}
			catch (SQLException ex) {
				// the transaction rolls back anyway; the connection says why
			}
			finally {
				this.copy = null;
				DataSourceUtils.releaseConnection(this.connection, JournalStore.this.dataSource);
			}
		}

		/**
		 * The driver reports a failed COPY write as an IOException whose cause is the
		 * SQLException.
		 */
		private RuntimeException copyFailed(IOException ex) {
			if (ex.getCause() instanceof SQLException sql) {
				return TRANSLATOR.translate("COPY refstore_journal_entry", null, sql);
			}
			return new UncheckedIOException(ex);
		}

	}

	/**
	 * Appends a value as a field of COPY's text format: {@code \N} for {@code null}, a
	 * backslash, tab, newline or carriage return escaped with a backslash.
	 */
	private static StringBuilder copyText(StringBuilder out, String value) {
		if (value == null) {
			return out.append("\\N");
		}
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			switch (c) {
				case '\\' -> out.append("\\\\");
				case '\t' -> out.append("\\t");
				case '\n' -> out.append("\\n");
				case '\r' -> out.append("\\r");
				default -> out.append(c);
			}
		}
		return out;
	}

	/**
	 * Appends a time as a {@code timestamptz} in UTC, rounded to the microsecond
	 * (PostgreSQL's precision) half up, as the JDBC driver rounds what the INSERTs sent.
	 */
	private static StringBuilder copyTime(StringBuilder out, Instant time) {
		// ISO 8601 with its zone (2026-12-05T13:59:07.620588Z), which PostgreSQL reads
		return out.append(time.plusNanos(500).truncatedTo(ChronoUnit.MICROS));
	}

	/**
	 * A repository's entries, newest first, below id {@code before} (0: from the newest).
	 * @param ref only this ref, or {@code null}
	 * @param prefix only refs whose names start with this, or empty
	 * @param writer only this writer's word, or {@code null}
	 */
	List<JournalEntryView> timeline(String repository, String ref, String prefix, String writer, long before,
			int limit) {
		Query query = new Query(ENTRIES + " e WHERE e.source_id = ?", sourceId(repository));
		if (ref != null) {
			query.and("e.ref_key = ? AND e.ref_name = ?", refKey(ref), ref);
		}
		query.filters(prefix, writer, before);
		return this.jdbc.sql(query.newestFirst(limit)).params(query.params).query(entries(repository)).list();
	}

	/**
	 * Entries of every repository, newest first, below id {@code before} (0: from the
	 * newest).
	 * @param object only entries whose old or new value is this object id, or
	 * {@code null}
	 * @param prefix only refs whose names start with this, or empty
	 * @param writer only this writer's word, or {@code null}
	 * @param deletions only deletions
	 */
	List<JournalEntryView> fleet(String object, String prefix, String writer, boolean deletions, long before,
			int limit) {
		Query query = new Query(FLEET_ENTRIES + " WHERE 1 = 1");
		if (object != null) {
			query.and("(e.old_object = ? OR e.new_object = ?)", object, object);
		}
		if (deletions) {
			query.and("e.deletion = TRUE");
		}
		query.filters(prefix, writer, before);
		return this.jdbc.sql(query.newestFirst(limit)).params(query.params).query(entries(null)).list();
	}

	/**
	 * A repository's refs whose newest entry is a deletion, newest deletion first, below
	 * id {@code before} (0: from the newest): each with that deletion.
	 * @param prefix only refs whose names start with this, or empty
	 */
	List<JournalEntryView> lastDeletions(String repository, String prefix, long before, int limit) {
		Query query = new Query(ENTRIES + " e WHERE e.source_id = ? AND e.deletion = TRUE", sourceId(repository));
		query.filters(prefix, null, before);
		query.and("NOT EXISTS (SELECT 1 FROM refstore_journal_entry l WHERE l.source_id = e.source_id"
				+ " AND l.ref_key = e.ref_key AND l.ref_name = e.ref_name AND l.id > e.id)");
		return this.jdbc.sql(query.newestFirst(limit)).params(query.params).query(entries(repository)).list();
	}

	/**
	 * The id of a repository's newest entry recorded at or before {@code at}, or 0 if
	 * none: the entries up to it are the journal as it was then.
	 */
	long boundary(String repository, Instant at) {
		Long id = this.jdbc.sql("SELECT MAX(id) FROM refstore_journal_entry WHERE source_id = ? AND recorded_at <= ?")
			.params(sourceId(repository), utc(at))
			.query(Long.class)
			.optional()
			.orElse(null);
		return (id == null) ? 0 : id;
	}

	/**
	 * Each ref's newest entry up to id {@code boundary} ({@code upTo}), or its oldest
	 * after it (not {@code upTo}), of refs whose names start with {@code prefix}.
	 */
	Map<String, JournalEntryView> aroundBoundary(String repository, String prefix, long boundary, boolean upTo) {
		Query query = new Query(ENTRIES + " e WHERE e.source_id = ? AND e.id " + (upTo ? "<=" : ">") + " ?",
				sourceId(repository), boundary);
		query.filters(prefix, null, 0);
		query.and("NOT EXISTS (SELECT 1 FROM refstore_journal_entry l WHERE l.source_id = e.source_id"
				+ " AND l.ref_key = e.ref_key AND l.ref_name = e.ref_name AND "
				+ (upTo ? "l.id > e.id AND l.id <= ?" : "l.id < e.id AND l.id > ?") + ")", boundary);
		Map<String, JournalEntryView> entries = new HashMap<>();
		this.jdbc.sql(query.sql.toString())
			.params(query.params)
			.query(entries(repository))
			.list()
			.forEach((entry) -> entries.put(entry.ref(), entry));
		return entries;
	}

	/** A query of entries ({@code e}) and its parameters, built a condition at a time. */
	private static final class Query {

		private final StringBuilder sql;

		private final List<Object> params = new ArrayList<>();

		Query(String select, Object... params) {
			this.sql = new StringBuilder(select);
			this.params.addAll(List.of(params));
		}

		void and(String condition, Object... params) {
			this.sql.append(" AND ").append(condition);
			this.params.addAll(List.of(params));
		}

		/** The filters every query shares; each is left out when not given. */
		void filters(String prefix, String writer, long before) {
			if (!prefix.isEmpty()) {
				and("e.ref_key LIKE ? ESCAPE '!' AND e.ref_name LIKE ? ESCAPE '!'", like(refKey(prefix)), like(prefix));
			}
			if (writer != null) {
				and("e.writer = ?", writer);
			}
			if (before > 0) {
				and("e.id < ?", before);
			}
		}

		String newestFirst(int limit) {
			return this.sql + " ORDER BY e.id DESC FETCH FIRST " + limit + " ROWS ONLY";
		}

	}

	/**
	 * The newest value a ref is known to have held up to entry {@code upTo}: the new
	 * value of its newest change that set one, or the old value of a deletion that
	 * reported it (git reports none for {@code branch -D}).
	 * @return empty if no entry up to there names a value
	 */
	Optional<String> lastValue(String repository, String ref, long upTo) {
		List<JournalEntryView> entries = this.jdbc
			.sql(ENTRIES + " WHERE source_id = ? AND ref_key = ? AND ref_name = ? AND id <= ?"
					+ " ORDER BY id DESC FETCH FIRST 100 ROWS ONLY")
			.params(sourceId(repository), refKey(ref), ref, upTo)
			.query(entries(repository))
			.list();
		for (JournalEntryView entry : entries) {
			String value = entry.deletion() ? entry.oldValue() : entry.newValue();
			if (!DeletedRefs.isZero(value)) {
				return Optional.of(value);
			}
		}
		return Optional.empty();
	}

	Optional<JournalEntryView> entry(String repository, long id) {
		return this.jdbc.sql(ENTRIES + " WHERE source_id = ? AND id = ?")
			.params(sourceId(repository), id)
			.query(entries(repository))
			.optional();
	}

	/** A value as an object id column: {@code null} for none or a symbolic ref. */
	private static String object(String value) {
		return (value.startsWith("ref:") || DeletedRefs.isZero(value)) ? null : value;
	}

	static String refKey(String ref) {
		return (ref.length() > REF_KEY) ? ref.substring(0, REF_KEY) : ref;
	}

	/** A LIKE pattern for names starting with {@code prefix}, escaped with {@code !}. */
	private static String like(String prefix) {
		StringBuilder pattern = new StringBuilder(prefix.length() + 1);
		for (int i = 0; i < prefix.length(); i++) {
			char c = prefix.charAt(i);
			if (c == '%' || c == '_' || c == '!') {
				pattern.append('!');
			}
			pattern.append(c);
		}
		return pattern.append('%').toString();
	}

	private static Source source(ResultSet rs, int row) throws SQLException {
		return new Source(rs.getLong("id"), rs.getString("tail_digest"), rs.getLong("file_offset"),
				rs.getLong("entries"), rs.getLong("skipped"), instant(rs, "ingested_at"),
				(Integer) rs.getObject("max_age_days", Integer.class), (Long) rs.getObject("max_entries", Long.class),
				instant(rs, "pruned_before"), (Long) rs.getObject("replay_to", Long.class));
	}

	/**
	 * Maps rows to entries of {@code repository}, or, if {@code null}, of the repository
	 * the row names (a query across repositories).
	 */
	private static RowMapper<JournalEntryView> entries(String repository) {
		return (rs, row) -> new JournalEntryView(rs.getLong("id"),
				(repository != null) ? repository : rs.getString("repository"), instant(rs, "recorded_at"),
				rs.getString("ref_name"), rs.getString("old_value"), rs.getString("new_value"),
				rs.getBoolean("deletion"), rs.getString("writer"), rs.getString("identity"),
				rs.getString("transaction_id"));
	}

}
