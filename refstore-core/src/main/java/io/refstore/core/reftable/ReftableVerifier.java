package io.refstore.core.reftable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.VerifyProblem;

/**
 * Consistency checks of the reftable backend. Per table: its name, every block decoded
 * (which checks the structure: block headers, restart tables, varints, key order), ref
 * update indices within the table's range, log update indices not above it, ref names.
 * Over the merged stack: every live value names an object that exists (a commit for a
 * branch), every symbolic target is a valid name.
 */
final class ReftableVerifier {

	/**
	 * git's test of a table name: three hex numbers (each may start with {@code 0x})
	 * joined by {@code -}, then {@code .ref} or {@code .log}. JGit's names
	 * ({@code 000000000001-000000000002-0a1b2c3d.ref}, {@code .log} for log-only tables)
	 * pass as well as git's own.
	 */
	private static final Pattern TABLE_NAME = Pattern
		.compile("(?:0[xX])?[0-9a-fA-F]+-(?:0[xX])?[0-9a-fA-F]+-(?:0[xX])?[0-9a-fA-F]+\\.(?:ref|log)");

	private final ReftableRefStore store;

	private final List<VerifyProblem> problems = new ArrayList<>();

	ReftableVerifier(ReftableRefStore store) {
		this.store = store;
	}

	List<VerifyProblem> verify() throws IOException {
		ReftableStack.Snapshot snapshot;
		try {
			snapshot = this.store.stack.snapshot();
		}
		catch (CorruptRefStoreException ex) {
			problem(true, relative(ex), ex.position(), "badReftable", ex.getMessage());
			return this.problems;
		}
		try (snapshot) {
			long previousMax = 0;
			for (ReftableStack.Table table : snapshot.tables) {
				if (!TABLE_NAME.matcher(table.name).matches()) {
					problem(false, "reftable/" + table.name, -1, "badReftableTableName", "invalid reftable table name");
				}
				if (Long.compareUnsigned(table.reader.minUpdateIndex(), previousMax) <= 0 && previousMax > 0) {
					problem(true, "reftable/" + table.name, -1, "badReftableUpdateIndex",
							"update indices " + table.reader.minUpdateIndex() + ".." + table.reader.maxUpdateIndex()
									+ " do not follow the previous table's " + previousMax);
				}
				previousMax = table.reader.maxUpdateIndex();
				checkTable(table);
			}
			if (this.problems.stream().noneMatch(VerifyProblem::error)) {
				checkValues(snapshot);
			}
		}
		return this.problems;
	}

	private void problem(boolean error, String where, long position, String check, String message) {
		this.problems.add(new VerifyProblem(error, where, position, check, message));
	}

	private static String relative(CorruptRefStoreException ex) {
		return "reftable/" + ex.file().getFileName();
	}

	private void checkTable(ReftableStack.Table table) {
		String where = "reftable/" + table.name;
		ReftableReader reader = table.reader;
		try (RecordCursor<RefRecord> refs = reader.allRefs()) {
			while (refs.next()) {
				RefRecord ref = refs.record();
				long index = ref.updateIndex();
				if (Long.compareUnsigned(index, reader.minUpdateIndex()) < 0
						|| Long.compareUnsigned(index, reader.maxUpdateIndex()) > 0) {
					problem(true, where, -1, "badReftableUpdateIndex", "ref '" + ref.name() + "' has update index "
							+ Long.toUnsignedString(index) + " outside the table's range");
				}
				if (RefName.violation(ref.nameBuffer(), 0, ref.nameLength(), true) != null) {
					problem(true, where, -1, "badRefName",
							"'" + RefName.printable(ref.name()) + "' is not a valid refname");
				}
			}
		}
		catch (CorruptRefStoreException ex) {
			problem(true, where, ex.position(), "badReftable", ex.getMessage());
			return;
		}
		catch (IOException ex) {
			problem(true, where, -1, "badReftable", ex.getMessage());
			return;
		}
		try (RecordCursor<LogRecord> logs = reader.allLogs()) {
			while (logs.next()) {
				if (Long.compareUnsigned(logs.record().updateIndex(), reader.maxUpdateIndex()) > 0) {
					problem(true, where, -1, "badReftableUpdateIndex", "log entry of '" + logs.record().refName()
							+ "' has an update index above the table's maximum");
				}
			}
		}
		catch (CorruptRefStoreException ex) {
			problem(true, where, ex.position(), "badReftable", ex.getMessage());
		}
		catch (IOException ex) {
			problem(true, where, -1, "badReftable", ex.getMessage());
		}
	}

	private void checkValues(ReftableStack.Snapshot snapshot) throws IOException {
		ObjectDatabase objects = this.store.options.objects();
		try (RecordCursor<RefRecord> refs = new MergedTable(snapshot.readers()).allRefs(false)) {
			while (refs.next()) {
				RefRecord ref = refs.record();
				String name = ref.name();
				if (ref.valueType() == RefRecord.SYMREF) {
					String target = new String(ref.targetBuffer(), 0, ref.targetLength(),
							java.nio.charset.StandardCharsets.UTF_8);
					if (!RefName.isValid(target, true)) {
						problem(true, name, -1, "badReferentName", "points to invalid refname '" + target + "'");
					}
					continue;
				}
				ObjectId id = ObjectId.fromRaw(this.store.hashAlgorithm(), ref.idBuffer(), 0);
				ObjectType type = objects.type(id);
				if (type == null) {
					problem(true, name, -1, "badRefOid", "points to missing object " + id.name());
				}
				else if (type != ObjectType.COMMIT && name.startsWith("refs/heads/")) {
					problem(true, name, -1, "badRefOid", "branch points to a " + type.gitName() + " " + id.name());
				}
				else if (ref.valueType() == RefRecord.VALUE_PEELED) {
					ObjectId stored = ObjectId.fromRaw(this.store.hashAlgorithm(), ref.peeledBuffer(), 0);
					ObjectId actual = objects.peel(id);
					if (!stored.equals(actual)) {
						problem(true, name, -1, "badRefPeeled",
								"peels to " + ((actual != null) ? actual.name() : "nothing (not a tag)")
										+ " but the table says " + stored.name());
					}
				}
			}
		}
	}

}
