package io.refstore.core.reftable;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.refstore.core.io.Fsync;
import io.refstore.core.ref.InitialRefWriter;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.reftable.format.LogRecord;
import io.refstore.core.reftable.format.RefRecord;
import io.refstore.core.reftable.format.ReftableWriter;
import io.refstore.core.reftable.format.WriteOptions;

/**
 * Writes a new reftable store as one table: every ref at update index 1, streamed through
 * one reused record, then each ref's log entries at update indices 1..k (oldest first),
 * so the next transaction of any writer continues after them. Messages are normalised and
 * cut to half a block as git's migration stores them
 * ({@link WriteOptions#maxLogMessage()}). The directory gets {@code tables.list} naming
 * the table. {@link #finish()} forces the table, the list and the directory to the disk
 * before it returns.
 */
public final class ReftableInitialWriter implements InitialRefWriter {

	private final Path dir;

	private final Path temp;

	private final OutputStream out;

	private final ReftableWriter writer;

	private final RefRecord record = new RefRecord();

	private final int hashSize;

	private final long maxUpdateIndex;

	private final int maxMessage;

	/**
	 * @param dir the new stack's directory (created if missing)
	 * @param maxLogEntries the largest number of log entries any one ref will get
	 * ({@code 0} without logs)
	 */
	public ReftableInitialWriter(Path dir, WriteOptions options, long maxLogEntries) throws IOException {
		this.dir = dir;
		Files.createDirectories(dir);
		this.maxUpdateIndex = Math.max(1, maxLogEntries);
		this.hashSize = options.hash().rawLength();
		this.maxMessage = options.maxLogMessage();
		this.temp = ReftableStack.createTemp(dir, "initial.temp.");
		this.out = new BufferedOutputStream(Files.newOutputStream(this.temp), 1 << 20);
		this.writer = new ReftableWriter(this.out, options).setLimits(1, this.maxUpdateIndex);
	}

	@Override
	public void addDirect(byte[] name, int nameLength, byte[] id, byte[] peeled) throws IOException {
		this.record.set(name, nameLength, 1, id, peeled, this.hashSize);
		this.writer.addRef(this.record);
	}

	@Override
	public void addSymbolic(byte[] name, int nameLength, String target) throws IOException {
		this.record.setSymbolic(name, nameLength, 1, target.getBytes(StandardCharsets.UTF_8));
		this.writer.addRef(this.record);
	}

	@Override
	public List<ReflogEntry> addReflog(String name, List<ReflogEntry> entries) throws IOException {
		ReflogEntry[] stored = null;
		// log keys sort newest first: the newest entry gets the highest update index
		for (int i = entries.size() - 1; i >= 0; i--) {
			ReflogEntry entry = entries.get(i);
			String message = ReflogEntry.normalizeMessage(entry.message());
			LogRecord rec = LogRecord.update(name, i + 1, entry.oldId(), entry.newId(), entry.who(), message);
			// cut as bytes, as git cuts them; the reader decodes the same bytes into the
			// same text
			if (rec.cutMessage(this.maxMessage)) {
				message = rec.message();
			}
			this.writer.addLog(rec);
			ReflogEntry kept = entry.withMessage(message);
			if (kept != entry) {
				if (stored == null) {
					stored = entries.toArray(ReflogEntry[]::new);
				}
				stored[i] = kept;
			}
		}
		return (stored == null) ? entries : Arrays.asList(stored);
	}

	@Override
	public void finish() throws IOException {
		this.writer.finish();
		this.out.close();
		Fsync.file(this.temp);
		String name = String.format("0x%012x-0x%012x-%08x.ref", 1, this.maxUpdateIndex,
				ThreadLocalRandom.current().nextInt());
		Files.move(this.temp, this.dir.resolve(name));
		byte[] list = (name + "\n").getBytes(StandardCharsets.UTF_8);
		// forces the list, then the directory naming it and the table
		Fsync.writeAtomically(this.dir.resolve(ReftableStack.TABLES_LIST), list, list.length,
				this.dir.resolve(ReftableStack.TABLES_LIST + ".lock"));
		Fsync.parentOf(this.dir);
	}

	@Override
	public void close() throws IOException {
		this.out.close();
		Files.deleteIfExists(this.temp);
	}

}
