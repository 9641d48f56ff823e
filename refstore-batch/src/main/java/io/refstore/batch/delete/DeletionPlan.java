package io.refstore.batch.delete;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.refstore.core.delete.DryRun;
import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.delete.RefDeleter;
import io.refstore.core.delete.RefSelection;
import io.refstore.core.io.Fsync;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.SymbolicRef;

/**
 * The plan of a deletion, kept on disk for review before anything is deleted: the selection, then every ref
 * that would go with the value it has, in name order.
 *
 * <pre>
 * refstore-deletion-plan 2
 * select &lt;prefix|glob|name|exclude&gt; &lt;text&gt;     one line per part of the selection
 * select protect &lt;pattern|HEAD&gt;                 one line per protected entry; none: nothing protected
 * ref &lt;name&gt; &lt;id&gt;                               a direct ref and its value (hex)
 * symref &lt;name&gt; &lt;target&gt;                       a symbolic ref and its target
 * end &lt;count&gt;                                    the plan is complete
 * </pre>
 * Ref names and targets hold no space or line break (git's name rules), so fields are split at spaces. A plan
 * without its {@code end} line was cut short and is refused. A version 1 plan (written before protection
 * existed) is read as protecting {@linkplain ProtectedRefs#defaults() the defaults}: executing it never deletes
 * what they protect.
 */
final class DeletionPlan {

	static final String FILE = "plan";

	private static final String MAGIC = "refstore-deletion-plan ";

	private static final int VERSION = 2;

	private DeletionPlan() {
	}

	/**
	 * What a plan holds at its head and end.
	 *
	 * @param kept what protection kept when the plan was written ({@link ProtectedRefs.Report#NONE} when read
	 * back from a file, which does not record it)
	 */
	record Summary(long count, List<String> sample, RefSelection selection, ProtectedRefs.Report kept) {

	}

	/**
	 * Writes the plan of {@code selection}, keeping what {@code protection} protects, to {@code file}, atomically
	 * and durably: the plan is forced before its rename and the directory after, since the deletion steps that
	 * follow rely on it.
	 */
	static Summary write(Path file, RefStore store, List<String> parts, ProtectedRefs protection, int sampleSize)
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
	static Summary summary(Path file, int sampleSize) throws IOException {
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
	record Entry(String name, String value) {

		static String valueOf(Ref ref) {
			return (ref instanceof DirectRef direct) ? direct.id().name() : "ref: " + ((SymbolicRef) ref).target();
		}

	}

	/** Streams a plan's refs in order. Not thread-safe. */
	static final class Reader implements Closeable {

		private final Path file;

		private final BufferedReader in;

		private final RefSelection.Builder selection;

		private final int version;

		private final List<String> protect = new ArrayList<>();

		private long line;

		private long count = -1;

		Reader(Path file, RefSelection.Builder selection) throws IOException {
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
		 * What the plan keeps: its {@code protect} lines, or the defaults for a version 1 plan. Complete once
		 * {@link #next()} returned the first entry (or {@code null}).
		 */
		ProtectedRefs protection() {
			return (this.version == 1) ? ProtectedRefs.defaults() : ProtectedRefs.of(this.protect);
		}

		/** The next planned ref, or {@code null} after the last. */
		Entry next() throws IOException {
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

		/** Adds a {@code select <kind> <text>} line's part; {@code false} for an unknown kind. */
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

		/** The count of the {@code end} line, once {@link #next()} returned {@code null}. */
		long count() {
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
