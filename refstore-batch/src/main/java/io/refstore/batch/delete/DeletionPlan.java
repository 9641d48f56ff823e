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
 * refstore-deletion-plan 1
 * select &lt;prefix|glob|name|exclude&gt; &lt;text&gt;     one line per part of the selection
 * ref &lt;name&gt; &lt;id&gt;                               a direct ref and its value (hex)
 * symref &lt;name&gt; &lt;target&gt;                       a symbolic ref and its target
 * end &lt;count&gt;                                    the plan is complete
 * </pre>
 * Ref names and targets hold no space or line break (git's name rules), so fields are split at spaces. A plan
 * without its {@code end} line was cut short and is refused.
 */
final class DeletionPlan {

	static final String FILE = "plan";

	private static final String MAGIC = "refstore-deletion-plan 1";

	private DeletionPlan() {
	}

	/** What a plan holds at its head and end. */
	record Summary(long count, List<String> sample, RefSelection selection) {

	}

	/**
	 * Writes the plan of {@code selection} over {@code store} to {@code file}, atomically and durably: the plan
	 * is forced before its rename and the directory after, since the deletion steps that follow rely on it.
	 */
	static Summary write(Path file, RefStore store, List<String> parts, int sampleSize) throws IOException {
		RefSelection.Builder builder = RefSelection.builder();
		for (String part : parts) {
			String[] fields = ("select " + part).split(" ", 3);
			Reader.select(builder, fields);
		}
		RefSelection selection = builder.build();
		Fsync.createDirectories(file.getParent());
		Path temp = file.resolveSibling(file.getFileName() + ".tmp");
		List<String> sample = new ArrayList<>();
		long count;
		try (BufferedWriter out = new BufferedWriter(
				new OutputStreamWriter(Files.newOutputStream(temp), StandardCharsets.UTF_8), 1 << 16)) {
			out.write(MAGIC + "\n");
			for (String part : parts) {
				out.write("select " + part + "\n");
			}
			count = new RefDeleter(store).select(selection, (ref) -> {
				if (sample.size() < sampleSize) {
					sample.add(ref.name());
				}
				out.write(line(ref));
			});
			out.write("end " + count + "\n");
		}
		Fsync.file(temp);
		Fsync.rename(temp, file);
		return new Summary(count, sample, selection);
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
			return new Summary(reader.count(), sample, selection.build());
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

		private long line;

		private long count = -1;

		Reader(Path file, RefSelection.Builder selection) throws IOException {
			this.file = file;
			this.selection = selection;
			this.in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
			if (!MAGIC.equals(this.in.readLine())) {
				throw error("not a refstore deletion plan (version 1)");
			}
			this.line = 1;
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
			if (this.selection != null && !select(this.selection, fields)) {
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
