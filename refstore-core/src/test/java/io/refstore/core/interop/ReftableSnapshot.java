package io.refstore.core.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import io.refstore.core.interop.RefModel.Value;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * A reftable twin at one moment. Its tables are not compared with the other twin's:
 * update indices, compaction and the random part of table names legitimately differ.
 * Instead two twins hold the same refs when git reads the same refs from both
 * ({@code for-each-ref --include-root-refs}, plus {@code symbolic-ref --no-recurse} for
 * the dangling symbolic refs that {@code for-each-ref} leaves out), and refstore reads
 * the same records from both: every ref with its peeled value, and every reflog entry in
 * full (old and new id, identity, time, zone, message) — also of tags, which
 * {@code git reflog show} skips. Each snapshot also checks its stack directory: nothing
 * but {@code tables.list} and the tables it lists (no lock, no temporary file, no table
 * left behind by a compaction), the placeholder {@code HEAD} file and {@code refs/heads}
 * file git made, untouched, and the permissions of the stack's files, which must be the
 * other twin's.
 *
 * <p>
 * The stack itself ({@code tables.list} and the directory's file names) is read when the
 * snapshot is taken; git's and refstore's readings are made on first use. Not
 * thread-safe.
 */
final class ReftableSnapshot implements StoreSnapshot {

	/**
	 * Symbolic refs that may dangle, which {@code for-each-ref} does not list: HEAD and
	 * the generator's.
	 */
	private static final List<String> MAY_DANGLE = Stream.concat(Stream.of("HEAD"), NamePool.SYMREFS.stream()).toList();

	private final TempRepo twin;

	private final GitCli git;

	private final List<String> tables;

	private final String directory;

	private final String modes;

	private Map<String, Value> refs;

	private List<String> records;

	private List<String> reflogNames;

	private ReftableSnapshot(TempRepo twin, GitCli git, List<String> tables, String directory, String modes) {
		this.twin = twin;
		this.git = git;
		this.tables = tables;
		this.directory = directory;
		this.modes = modes;
	}

	/**
	 * Reads the stack of {@code twin} now; {@code git} reads its refs later (a
	 * reftable-capable git).
	 */
	static ReftableSnapshot of(TempRepo twin, GitCli git) {
		Path gitDir = twin.gitDir();
		try {
			Path stackDir = gitDir.resolve("reftable");
			List<String> tables = Files.readAllLines(stackDir.resolve("tables.list"), StandardCharsets.UTF_8);
			Set<String> files = new TreeSet<>();
			try (Stream<Path> paths = Files.list(stackDir)) {
				paths.forEach((path) -> files.add(path.getFileName().toString()));
			}
			files.remove("tables.list");
			StringBuilder directory = new StringBuilder();
			if (!files.equals(new TreeSet<>(tables))) {
				directory.append("  the stack directory holds ")
					.append(files)
					.append(" but tables.list names ")
					.append(tables)
					.append('\n');
			}
			String head = Files.readString(gitDir.resolve("HEAD"), StandardCharsets.UTF_8);
			String heads = Files.readString(gitDir.resolve("refs").resolve("heads"), StandardCharsets.UTF_8);
			if (!head.equals("ref: refs/heads/.invalid\n")
					|| !heads.equals("this repository uses the reftable format\n")) {
				directory.append("  the placeholder files changed: HEAD '")
					.append(head)
					.append("', refs/heads '")
					.append(heads)
					.append("'\n");
			}
			return new ReftableSnapshot(twin, git, List.copyOf(tables), directory.toString(), modes(stackDir, tables));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read the reftable stack of " + gitDir, ex);
		}
	}

	/**
	 * The permissions of {@code tables.list} and the distinct ones of the tables: git
	 * makes them readable as the umask (and {@code core.sharedRepository}) allow, so that
	 * other users of the repository can read refs.
	 */
	private static String modes(Path stackDir, List<String> tables) throws IOException {
		Set<String> tableModes = new TreeSet<>();
		for (String table : tables) {
			tableModes.add(PosixFilePermissions.toString(Files.getPosixFilePermissions(stackDir.resolve(table))));
		}
		return "tables.list "
				+ PosixFilePermissions.toString(Files.getPosixFilePermissions(stackDir.resolve("tables.list")))
				+ ", tables " + tableModes;
	}

	/** The names of the stack's tables, oldest first. */
	List<String> tables() {
		return this.tables;
	}

	/** The highest update index of the stack (of its newest table's name). */
	long maxUpdateIndex() {
		if (this.tables.isEmpty()) {
			return 0;
		}
		String newest = this.tables.get(this.tables.size() - 1);
		return Long.parseLong(newest.substring(17, 29), 16);
	}

	@Override
	public Map<String, Value> refs() {
		if (this.refs == null) {
			this.refs = readWithGit();
		}
		return this.refs;
	}

	private Map<String, Value> readWithGit() {
		Map<String, Value> refs = new HashMap<>();
		String listing = this.git.ok(this.twin.dir(), "for-each-ref", "--include-root-refs",
				"--format=%(refname) %(objectname) %(symref)");
		for (String line : listing.split("\n")) {
			if (line.isEmpty()) {
				continue;
			}
			String[] fields = line.split(" ", -1);
			refs.put(fields[0], fields[2].isEmpty() ? Value.direct(fields[1]) : Value.symbolic(fields[2]));
		}
		for (String name : MAY_DANGLE) {
			if (!refs.containsKey(name)) {
				GitCli.Result target = this.git.run(this.twin.dir(), "symbolic-ref", "-q", "--no-recurse", name);
				if (target.exitCode() == 0) {
					refs.put(name, Value.symbolic(target.stdout().strip()));
				}
			}
		}
		return refs;
	}

	/**
	 * What refstore reads: one line per ref record and per reflog entry, in the store's
	 * order.
	 */
	List<String> records() {
		if (this.records == null) {
			readWithRefstore();
		}
		return this.records;
	}

	@Override
	public List<String> reflogNames() {
		if (this.reflogNames == null) {
			readWithRefstore();
		}
		return this.reflogNames;
	}

	private void readWithRefstore() {
		List<String> records = new ArrayList<>();
		try (Repository repository = Repository.open(this.twin.dir(), this.git.env());
				RefStore store = RefStores.open(repository)) {
			try (RefCursor cursor = store.refs(RefQuery.ALL.withRootRefs())) {
				while (cursor.next()) {
					records.add(describe(cursor.ref()));
				}
			}
			List<String> names = store.reflogNames();
			for (String name : names) {
				records.add("reflog " + name);
				for (ReflogEntry entry : store.reflog(name)) {
					records.add("  " + describe(entry));
				}
			}
			this.reflogNames = List.copyOf(names);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("refstore cannot read " + this.twin.dir(), ex);
		}
		this.records = records;
	}

	private static String describe(Ref ref) {
		if (ref instanceof SymbolicRef symbolic) {
			return "ref " + symbolic.name() + " -> " + symbolic.target();
		}
		DirectRef direct = (DirectRef) ref;
		return "ref " + direct.name() + " " + direct.id().name()
				+ ((direct.peeled() != null) ? " ^" + direct.peeled().name() : "");
	}

	private static String describe(ReflogEntry entry) {
		return entry.oldId().name() + " " + entry.newId().name() + " " + entry.who().name() + " <" + entry.who().email()
				+ "> " + entry.who().epochSeconds() + " " + entry.who().tzText() + "\t"
				+ entry.message().replace("\n", "\\n");
	}

	@Override
	public String differences(StoreSnapshot other, String thisName, String otherName) {
		ReftableSnapshot that = (ReftableSnapshot) other;
		StringBuilder report = new StringBuilder();
		appendDirectory(report, thisName, this.directory);
		appendDirectory(report, otherName, that.directory);
		if (!this.modes.equals(that.modes)) {
			report.append("  file permissions differ: ")
				.append(thisName)
				.append(' ')
				.append(this.modes)
				.append(", ")
				.append(otherName)
				.append(' ')
				.append(that.modes)
				.append('\n');
		}
		if (!refs().equals(that.refs())) {
			report.append("  git reads different refs:\n");
			appendMapDifference(report, refs(), that.refs(), thisName, otherName);
		}
		if (!records().equals(that.records())) {
			report.append("  refstore reads different records:\n");
			appendListDifference(report, records(), that.records(), thisName, otherName);
		}
		return (report.length() == 0) ? null : report.toString();
	}

	private static void appendDirectory(StringBuilder report, String name, String directory) {
		if (!directory.isEmpty()) {
			report.append("  in ").append(name).append(":\n").append(directory);
		}
	}

	private static void appendMapDifference(StringBuilder report, Map<String, Value> mine, Map<String, Value> theirs,
			String thisName, String otherName) {
		Set<String> names = new TreeSet<>(mine.keySet());
		names.addAll(theirs.keySet());
		for (String name : names) {
			Value a = mine.get(name);
			Value b = theirs.get(name);
			if (a == null || !a.equals(b)) {
				report.append("    ")
					.append(name)
					.append(": ")
					.append(thisName)
					.append(' ')
					.append(show(a))
					.append(", ")
					.append(otherName)
					.append(' ')
					.append(show(b))
					.append('\n');
			}
		}
	}

	private static String show(Value value) {
		return (value == null) ? "<none>" : value.isSymbolic() ? "-> " + value.target() : value.id();
	}

	/**
	 * The lines in one list only, at most twenty of them; if there are none, where the
	 * order first differs.
	 */
	private static void appendListDifference(StringBuilder report, List<String> mine, List<String> theirs,
			String thisName, String otherName) {
		int shown = appendMissing(report, mine, theirs, "only in " + thisName, 0);
		shown = appendMissing(report, theirs, mine, "only in " + otherName, shown);
		if (shown == 0) {
			int line = 0;
			while (line < mine.size() && line < theirs.size() && mine.get(line).equals(theirs.get(line))) {
				line++;
			}
			report.append("    the same lines, but from line ")
				.append(line + 1)
				.append(" on (after '")
				.append((line > 0) ? mine.get(line - 1) : "")
				.append("'):\n      ")
				.append(thisName)
				.append(": ")
				.append((line < mine.size()) ? mine.get(line) : "<end>")
				.append("\n      ")
				.append(otherName)
				.append(": ")
				.append((line < theirs.size()) ? theirs.get(line) : "<end>")
				.append('\n');
		}
	}

	private static int appendMissing(StringBuilder report, List<String> lines, Collection<String> other, String label,
			int shown) {
		Set<String> others = new HashSet<>(other);
		String section = null;
		for (String line : lines) {
			if (line.startsWith("reflog ")) {
				section = line;
			}
			if (!others.contains(line) && shown++ < 20) {
				boolean entry = line.startsWith("  ");
				report.append("    ")
					.append(label)
					.append(": ")
					.append(entry ? section + " entry " + line.strip() : line)
					.append('\n');
			}
		}
		return shown;
	}

	@Override
	public String minorDifferences(StoreSnapshot other, String thisName, String otherName) {
		return null;
	}

	@Override
	public String changes(StoreSnapshot later) {
		ReftableSnapshot after = (ReftableSnapshot) later;
		if (this.tables.equals(after.tables) && after.directory.equals(this.directory)) {
			return null;
		}
		return "  tables.list " + this.tables + " became " + after.tables + "\n" + after.directory;
	}

	@Override
	public void restore(TempRepo target) throws IOException {
		Path from = this.twin.gitDir().resolve("reftable");
		Path to = target.gitDir().resolve("reftable");
		try (Stream<Path> old = Files.list(to)) {
			for (Path path : (Iterable<Path>) old::iterator) {
				Files.delete(path);
			}
		}
		for (String table : this.tables) {
			Files.copy(from.resolve(table), to.resolve(table));
		}
		Files.write(to.resolve("tables.list"), tablesList());
	}

	private byte[] tablesList() {
		StringBuilder list = new StringBuilder();
		this.tables.forEach((table) -> list.append(table).append('\n'));
		return list.toString().getBytes(StandardCharsets.UTF_8);
	}

	@Override
	public int tablesGoneIn(StoreSnapshot later) {
		List<String> gone = new ArrayList<>(this.tables);
		gone.removeAll(((ReftableSnapshot) later).tables);
		return gone.size();
	}

}
