package io.refstore.core.reftable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.eclipse.jgit.internal.storage.file.FileReftableStack;
import org.eclipse.jgit.internal.storage.reftable.LogCursor;
import org.eclipse.jgit.internal.storage.reftable.Reftable;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.PersonIdent;

import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.reftable.format.LogRecord;
import io.refstore.core.reftable.format.MergedTable;
import io.refstore.core.reftable.format.RecordCursor;
import io.refstore.core.reftable.format.RefRecord;
import io.refstore.core.reftable.format.ReftableReader;

/**
 * Test tool: a reftable stack as text lines, one per ref record and one per log record,
 * made the same way from refstore's reader, from JGit's reader and from git's output, so
 * that any two views compare line for line.
 *
 * <p>
 * Record lines carry the update index: {@code name@index id [^peeled]},
 * {@code name@index -> target}, and for logs
 * {@code name@index old new name <email> time tz|message}. The time zone is the raw
 * stored number: git and refstore store {@code +0530} as 530 (decimal HHMM), JGit stores
 * and reads minutes; comparing the raw numbers checks that both readers see the same
 * bytes, and the tests that care about the meaning say so.
 */
final class StackViews {

	private StackViews() {
	}

	/** Every live ref record of refstore's merged view, in key order. */
	static List<String> refRecords(MergedTable merged) throws IOException {
		return refRecords(merged.allRefs(false), merged.hashAlgorithm());
	}

	/**
	 * Every record of the cursor, tombstones as {@code name@index deleted}; closes the
	 * cursor.
	 */
	static List<String> refRecords(RecordCursor<RefRecord> cursor, HashAlgorithm hash) throws IOException {
		List<String> out = new ArrayList<>();
		try (cursor) {
			while (cursor.next()) {
				RefRecord rec = cursor.record();
				StringBuilder line = new StringBuilder(rec.name()).append('@').append(rec.updateIndex()).append(' ');
				if (rec.isDeletion()) {
					line.append("deleted");
				}
				else if (rec.valueType() == RefRecord.SYMREF) {
					line.append("-> ")
						.append(new String(rec.targetBuffer(), 0, rec.targetLength(), StandardCharsets.UTF_8));
				}
				else {
					line.append(hex(rec.idBuffer(), hash));
					if (rec.valueType() == RefRecord.VALUE_PEELED) {
						line.append(" ^").append(hex(rec.peeledBuffer(), hash));
					}
				}
				out.add(line.toString());
			}
		}
		return out;
	}

	/**
	 * Every live log record of refstore's merged view (existence markers included), in
	 * key order.
	 */
	static List<String> logRecords(MergedTable merged) throws IOException {
		return logRecords(merged.allLogs(false), merged.hashAlgorithm());
	}

	/**
	 * Every record of the cursor, tombstones as {@code name@index deleted}; closes the
	 * cursor.
	 */
	static List<String> logRecords(RecordCursor<LogRecord> cursor, HashAlgorithm hash) throws IOException {
		List<String> out = new ArrayList<>();
		try (cursor) {
			while (cursor.next()) {
				LogRecord log = cursor.record();
				if (log.isDeletion()) {
					out.add(log.refName() + "@" + log.updateIndex() + " deleted");
					continue;
				}
				out.add(logLine(log.refName(), log.updateIndex(), hex(log.oldIdBuffer(), hash),
						hex(log.newIdBuffer(), hash), log.committerName(), log.email(), log.time(), log.tzOffset(),
						log.message()));
			}
		}
		return out;
	}

	/**
	 * {@link #refRecords} as JGit's reader sees them; tombstones come only if
	 * {@code table} was told to include deletions.
	 */
	static List<String> refRecords(Reftable table) throws IOException {
		List<String> out = new ArrayList<>();
		try (org.eclipse.jgit.internal.storage.reftable.RefCursor refs = table.allRefs()) {
			while (refs.next()) {
				out.add(refs.wasDeleted() ? refs.getRef().getName() + "@" + refs.getRef().getUpdateIndex() + " deleted"
						: jgitRefLine(refs.getRef()));
			}
		}
		return out;
	}

	static String jgitRefLine(org.eclipse.jgit.lib.Ref ref) {
		StringBuilder line = new StringBuilder(ref.getName()).append('@').append(ref.getUpdateIndex()).append(' ');
		if (ref.isSymbolic()) {
			line.append("-> ").append(ref.getTarget().getName());
		}
		else {
			line.append(ref.getObjectId().name());
			if (ref.getPeeledObjectId() != null) {
				line.append(" ^").append(ref.getPeeledObjectId().name());
			}
		}
		return line.toString();
	}

	/**
	 * {@link #logRecords} as JGit's reader sees them (JGit gives a tombstone no entry).
	 */
	static List<String> logRecords(Reftable table) throws IOException {
		List<String> out = new ArrayList<>();
		try (LogCursor logs = table.allLogs()) {
			while (logs.next()) {
				org.eclipse.jgit.lib.ReflogEntry entry = logs.getReflogEntry();
				if (entry == null) {
					out.add(logs.getRefName() + "@" + logs.getUpdateIndex() + " deleted");
					continue;
				}
				PersonIdent who = entry.getWho();
				out.add(logLine(logs.getRefName(), logs.getUpdateIndex(), entry.getOldId().name(),
						entry.getNewId().name(), who.getName(), who.getEmailAddress(),
						who.getWhenAsInstant().getEpochSecond(), who.getTimeZoneOffset(), entry.getComment()));
			}
		}
		return out;
	}

	private static String logLine(String ref, long index, String oldId, String newId, String name, String email,
			long time, int tz, String message) {
		return ref + "@" + index + " " + oldId + " " + newId + " " + name + " <" + email + "> " + time + " " + tz + "|"
				+ message;
	}

	/**
	 * refstore's merged view of the stack in {@code stackDir}, reading
	 * {@code tables.list} itself.
	 */
	static MergedTable openStack(Path stackDir) throws IOException {
		List<ReftableReader> readers = new ArrayList<>();
		for (String line : Files.readAllLines(stackDir.resolve(ReftableStack.TABLES_LIST))) {
			if (!line.isEmpty()) {
				readers.add(ReftableReader.open(FileBlockSource.open(stackDir.resolve(line))));
			}
		}
		return new MergedTable(readers);
	}

	static void close(MergedTable merged) throws IOException {
		for (ReftableReader reader : merged.tables()) {
			reader.close();
		}
	}

	/**
	 * JGit's own stack over {@code stackDir} (it reads {@code tables.list} its way); the
	 * caller closes it.
	 */
	static FileReftableStack openJGitStack(Path stackDir) throws IOException {
		return new FileReftableStack(stackDir.toFile(), () -> {
		}, Config::new);
	}

	/**
	 * The refs of a store through the {@link RefStore} API, root refs included:
	 * {@code name id [^peeled]}.
	 */
	static List<String> refs(RefStore store) throws IOException {
		List<String> out = new ArrayList<>();
		try (RefCursor cursor = store.refs(RefQuery.ALL.withRootRefs())) {
			while (cursor.next()) {
				out.add(refLine(cursor.ref()));
			}
		}
		return out;
	}

	static String refLine(Ref ref) {
		if (ref instanceof SymbolicRef symbolic) {
			return symbolic.name() + " -> " + symbolic.target();
		}
		DirectRef direct = (DirectRef) ref;
		return direct.name() + " " + direct.id().name()
				+ ((direct.peeled() != null) ? " ^" + direct.peeled().name() : "");
	}

	/** The same lines from JGit's {@code RefDatabase} of a repository. */
	static List<String> refs(org.eclipse.jgit.lib.Repository repository) throws IOException {
		List<String> out = new ArrayList<>();
		for (org.eclipse.jgit.lib.Ref ref : repository.getRefDatabase().getRefs()) {
			if (ref.isSymbolic()) {
				out.add(ref.getName() + " -> " + ref.getTarget().getName());
			}
			else {
				out.add(ref.getName() + " " + ref.getObjectId().name()
						+ ((ref.getPeeledObjectId() != null) ? " ^" + ref.getPeeledObjectId().name() : ""));
			}
		}
		return out;
	}

	/**
	 * What {@code git show-ref -d --head} prints, computed from the store: HEAD and every
	 * ref under {@code refs/} resolved to its object, and {@code ^{}} lines from the
	 * stored peeled values.
	 */
	static String showRef(RefStore store) throws IOException {
		StringBuilder out = new StringBuilder();
		store.resolve("HEAD").ifPresent((head) -> out.append(head.id().name()).append(" HEAD\n"));
		try (RefCursor cursor = store.refs(RefQuery.ALL)) {
			while (cursor.next()) {
				String name = cursor.name();
				DirectRef direct = cursor.isSymbolic() ? store.resolve(name).orElse(null) : (DirectRef) cursor.ref();
				if (direct == null) {
					continue;
				}
				out.append(direct.id().name()).append(' ').append(name).append('\n');
				if (direct.peeled() != null) {
					out.append(direct.peeled().name()).append(' ').append(name).append("^{}\n");
				}
			}
		}
		return out.toString();
	}

	/**
	 * The format of {@link #reflog(RefStore, String)}, to give to
	 * {@code git reflog show}.
	 */
	static final String REFLOG_FORMAT = "--format=%gD%x09%H%x09%gn%x09%ge%x09%gs";

	/**
	 * What {@code git reflog show --date=raw} with {@link #REFLOG_FORMAT} prints for
	 * {@code name}, computed from the store: newest first, without entries whose new
	 * value is null (git's reflog walk shows none).
	 */
	static List<String> reflog(RefStore store, String name) throws IOException {
		List<ReflogEntry> entries = new ArrayList<>(store.reflog(name));
		java.util.Collections.reverse(entries);
		List<String> out = new ArrayList<>();
		for (ReflogEntry entry : entries) {
			if (entry.newId().isZero()) {
				continue;
			}
			out.add(name + "@{" + entry.who().epochSeconds() + " " + entry.who().tzText() + "}\t" + entry.newId().name()
					+ "\t" + entry.who().name() + "\t" + entry.who().email() + "\t" + entry.message());
		}
		return out;
	}

	/** The lines of a command's output; none for empty output. */
	static List<String> lines(String text) {
		return text.isEmpty() ? List.of() : List.of(text.split("\n"));
	}

	static String hex(byte[] raw, HashAlgorithm hash) {
		return HexFormat.of().formatHex(raw, 0, hash.rawLength());
	}

}
