package io.refstore.core.delete;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.refstore.core.graph.CommitHistory;
import io.refstore.core.io.Fsync;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.repo.RefusedJobInputException;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.RepositoryId;
import io.refstore.core.repo.RepositoryInputs;

/**
 * The plan of a deletion, kept on disk for review before anything is deleted: the
 * selection, then every ref that would go with the value it has, in name order.
 *
 * <pre>
 * refstore-deletion-plan 2
 * repository &lt;id&gt;                               the identity of the repository planned ({@link RepositoryId});
 *                                                absent in plans written before it was recorded
 * select &lt;prefix|glob|name|exclude&gt; &lt;text&gt;     one line per part of the selection
 * select namespace &lt;refs/x/&gt;                   a namespace the refs must be in
 * select merged-into &lt;branch&gt; &lt;id&gt;             the branch, and the commit it had when planned
 * select older-than @&lt;seconds&gt;                  creator dates must be before this time
 * select not-updated-since @&lt;seconds&gt;           last updates must be before this time
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
 * Criteria are written resolved: an age ({@code 90d}) as the time it meant when the plan
 * was written, a branch as its commit then, so that the plan's selection means the same
 * when it is checked again before its execution.
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
	public record Summary(long count, List<String> sample, RefSelection selection, ProtectedRefs.Report kept,
			Map<String, Long> criteria, List<String> reasons) {

		/**
		 * @param criteria with criteria, how many refs each matched (see
		 * {@link DryRun#criteria()}); empty without, and when read back from a file
		 * @param reasons with criteria, why each ref of the sample was selected; empty
		 * without, and when read back from a file
		 */
		public Summary {
			criteria = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(criteria));
			reasons = List.copyOf(reasons);
		}

	}

	/**
	 * Writes the plan of {@code selection}, keeping what {@code protection} protects, to
	 * {@code file}, atomically and durably: the plan is forced before its rename and the
	 * directory after, since the deletion steps that follow rely on it.
	 */
	public static Summary write(Path file, RefStore store, List<String> parts, ProtectedRefs protection, int sampleSize)
			throws IOException {
		return write(file, store, null, parts, protection, sampleSize, Instant.now());
	}

	/**
	 * Writes the plan of a selection that may have criteria ({@code namespace <refs/x/>},
	 * {@code merged-into <branch>}, {@code older-than <time>},
	 * {@code not-updated-since <time>}, times as {@link CriterionTime} reads them),
	 * resolving them first: {@code HEAD} or a short branch name to the branch's full
	 * name, the branch to its commit, an age to the time it means at {@code now}.
	 * @param history the history to judge the criteria by; {@code null} if there are none
	 * @throws InvalidSelectionException naming the part that cannot be resolved
	 */
	public static Summary write(Path file, RefStore store, CommitHistory history, List<String> givenParts,
			ProtectedRefs protection, int sampleSize, Instant now) throws IOException {
		return write(file, null, store, history, givenParts, protection, sampleSize, now);
	}

	/**
	 * {@link #write(Path, RefStore, CommitHistory, List, ProtectedRefs, int, Instant)},
	 * recording the repository's identity in the plan, so that its execution on another
	 * repository is refused.
	 * @param id the identity of the repository of {@code store}, or {@code null} to
	 * record none
	 */
	public static Summary write(Path file, RepositoryId id, RefStore store, CommitHistory history,
			List<String> givenParts, ProtectedRefs protection, int sampleSize, Instant now) throws IOException {
		List<String> parts = resolve(givenParts, store, history, now);
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
			if (id != null) {
				out.write("repository " + id.value() + "\n");
			}
			for (String part : parts) {
				out.write("select " + part + "\n");
			}
			for (String entry : protection.entries()) {
				out.write("select protect " + entry + "\n");
			}
			planned = new RefDeleter(store, history).select(selection, sampleSize, (ref) -> out.write(line(ref)));
			out.write("end " + planned.matched() + "\n");
		}
		Fsync.file(temp);
		Fsync.rename(temp, file);
		return new Summary(planned.matched(), planned.sample(), selection, planned.kept(), planned.criteria(),
				planned.reasons());
	}

	/**
	 * Resolves a caller's parts as {@link #write} would, without writing anything: a
	 * launch refuses a branch that does not exist before it starts a job.
	 * @return the parts as the plan would keep them
	 * @throws InvalidSelectionException naming the part that cannot be resolved
	 * @throws IOException if the store or the history cannot be read
	 */
	public static List<String> resolve(List<String> givenParts, RefStore store, CommitHistory history, Instant now)
			throws IOException {
		List<String> parts = new ArrayList<>();
		for (String part : givenParts) {
			parts.add(resolvePart(part, store, history, now));
		}
		return parts;
	}

	/**
	 * A caller's part of a selection, with its criterion resolved as the plan keeps it.
	 */
	private static String resolvePart(String part, RefStore store, CommitHistory history, Instant now)
			throws IOException {
		String[] fields = part.split(" ", 2);
		if (fields.length < 2) {
			return part;
		}
		String value = fields[1].strip();
		switch (fields[0]) {
			case "older-than" -> {
				return "older-than " + CriterionTime.format(CriterionTime.parse("olderThan", value, now));
			}
			case "not-updated-since" -> {
				return "not-updated-since " + CriterionTime.format(CriterionTime.parse("notUpdatedSince", value, now));
			}
			case "merged-into" -> {
				if (value.contains(" ")) {
					return part;
				}
				String branch = branchName(value, store);
				DirectRef target = store.resolve(branch)
					.orElseThrow(() -> new InvalidSelectionException("mergedInto", value, "no such branch"));
				if (history == null) {
					throw new IllegalStateException("merged-into needs the repository's history");
				}
				byte[] raw = target.id().toRaw();
				if (!history.facts(raw, 1, null, false).isCommit(0)) {
					throw new InvalidSelectionException("mergedInto", value, "it does not name a commit");
				}
				return "merged-into " + branch + " " + target.id().name();
			}
			default -> {
				return part;
			}
		}
	}

	/**
	 * The full name of a branch as given: {@code HEAD} is the branch it names, a short
	 * name is looked up as git looks up a ref ({@code refs/<name>},
	 * {@code refs/tags/<name>}, {@code refs/heads/<name>}, {@code refs/remotes/<name>}).
	 */
	private static String branchName(String value, RefStore store) throws IOException {
		if (value.equals("HEAD")) {
			Optional<Ref> head = store.exactRef("HEAD");
			if (head.isPresent() && head.get() instanceof SymbolicRef symbolic) {
				return symbolic.target();
			}
			return "HEAD";
		}
		if (value.startsWith("refs/")) {
			return value;
		}
		for (String candidate : List.of("refs/" + value, "refs/tags/" + value, "refs/heads/" + value,
				"refs/remotes/" + value)) {
			if (store.exactRef(candidate).isPresent()) {
				return candidate;
			}
		}
		return "refs/heads/" + value;
	}

	private static String line(Ref ref) {
		if (ref instanceof DirectRef direct) {
			return "ref " + ref.name() + " " + direct.id().name() + "\n";
		}
		return "symref " + ref.name() + " " + ((SymbolicRef) ref).target() + "\n";
	}

	/**
	 * The identity of the repository a plan was written for, read without following a
	 * symbolic link.
	 * @return the identity, or empty for a plan written before identities were recorded
	 * @throws IOException if the file cannot be read, is a symbolic link, or is no plan
	 */
	public static Optional<RepositoryId> repositoryOf(Path file) throws IOException {
		try (Reader reader = new Reader(file, null)) {
			reader.next();
			return Optional.ofNullable(reader.repositoryId);
		}
	}

	/**
	 * The plan a user names for an execution, checked before it is read: a file inside
	 * {@code dir}, reached from the git directory down without a symbolic link
	 * ({@link RepositoryInputs}), that records {@code repository}'s identity (a plan
	 * written before plans recorded it is taken on the strength of where it lies).
	 * @param parameter the parameter that named it, for the refusal
	 * @param dir the directory plans are kept in, relative to the git directory
	 * @param given the plan as given: relative to {@code dir}, or absolute inside it
	 * @return the plan's absolute path
	 * @throws RefusedJobInputException naming {@code parameter} if it is refused
	 * @throws IOException if the file system cannot be read
	 */
	public static Path checkInput(String parameter, Repository repository, String dir, String given)
			throws IOException {
		Path path = RepositoryInputs.check(parameter, repository.gitDir(), dir, given, RepositoryInputs.Kind.FILE);
		Optional<RepositoryId> recorded;
		try {
			recorded = repositoryOf(path);
		}
		catch (IOException ex) {
			String shown = repository.gitDir().relativize(path).toString();
			throw new RefusedJobInputException(parameter, given, "'" + shown + "' is not a deletion plan this"
					+ " refstore reads (" + ex.getMessage().replace(path.toString(), shown) + ")");
		}
		RepositoryInputs.checkOwner(parameter, given, recorded, repository);
		return path;
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
					ProtectedRefs.Report.NONE, Map.of(), List.of());
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
		return checkNotStale(file, store, null);
	}

	/**
	 * {@link #checkNotStale(Path, RefStore)} for a plan that may have criteria, judged
	 * again by {@code history} as the plan resolved them.
	 * @param history the repository's history; {@code null} if the plan has no criteria
	 */
	public static ProtectedRefs checkNotStale(Path file, RefStore store, CommitHistory history) throws IOException {
		RefSelection.Builder selection = RefSelection.builder();
		try (Reader planned = new Reader(file, selection)) {
			Entry[] next = { planned.next() };
			// the reader has passed the plan's selection lines once it returned the first
			// entry
			ProtectedRefs protection = planned.protection();
			RefSelection parsed = selection.protect(protection).build();
			new RefDeleter(store, history).select(parsed, 0, (ref) -> {
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

		private RepositoryId repositoryId;

		/**
		 * Opens {@code file}, not following a symbolic link, and reads its first line.
		 * @param selection where the plan's selection lines go as they are read, or
		 * {@code null} to skip them
		 * @throws IOException if the file cannot be read, is a symbolic link, or is not a
		 * plan
		 */
		public Reader(Path file, RefSelection.Builder selection) throws IOException {
			this.file = file;
			this.selection = selection;
			this.in = new BufferedReader(new InputStreamReader(Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS),
					StandardCharsets.UTF_8.newDecoder()));
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
					case "repository" -> this.repositoryId = RepositoryId.parse(fields[fields.length - 1])
						.orElseThrow(() -> error("bad repository id '" + text + "'"));
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
				case "namespace" -> builder.namespace(fields[2]);
				case "older-than" -> builder.olderThan(resolvedTime("olderThan", fields[2]));
				case "not-updated-since" -> builder.notUpdatedSince(resolvedTime("notUpdatedSince", fields[2]));
				case "merged-into" -> {
					String[] branch = fields[2].split(" ");
					if (branch.length != 2) {
						throw new InvalidSelectionException("mergedInto", fields[2], "give one branch");
					}
					HashAlgorithm algorithm = (branch[1].length() == HashAlgorithm.SHA256.hexLength())
							? HashAlgorithm.SHA256 : HashAlgorithm.SHA1;
					ObjectId base = ObjectId.tryParse(algorithm, branch[1]);
					if (base == null) {
						throw new InvalidSelectionException("mergedInto", fields[2], "the commit id is not valid");
					}
					builder.mergedInto(branch[0], base);
				}
				default -> {
					return false;
				}
			}
			return true;
		}

		/** A time as a plan records it, {@code @<seconds>}. */
		private static long resolvedTime(String parameter, String text) {
			if (!text.startsWith("@") || text.length() < 2 || !text.substring(1).chars().allMatch(Character::isDigit)) {
				throw new InvalidSelectionException(parameter, text, "a plan records a time as @<seconds>");
			}
			return Long.parseLong(text.substring(1));
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
