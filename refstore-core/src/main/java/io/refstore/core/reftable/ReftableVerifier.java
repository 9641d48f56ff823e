package io.refstore.core.reftable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefCheck;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.Verification;
import io.refstore.core.reftable.format.LogRecord;
import io.refstore.core.reftable.format.MergedTable;
import io.refstore.core.reftable.format.RecordCursor;
import io.refstore.core.reftable.format.RefRecord;
import io.refstore.core.reftable.format.ReftableReader;

/**
 * git 2.55's consistency check of the reftable backend, finding for finding: per worktree
 * (the main one, then each linked one), every table's name, then every live ref of the
 * merged stack (no null object id; a symbolic target as git checks them). Then, when
 * asked, refstore's deeper checks of the main stack: every block of every table decoded
 * (block headers, restart tables, varints, key order), update indices within each table's
 * range and in the stack's order, ref names, and every value naming an object that exists
 * (a commit for a branch) with its right peeled value.
 *
 * <p>
 * Hand-written after git's {@code reftable_be_fsck}: its findings and wording are git's
 * behaviour.
 */
final class ReftableVerifier {

	private final ReftableRefStore store;

	private final Verification check;

	ReftableVerifier(ReftableRefStore store, Verification check) {
		this.store = store;
		this.check = check;
	}

	void verify() throws IOException {
		worktree(this.store.stack, null);
		Path common = this.store.options.stackDir().getParent();
		for (String id : Verification.linkedWorktrees(common)) {
			ReftableStack stack;
			try {
				stack = ReftableStack.open(common.resolve("worktrees").resolve(id).resolve("reftable"),
						this.store.hashAlgorithm(), this.store.options.stack());
			}
			catch (IOException | RuntimeException ex) {
				this.check.checking("Checking references consistency");
				this.check.failure("reftable stack for worktree '" + id + "' is broken");
				continue;
			}
			try {
				worktree(stack, id);
			}
			finally {
				stack.close();
			}
		}
		if (this.check.deep()) {
			deep();
		}
	}

	private void worktree(ReftableStack stack, String id) throws IOException {
		this.check.checking("Checking references consistency");
		String prefix = (id != null) ? "worktrees/" + id + "/" : "";
		try (ReftableStack.Snapshot snapshot = stack.snapshot()) {
			for (String name : snapshot.names()) {
				this.check.checking("Checking table: " + name);
				if (!isGitTableName(name)) {
					this.check.report(name, RefCheck.BAD_REFTABLE_TABLE_NAME, "invalid reftable table name");
				}
			}
			try (RecordCursor<RefRecord> refs = new MergedTable(snapshot.readers()).allRefs(false)) {
				while (refs.next()) {
					RefRecord ref = refs.record();
					String name = prefix + ref.name();
					if (ref.valueType() == RefRecord.SYMREF) {
						this.check.symref(name,
								new String(ref.targetBuffer(), 0, ref.targetLength(), StandardCharsets.UTF_8));
					}
					else {
						this.check.objectId(name, ObjectId.fromRaw(this.store.hashAlgorithm(), ref.idBuffer(), 0));
					}
				}
			}
			catch (CorruptRefStoreException ex) {
				// git's message names the main worktree by its missing id, as C's printf
				// does
				this.check.failure("could not read record for worktree '" + ((id != null) ? id : "(null)") + "'");
			}
		}
	}

	/**
	 * git's test of a table name: three hexadecimal numbers as C's {@code strtoull} reads
	 * them (spaces, a sign and {@code 0x} may lead; no digits at all pass; too large a
	 * number fails), joined by {@code -}, then {@code .ref} or {@code .log}.
	 */
	static boolean isGitTableName(String name) {
		int[] at = { 0 };
		for (int part = 0; part < 3; part++) {
			if (!strtoull(name, at)) {
				return false;
			}
			if (part < 2) {
				if (at[0] >= name.length() || name.charAt(at[0]) != '-') {
					return false;
				}
				at[0]++;
			}
		}
		String rest = name.substring(at[0]);
		return rest.equals(".ref") || rest.equals(".log");
	}

	/**
	 * Reads a number as {@code strtoull(s, &end, 16)} does, moving {@code at} past it
	 * (not at all when no digit follows). Returns {@code false} when it overflows.
	 */
	private static boolean strtoull(String s, int[] at) {
		int i = at[0];
		while (i < s.length() && " \t\n\u000b\f\r".indexOf(s.charAt(i)) >= 0) {
			i++;
		}
		if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
			i++;
		}
		if (i + 2 < s.length() && s.charAt(i) == '0' && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X')
				&& Character.digit(s.charAt(i + 2), 16) >= 0 && s.charAt(i + 2) < 128) {
			i += 2;
		}
		int digits = i;
		boolean overflow = false;
		long value = 0;
		while (i < s.length() && s.charAt(i) < 128 && Character.digit(s.charAt(i), 16) >= 0) {
			if (Long.compareUnsigned(value, 0x0fffffffffffffffL) > 0) {
				overflow = true;
			}
			value = (value << 4) | Character.digit(s.charAt(i), 16);
			i++;
		}
		if (i > digits) {
			at[0] = i;
		}
		return !overflow;
	}

	/** refstore's deeper checks of the main stack. */
	private void deep() throws IOException {
		try (ReftableStack.Snapshot snapshot = this.store.stack.snapshot()) {
			long previousMax = 0;
			boolean sound = true;
			for (ReftableStack.Table table : snapshot.tables) {
				if (Long.compareUnsigned(table.reader.minUpdateIndex(), previousMax) <= 0 && previousMax > 0) {
					sound &= !this.check.report(table.name, RefCheck.BAD_REFTABLE_UPDATE_INDEX,
							"update indices " + table.reader.minUpdateIndex() + ".." + table.reader.maxUpdateIndex()
									+ " do not follow the previous table's " + previousMax);
				}
				previousMax = table.reader.maxUpdateIndex();
				sound &= table(table);
			}
			if (sound) {
				values(snapshot);
			}
		}
	}

	/** Decodes every record of a table. Returns whether nothing counted as an error. */
	private boolean table(ReftableStack.Table table) {
		boolean sound = true;
		ReftableReader reader = table.reader;
		try (RecordCursor<RefRecord> refs = reader.allRefs()) {
			while (refs.next()) {
				RefRecord ref = refs.record();
				long index = ref.updateIndex();
				if (Long.compareUnsigned(index, reader.minUpdateIndex()) < 0
						|| Long.compareUnsigned(index, reader.maxUpdateIndex()) > 0) {
					sound &= !this.check.report(table.name, RefCheck.BAD_REFTABLE_UPDATE_INDEX, "ref '" + ref.name()
							+ "' has update index " + Long.toUnsignedString(index) + " outside the table's range");
				}
				if (RefName.violation(ref.nameBuffer(), 0, ref.nameLength(), true) != null) {
					sound &= !this.check.report(table.name, RefCheck.BAD_REF_NAME,
							"'" + RefName.printable(ref.name()) + "' is not a valid refname");
				}
			}
			try (RecordCursor<LogRecord> logs = reader.allLogs()) {
				while (logs.next()) {
					if (Long.compareUnsigned(logs.record().updateIndex(), reader.maxUpdateIndex()) > 0) {
						sound &= !this.check.report(table.name, RefCheck.BAD_REFTABLE_UPDATE_INDEX, "log entry of '"
								+ logs.record().refName() + "' has an update index above the table's maximum");
					}
				}
			}
		}
		catch (IOException ex) {
			String at = (ex instanceof CorruptRefStoreException corrupt && corrupt.position() >= 0)
					? " at byte " + corrupt.position() : "";
			return !this.check.report(table.name, RefCheck.BAD_REFTABLE, "cannot be decoded" + at);
		}
		return sound;
	}

	private void values(ReftableStack.Snapshot snapshot) throws IOException {
		ObjectDatabase objects = this.store.options.objects();
		try (RecordCursor<RefRecord> refs = new MergedTable(snapshot.readers()).allRefs(false)) {
			while (refs.next()) {
				RefRecord ref = refs.record();
				if (ref.valueType() == RefRecord.SYMREF) {
					continue;
				}
				String name = ref.name();
				ObjectId id = ObjectId.fromRaw(this.store.hashAlgorithm(), ref.idBuffer(), 0);
				if (id.isZero()) {
					continue;
				}
				ObjectType type = objects.type(id);
				if (type == null) {
					this.check.report(name, RefCheck.MISSING_REF_OBJECT, "points to missing object " + id.name());
				}
				else if (type != ObjectType.COMMIT && name.startsWith("refs/heads/")) {
					this.check.report(name, RefCheck.BAD_BRANCH_OBJECT,
							"branch points to a " + type.gitName() + " " + id.name());
				}
				else if (ref.valueType() == RefRecord.VALUE_PEELED) {
					ObjectId stored = ObjectId.fromRaw(this.store.hashAlgorithm(), ref.peeledBuffer(), 0);
					ObjectId actual = objects.peel(id);
					if (!stored.equals(actual)) {
						this.check.report(name, RefCheck.BAD_REF_PEELED,
								"peels to " + ((actual != null) ? actual.name() : "nothing (not a tag)")
										+ " but the table says " + stored.name());
					}
				}
			}
		}
	}

}
