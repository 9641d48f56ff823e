package io.refstore.core.delete;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.refstore.core.io.Fsync;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.SymbolicRef;

/**
 * The plan of a deletion, kept on disk for review before anything is deleted: the
 * selection, then every ref that would go with the value it has, in name order.
 *
 * <pre>
 * refstore-deletion-plan 2
 * select &lt;prefix|glob|name|exclude&gt; &lt;text&gt;     one line per part of the selection
 * select protect &lt;pattern|HEAD&gt;                 one line per protected entry; none: nothing protected
 * ref &lt;name&gt; &lt;id&gt;                               a direct ref and its value (hex)
 * symref &lt;name&gt; &lt;target&gt;                       a symbolic ref and its target
 * end &lt;count&gt;                                    the plan is complete
 * </pre> Ref names and targets hold no space or line break (git's name rules), so fields
 * are split at spaces. A plan without its {@code end} line was cut short and is refused.
 * A version 1 plan (written before protection existed) is read as protecting
 * {@linkplain ProtectedRefs#defaults() the defaults}: executing it never deletes what
 * they protect.
 * <p>
 * A plan is executed only while it is not stale: {@link #checkNotStale} before the first
 * chunk (every ref the selection picks now is in the plan with the plan's value), and
 * {@link #expecting} within each chunk's transaction (every ref of the chunk still holds
 * the plan's value).
 */
public final class DeletionPlan {

	/** The plan's file name in its directory, beside the manifests of its execution. */
	public static final String FILE = "plan";

	private static final String MAGIC = "refstore-deletion-plan ";

	private static final int VERSION = 2;

	private DeletionPlan() {
	}

	/**
	 * What a plan holds at its head and end.
	 *
	 * @param kept what protection kept when the plan was written
	 * ({@link ProtectedRefs.Report#NONE} when read back from a file, which does not
	 * record it)
	 */
	public record Summary(long count, List<String> sample, RefSelection selection, ProtectedRefs.Report kept) {

	}

	/**
	 * Writes the plan of {@code selection}, keeping what {@code protection} protects, to
	 * {@code file}, atomically and durably: the plan is forced before its rename and the
	 * directory after, since the deletion steps that follow rely on it.
	 */
	public static Summary write(Path file, RefStore store, List<String> parts, ProtectedRefs protection, int sampleSize)
			throws IOException {
		RefSelection.Builder builder = RefSelection.builder().protect(protection);
		for (String part : parts) {
			String[] fields = ("select " + part).split(" ", 3);
			Reader.select(builder, fields);
		}
		RefSelection selection = builder.build();
		Fsync.createDirectories(file.getParent());
		Path temp = file.resolveSibling(file.getFileName() + ".tmp");
		DryRun planned;
		try (BufferedWriter out = new BufferedWriter(
				new OutputStreamWriter(Files.newOutputStream(temp), StandardCharsets.UTF_8), 1 << 16)) {
			out.write(MAGIC + VERSION + "\n");
			for (String part : parts) {
				out.write("select " + part + "\n");
			}
			for (String entry : protection.entries()) {
				out.write("select protect " + entry + "\n");
			}
			planned = new RefDeleter(store).select(selection, sampleSize, (ref) -> out.write(line(ref)));
			out.write("end " + planned.matched() + "\n");
		}
		Fsync.file(temp);
		Fsync.rename(temp, file);
		return new Summary(planned.matched(), planned.sample(), selection, planned.kept());
	}

	private static String line(Ref ref) {
		if (ref instanceof DirectRef direct) {
			return "ref " + ref.name() + " " + direct.id().name() + "\n";
		}
		return "symref " + ref.name() + " " + ((SymbolicRef) ref).target() + "\n";
	}

	/** Reads a plan's selection, count and first names; refuses a plan cut short. */
	public static Summary summary(Path file, int sampleSize) throws IOException {
		RefSelection.Builder selection = RefSelection.builder();
		List<String> sample = new ArrayList<>();
		try (Reader reader = new Reader(file, selection)) {
			for (Entry entry = reader.next(); entry != null; entry = reader.next()) {
				if (sample.size() < sampleSize) {
					sample.add(entry.name());
				}
			}
			return new Summary(reader.count(), sample, selection.protect(reader.protection()).build(),
					ProtectedRefs.Report.NONE);
		}
	}

	/**
	 * One planned ref.
	 *
	 * @param name its name
	 * @param value its id in hex, or {@code ref: <target>} for a symbolic ref
	 */
	public record Entry(String name, String value) {

		/** The value of {@code ref} as a plan writes it. */
		public static String valueOf(Ref ref) {
			return (ref instanceof DirectRef direct) ? direct.id().name() : "ref: " + ((SymbolicRef) ref).target();
		}

	}

	/**
	 * Refuses a plan that no longer covers what its selection picks in {@code store}:
	 * every ref selected now must be in the plan with the plan's value (refs the plan has
	 * that are gone are fine: deleted by an earlier run, or by someone else). One merge
	 * of two name-ordered streams, the plan's and the store's.
	 * @return what the plan protects, for the chunks that execute it
	 * @throws StalePlanException naming the first ref that differs
	 * @throws IOException if the plan or the store cannot be read, or the plan is
	 * malformed
	 */
	public static ProtectedRefs checkNotStale(Path file, RefStore store) throws IOException {
		RefSelection.Builder selection = RefSelection.builder();
		try (Reader planned = new Reader(file, selection)) {
			Entry[] next = { planned.next() };
			// the reader has passed the plan's selection lines once it returned the first
			// entry
			ProtectedRefs protection = planned.protection();
			RefSelection parsed = selection.protect(protection).build();
			new RefDeleter(store).select(parsed, 0, (ref) -> {
				byte[] name = ref.name().getBytes(StandardCharsets.UTF_8);
				while (next[0] != null && compare(next[0].name(), name) < 0) {
					next[0] = planned.next();
				}
				if (next[0] == null || compare(next[0].name(), name) != 0) {
					throw new StalePlanException("the plan " + file + " is stale: '" + ref.name()
							+ "' is selected now but is not in the plan; plan again");
				}
				if (!next[0].value().equals(Entry.valueOf(ref))) {
					throw new StalePlanException("the plan " + file + " is stale: '" + ref.name() + "' is "
							+ Entry.valueOf(ref) + ", the plan has " + next[0].value() + "; plan again");
				}
			});
			return protection;
		}
	}

	private static int compare(String planned, byte[] name) {
		return Arrays.compareUnsigned(planned.getBytes(StandardCharsets.UTF_8), name);
	}

	/**
	 * A listener for the deletion of {@code chunk} that refuses, before the chunk
	 * commits, any of its refs that no longer holds the plan's value (moved since
	 * {@link #checkNotStale}), failing the chunk as a whole.
	 */
	public static ChunkListener expecting(List<Entry> chunk) {
		Map<String, String> planned = new HashMap<>();
		for (Entry entry : chunk) {
			planned.put(entry.name(), entry.value());
		}
		return new ChunkListener() {

			@Override
			public void beforeCommit(int number, List<Ref> refs) throws IOException {
				for (Ref ref : refs) {
					String now = Entry.valueOf(ref);
					if (!now.equals(planned.get(ref.name()))) {
						throw new StalePlanException("the plan is stale: '" + ref.name() + "' is " + now
								+ ", the plan has " + planned.get(ref.name()));
					}
				}
			}

		};
	}

	/** Streams a plan's refs in order. Not thread-safe. */
	public static final class Reader implements Closeable {

		private final Path file;

		private final BufferedReader in;

		private final RefSelection.Builder selection;

		private final int version;

		private final List<String> protect = new ArrayList<>();

		private long line;

		private long count = -1;

		/**
		 * Opens {@code file} and reads its first line.
		 * @param selection where the plan's selection lines go as they are read, or
		 * {@code null} to skip them
		 * @throws IOException if the file cannot be read or is not a plan
		 */
		public Reader(Path file, RefSelection.Builder selection) throws IOException {
			this.file = file;
			this.selection = selection;
			this.in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
			String magic = this.in.readLine();
			this.line = 1;
			if ((MAGIC + 1).equals(magic)) {
				this.version = 1;
			}
			else if ((MAGIC + VERSION).equals(magic)) {
				this.version = VERSION;
			}
			else {
				throw error("not a refstore deletion plan (version 1 or " + VERSION + ")");
			}
		}

		/**
		 * What the plan keeps: its {@code protect} lines, or the defaults for a version 1
		 * plan. Complete once {@link #next()} returned the first entry (or {@code null}).
		 */
		public ProtectedRefs protection() {
			return (this.version == 1) ? ProtectedRefs.defaults() : ProtectedRefs.of(this.protect);
		}

		/** The next planned ref, or {@code null} after the last. */
		public Entry next() throws IOException {
			while (this.count < 0) {
				String text = this.in.readLine();
				this.line++;
				if (text == null) {
					throw error("the plan was cut short (no 'end' line)");
				}
				String[] fields = text.split(" ", 3);
				switch (fields[0]) {
					case "ref" -> {
						return new Entry(fields[1], fields[2]);
					}
					case "symref" -> {
						return new Entry(fields[1], "ref: " + fields[2]);
					}
					case "select" -> select(fields);
					case "end" -> this.count = Long.parseLong(fields[1]);
					default -> throw error("unknown line '" + text + "'");
				}
			}
			return null;
		}

		private void select(String[] fields) throws IOException {
			if (fields[1].equals("protect")) {
				this.protect.add(fields[2]);
			}
			else if (this.selection != null && !select(this.selection, fields)) {
				throw error("unknown selection '" + fields[1] + "'");
			}
		}

		/**
		 * Adds a {@code select <kind> <text>} line's part; {@code false} for an unknown
		 * kind.
		 */
		static boolean select(RefSelection.Builder builder, String[] fields) {
			switch (fields[1]) {
				case "prefix" -> builder.prefix(fields[2]);
				case "glob" -> builder.glob(fields[2]);
				case "exclude" -> builder.exclude(fields[2]);
				case "name" -> builder.name(fields[2]);
				default -> {
					return false;
				}
			}
			return true;
		}

		/**
		 * The count of the {@code end} line, once {@link #next()} returned {@code null}.
		 */
		public long count() {
			return this.count;
		}

		private IOException error(String message) {
			return new IOException(this.file + ":" + this.line + ": " + message);
		}

		@Override
		public void close() throws IOException {
			this.in.close();
		}

	}

}
