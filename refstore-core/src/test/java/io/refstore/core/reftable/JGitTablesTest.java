package io.refstore.core.reftable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.eclipse.jgit.internal.storage.io.BlockSource;
import org.eclipse.jgit.internal.storage.reftable.ReftableConfig;
import org.eclipse.jgit.lib.ObjectIdRef;
import org.eclipse.jgit.lib.Ref;
import org.junit.jupiter.api.Test;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.reftable.format.LogRecord;
import io.refstore.core.reftable.format.RecordCursor;
import io.refstore.core.reftable.format.RefRecord;
import io.refstore.core.reftable.format.ReftableReader;
import io.refstore.core.reftable.format.ReftableWriter;
import io.refstore.core.reftable.format.TableLayout;
import io.refstore.core.reftable.format.Tables;
import io.refstore.core.reftable.format.WriteOptions;

/**
 * Single tables, every kind of record, written by one implementation and read by the
 * other: JGit's {@code ReftableWriter} (its own block layout: restarts, a one-root
 * multi-level index, log blocks of twice the block size) read by refstore's reader, and
 * refstore's writer read by JGit's reader. Both readers must give exactly the records
 * that were written, tombstones included, by scan, exact lookup, prefix seek, object id
 * and log seek.
 */
class JGitTablesTest {

	private static final int BLOCK_SIZE = 512;

	private final Model model = Model.build(3000, 42);

	@Test
	void refstoreReadsEveryRecordOfATableJGitsWriterWrote() throws IOException {
		byte[] table = jgitTable(this.model);
		TableLayout layout = new TableLayout(table);
		assertThat(layout.version).isEqualTo(1);
		assertThat(layout.refIndexPosition()).isPositive();
		assertThat(layout.objPosition()).isPositive();
		assertThat(layout.logIndexPosition()).isPositive();
		assertThat(layout.blockAt(layout.refIndexPosition()).type()).isEqualTo(TableLayout.INDEX_BLOCK);
		assertThat(layout.blockAt(layout.firstIndexTarget(layout.blockAt(layout.refIndexPosition()))).type())
			.as("JGit's root indexes index blocks")
			.isEqualTo(TableLayout.INDEX_BLOCK);

		try (ReftableReader reader = Tables.open(table)) {
			assertThat(StackViews.refRecords(reader.allRefs(), HashAlgorithm.SHA1))
				.containsExactlyElementsOf(this.model.refLines());
			assertThat(StackViews.logRecords(reader.allLogs(), HashAlgorithm.SHA1))
				.containsExactlyElementsOf(this.model.logLines());
			assertLookupsFindWhatWasWritten(reader);
		}
	}

	@Test
	void refstoreReadsJGitsMinutesAsHhmm() throws IOException {
		try (ReftableReader reader = Tables.open(jgitTable(this.model));
				RecordCursor<LogRecord> logs = reader.logsFor(this.model.logged.get(0))) {
			assertThat(logs.next()).isTrue();
			// JGit wrote +05:30 as 330 minutes; git and refstore read the number as HHMM
			assertThat(logs.record().tzOffset()).isEqualTo(330);
			assertThat(new PersonIdent("", "", 0, logs.record().tzOffset()).tzText()).isEqualTo("+0330");
		}
	}

	@Test
	void jgitReadsEveryRecordOfATableRefstoresWriterWrote() throws IOException {
		byte[] table = refstoreTable(this.model);
		TableLayout layout = new TableLayout(table);
		// git's layout: more than 3 index blocks get a level above them, here a single
		// root block; with 2-3
		// top-level blocks and no root JGit 7.8 would miss refs (see BigTablesIT)
		assertThat(layout.runAt(layout.refIndexPosition())).hasSize(1);
		assertThat(layout.logIndexPosition()).isPositive();

		try (org.eclipse.jgit.internal.storage.reftable.ReftableReader jgit = jgitReader(table)) {
			assertThat(StackViews.refRecords(jgit)).containsExactlyElementsOf(this.model.refLines());
			assertThat(StackViews.logRecords(jgit)).containsExactlyElementsOf(this.model.logLines());
			for (String line : this.model.refLines()) {
				String name = line.substring(0, line.indexOf('@'));
				Ref ref = jgit.exactRef(name);
				if (line.endsWith(" deleted")) {
					assertThat(ref == null || ref.getObjectId() == null).as("tombstone %s", name).isTrue();
				}
				else {
					assertThat(ref).as(name).isNotNull();
					assertThat(StackViews.jgitRefLine(ref)).isEqualTo(line);
				}
			}
			for (int i = 0; i < 20; i++) {
				org.eclipse.jgit.lib.ObjectId id = org.eclipse.jgit.lib.ObjectId.fromRaw(this.model.ids.get(i).toRaw());
				// JGit matches the ref's own value only; git (for-each-ref --points-at)
				// and refstore also match the
				// peeled value, which the object index lists too
				List<String> expected = this.model.refLines()
					.stream()
					.filter((l) -> l.split(" ")[1].equals(id.name()))
					.toList();
				List<String> found = new ArrayList<>();
				try (var cursor = jgit.byObjectId(id)) {
					while (cursor.next()) {
						found.add(StackViews.jgitRefLine(cursor.getRef()));
					}
				}
				assertThat(found).as("refs of %s", id.name()).isNotEmpty().containsExactlyElementsOf(expected);
			}
		}
	}

	@Test
	void jgitRefusesVersion2TablesOfSha256Repositories() throws IOException {
		WriteOptions options = WriteOptions.defaults().withHash(HashAlgorithm.SHA256);
		byte[] table = Tables.write(options, 1, 1,
				List.of(RefRecord.direct("refs/heads/main", 1, Tables.id(HashAlgorithm.SHA256, 1))), List.of());
		assertThat(table[4]).as("version").isEqualTo((byte) 2);
		try (org.eclipse.jgit.internal.storage.reftable.ReftableReader jgit = jgitReader(table)) {
			assertThatThrownBy(() -> jgit.exactRef("refs/heads/main")).isInstanceOf(IOException.class)
				.hasMessage("Invalid reftable file");
		}
	}

	/**
	 * Every name, names between them, prefixes, ids and log seeks, against the lines
	 * written.
	 */
	private void assertLookupsFindWhatWasWritten(ReftableReader reader) throws IOException {
		List<String> refs = this.model.refLines();
		for (String line : refs) {
			String name = line.substring(0, line.indexOf('@'));
			RefRecord found = reader.exactRef(name);
			assertThat(found).as(name).isNotNull();
			assertThat(StackViews.refRecords(cursorOf(found), HashAlgorithm.SHA1)).containsExactly(line);
			assertThat(reader.exactRef(name + "~")).as("between %s and the next name", name).isNull();
		}
		for (String prefix : List.of("refs/heads/topic/3/", "refs/heads/gone/", "refs/tags/", "refs/remotes/",
				"refs/heads/\u00e9", "refs/heads/topic/9/branch-29", "refs/zzz")) {
			assertThat(StackViews.refRecords(reader.refsWithPrefix(prefix), HashAlgorithm.SHA1)).as(prefix)
				.containsExactlyElementsOf(refs.stream().filter((l) -> l.startsWith(prefix)).toList());
		}
		for (int i = 0; i < 20; i++) {
			ObjectId id = this.model.ids.get(i);
			List<String> expected = refs.stream().filter((l) -> l.contains(id.name())).toList();
			assertThat(StackViews.refRecords(reader.refsFor(id), HashAlgorithm.SHA1)).as("refs of %s", id.name())
				.isNotEmpty()
				.containsExactlyElementsOf(expected);
		}
		for (String name : this.model.logged) {
			assertThat(StackViews.logRecords(reader.logsFor(name), HashAlgorithm.SHA1)).as("log of %s", name)
				.containsExactlyElementsOf(
						this.model.logLines().stream().filter((l) -> l.startsWith(name + "@")).toList());
		}
	}

	private static RecordCursor<RefRecord> cursorOf(RefRecord record) {
		return new RecordCursor<>() {

			private boolean done;

			@Override
			public boolean next() {
				boolean first = !this.done;
				this.done = true;
				return first;
			}

			@Override
			public RefRecord record() {
				return record;
			}

			@Override
			public void close() {
			}

		};
	}

	/**
	 * The model written by JGit's writer: refs with their update indices, then logs
	 * (JGit's key order).
	 */
	static byte[] jgitTable(Model model) throws IOException {
		ReftableConfig config = new ReftableConfig();
		config.setRefBlockSize(BLOCK_SIZE);
		config.setRestartInterval(6);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		org.eclipse.jgit.internal.storage.reftable.ReftableWriter writer = new org.eclipse.jgit.internal.storage.reftable.ReftableWriter(
				config, out)
			.setMinUpdateIndex(1)
			.setMaxUpdateIndex(Model.MAX_INDEX)
			.begin();
		for (Model.RefEntry ref : model.refs) {
			writer.writeRef(ref.toJGit(), ref.updateIndex());
		}
		for (Model.LogEntry log : model.logs) {
			if (log.deleted()) {
				writer.deleteLog(log.name(), log.updateIndex());
			}
			else {
				writer.writeLog(log.name(), log.updateIndex(), Model.JGIT_WHO, jgit(log.oldId()), jgit(log.newId()),
						log.message());
			}
		}
		writer.finish();
		return out.toByteArray();
	}

	/** The same model through refstore's writer, messages kept exactly as given. */
	static byte[] refstoreTable(Model model) throws IOException {
		WriteOptions options = new WriteOptions(HashAlgorithm.SHA1, BLOCK_SIZE, 6, true, true);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ReftableWriter writer = new ReftableWriter(out, options).setLimits(1, Model.MAX_INDEX);
		for (Model.RefEntry ref : model.refs) {
			writer.addRef(ref.toRecord());
		}
		for (Model.LogEntry log : model.logs) {
			writer.addLog(log.deleted() ? LogRecord.deletion(log.name(), log.updateIndex()) : LogRecord
				.update(log.name(), log.updateIndex(), log.oldId(), log.newId(), Model.WHO, log.message()));
		}
		writer.finish();
		return out.toByteArray();
	}

	static org.eclipse.jgit.internal.storage.reftable.ReftableReader jgitReader(byte[] table) {
		org.eclipse.jgit.internal.storage.reftable.ReftableReader reader = new org.eclipse.jgit.internal.storage.reftable.ReftableReader(
				BlockSource.from(table));
		reader.setIncludeDeletes(true);
		return reader;
	}

	static org.eclipse.jgit.lib.ObjectId jgit(ObjectId id) {
		return org.eclipse.jgit.lib.ObjectId.fromRaw(id.toRaw());
	}

	/**
	 * What a table holds, generated from a seed: branches in ten directories, peeled
	 * tags, symbolic refs, tombstones, names above ASCII; logs of every hundredth ref,
	 * newest first, some entries deleted.
	 */
	record Model(List<RefEntry> refs, List<LogEntry> logs, List<String> logged, List<ObjectId> ids) {

		static final long MAX_INDEX = 5;

		/**
		 * Who every log entry names: JGit takes the zone in minutes, refstore as HHMM, so
		 * both store 330.
		 */
		static final org.eclipse.jgit.lib.PersonIdent JGIT_WHO = new org.eclipse.jgit.lib.PersonIdent("J G It",
				"jgit@example.com", Instant.ofEpochSecond(1700000000), ZoneOffset.ofHoursMinutes(5, 30));

		static final PersonIdent WHO = new PersonIdent("J G It", "jgit@example.com", 1700000000, 330);

		static Model build(int count, long seed) {
			SplittableRandom random = new SplittableRandom(seed);
			List<ObjectId> ids = new ArrayList<>();
			for (int i = 0; i < 64; i++) {
				ids.add(Tables.id(HashAlgorithm.SHA1, random.nextLong()));
			}
			List<RefEntry> refs = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				long index = 1 + (i % MAX_INDEX);
				ObjectId id = ids.get(i % ids.size());
				if (i % 11 == 0) {
					refs.add(new RefEntry("refs/heads/gone/" + i, index, null, null, null));
				}
				else if (i % 7 == 0) {
					refs.add(new RefEntry("refs/tags/v" + i, index, id, ids.get((i + 1) % ids.size()), null));
				}
				else if (i % 97 == 0) {
					refs.add(new RefEntry("refs/remotes/r" + i + "/HEAD", index, null, null,
							"refs/heads/topic/" + (i % 10)));
				}
				else {
					refs.add(new RefEntry("refs/heads/topic/" + (i % 10) + "/branch-" + i, index, id, null, null));
				}
			}
			for (String name : List.of("refs/heads/\u00e9t\u00e9", "refs/heads/\uE000", "refs/heads/\uD83D\uDE00",
					"HEAD")) {
				refs.add(new RefEntry(name, 2, ids.get(3), null, null));
			}
			refs.sort((a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
			List<LogEntry> logs = new ArrayList<>();
			List<String> logged = new ArrayList<>();
			for (int i = 0; i < refs.size(); i += 100) {
				String name = refs.get(i).name();
				logged.add(name);
				for (long index = MAX_INDEX; index >= 1; index--) {
					boolean deleted = (i + index) % 4 == 0;
					logs.add(new LogEntry(name, index, deleted, ids.get((int) index), ids.get((int) index + 1),
							"update " + index + " of " + name + "\n"));
				}
			}
			return new Model(refs, logs, logged, ids);
		}

		List<String> refLines() {
			List<String> out = new ArrayList<>();
			for (RefEntry ref : this.refs) {
				String head = ref.name() + "@" + ref.updateIndex() + " ";
				if (ref.target() != null) {
					out.add(head + "-> " + ref.target());
				}
				else if (ref.id() == null) {
					out.add(head + "deleted");
				}
				else {
					out.add(head + ref.id().name() + ((ref.peeled() != null) ? " ^" + ref.peeled().name() : ""));
				}
			}
			return out;
		}

		List<String> logLines() {
			List<String> out = new ArrayList<>();
			for (LogEntry log : this.logs) {
				String head = log.name() + "@" + log.updateIndex() + " ";
				out.add(log.deleted() ? head + "deleted" : head + log.oldId().name() + " " + log.newId().name()
						+ " J G It <jgit@example.com> 1700000000 330|" + log.message());
			}
			return out;
		}

		/** One ref: a tombstone when neither {@code id} nor {@code target} is set. */
		record RefEntry(String name, long updateIndex, ObjectId id, ObjectId peeled, String target) {

			byte[] key() {
				return this.name.getBytes(StandardCharsets.UTF_8);
			}

			Ref toJGit() {
				if (this.target != null) {
					return new org.eclipse.jgit.lib.SymbolicRef(this.name,
							new ObjectIdRef.Unpeeled(Ref.Storage.NEW, this.target, null));
				}
				if (this.id == null) {
					return new ObjectIdRef.Unpeeled(Ref.Storage.NEW, this.name, null);
				}
				return (this.peeled != null)
						? new ObjectIdRef.PeeledTag(Ref.Storage.PACKED, this.name, jgit(this.id), jgit(this.peeled))
						: new ObjectIdRef.PeeledNonTag(Ref.Storage.PACKED, this.name, jgit(this.id));
			}

			RefRecord toRecord() {
				if (this.target != null) {
					return RefRecord.symbolic(this.name, this.updateIndex, this.target);
				}
				if (this.id == null) {
					return RefRecord.deletion(this.name, this.updateIndex);
				}
				return (this.peeled != null) ? RefRecord.peeled(this.name, this.updateIndex, this.id, this.peeled)
						: RefRecord.direct(this.name, this.updateIndex, this.id);
			}

		}

		/** One log entry, or its tombstone. */
		record LogEntry(String name, long updateIndex, boolean deleted, ObjectId oldId, ObjectId newId,
				String message) {
		}

	}

}
