package io.refstore.benchmark;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

import io.refstore.core.graph.CommitHistory;
import io.refstore.core.graph.RefTips;
import io.refstore.core.graph.TipFacts;
import io.refstore.core.migrate.FormatMigrator;
import io.refstore.core.migrate.MigrationOptions;
import io.refstore.core.migrate.MigrationReport;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.ref.Wildmatch;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * The benchmark's operations done through the core API ({@link Repository},
 * {@link RefStore}, {@link RefCursor}, {@link RefTransaction}, {@link FormatMigrator})
 * instead of the command, doing the work git does (such as checking that each listed
 * object exists) and printing the same bytes, so that the harness can check them. Each
 * task opens the repository and its store itself, as a command would. Stateless and
 * thread-safe.
 */
final class ApiTasks {

	private static final Map<ObjectType, byte[]> TYPE_NAMES = new EnumMap<>(ObjectType.class);

	static {
		for (ObjectType type : ObjectType.values()) {
			TYPE_NAMES.put(type, type.gitName().getBytes(StandardCharsets.US_ASCII));
		}
	}

	private ApiTasks() {
	}

	/**
	 * {@code for-each-ref [<prefix>]} in the default format
	 * {@code %(objectname) %(objecttype)\t%(refname)}.
	 */
	static Operation.ApiTask forEachRef(String prefix) {
		return (repo, env, sink) -> {
			try (Repository repository = Repository.open(repo, env);
					RefStore refs = RefStores.open(repository);
					RefCursor cursor = refs.refs(RefQuery.prefix(prefix));
					OutputStream out = new BufferedOutputStream(new NonClosing(sink), 1 << 16)) {
				TypedLines batch = new TypedLines(refs.hashAlgorithm(), repository.objectDatabase());
				while (cursor.next()) {
					ObjectId id = cursor.isSymbolic() ? resolve(refs, cursor).id() : null;
					if (batch.add(cursor, id)) {
						batch.print(out);
					}
				}
				batch.print(out);
			}
		};
	}

	/**
	 * {@code <id> <type>\t<name>} lines of up to {@link #SIZE} refs whose types are
	 * looked up together ({@link ObjectDatabase#types}, in the order of the pack
	 * indexes), then printed in the refs' order.
	 */
	private static final class TypedLines {

		static final int SIZE = 1 << 16;

		private final HashAlgorithm hash;

		private final ObjectDatabase objects;

		private final byte[] ids;

		private final ObjectType[] types = new ObjectType[SIZE];

		private final int[] nameEnds = new int[SIZE];

		private byte[] names = new byte[SIZE * 32];

		private final byte[] hex;

		private int count;

		TypedLines(HashAlgorithm hash, ObjectDatabase objects) {
			this.hash = hash;
			this.objects = objects;
			this.ids = new byte[SIZE * hash.rawLength()];
			this.hex = new byte[hash.hexLength()];
		}

		/**
		 * Adds the cursor's ref ({@code resolved}: a symbolic ref's final id); whether
		 * the batch is full.
		 */
		boolean add(RefCursor cursor, ObjectId resolved) {
			int start = (this.count == 0) ? 0 : this.nameEnds[this.count - 1];
			int length = cursor.nameLength();
			if (this.names.length - start < length) {
				this.names = java.util.Arrays.copyOf(this.names, Math.max(this.names.length * 2, start + length));
			}
			System.arraycopy(cursor.nameBuffer(), 0, this.names, start, length);
			this.nameEnds[this.count] = start + length;
			if (resolved != null) {
				resolved.copyRawTo(this.ids, this.count * this.hash.rawLength());
			}
			else {
				System.arraycopy(cursor.idBuffer(), 0, this.ids, this.count * this.hash.rawLength(),
						this.hash.rawLength());
			}
			return ++this.count == SIZE;
		}

		void print(OutputStream out) throws IOException {
			this.objects.types(this.hash, this.ids, this.count, this.types);
			int raw = this.hash.rawLength();
			for (int i = 0; i < this.count; i++) {
				int start = (i == 0) ? 0 : this.nameEnds[i - 1];
				ObjectId id = ObjectId.fromRaw(this.hash, this.ids, i * raw);
				if (this.types[i] == null) {
					throw new IOException(
							"bad ref " + new String(this.names, start, this.nameEnds[i] - start, StandardCharsets.UTF_8)
									+ " (" + id.name() + "): the object does not exist");
				}
				id.copyHexTo(this.hex, 0);
				out.write(this.hex);
				out.write(' ');
				out.write(TYPE_NAMES.get(this.types[i]));
				out.write('\t');
				out.write(this.names, start, this.nameEnds[i] - start);
				out.write('\n');
			}
			this.count = 0;
		}

	}

	/** {@code show-ref}: every ref under {@code refs/} as {@code <id> <name>}. */
	/**
	 * {@code for-each-ref --format=%(refname) <glob>} for a glob that starts with a glob
	 * character (so git's prefix rule never applies): every name, matched by
	 * {@link Wildmatch}.
	 */
	static Operation.ApiTask globNames(String glob) {
		byte[] pattern = glob.getBytes(StandardCharsets.UTF_8);
		return (repo, env, sink) -> {
			try (Repository repository = Repository.open(repo, env);
					RefStore refs = RefStores.open(repository);
					RefCursor cursor = refs.refs(RefQuery.prefix("refs/"));
					OutputStream out = new BufferedOutputStream(new NonClosing(sink), 1 << 16)) {
				while (cursor.next()) {
					if (Wildmatch.matches(pattern, cursor.nameBuffer(), cursor.nameLength())) {
						out.write(cursor.nameBuffer(), 0, cursor.nameLength());
						out.write('\n');
					}
				}
			}
		};
	}

	static Operation.ApiTask showRef() {
		return (repo, env, sink) -> {
			try (Repository repository = Repository.open(repo, env);
					RefStore refs = RefStores.open(repository);
					RefCursor cursor = refs.refs(RefQuery.ALL);
					OutputStream out = new BufferedOutputStream(new NonClosing(sink), 1 << 16)) {
				ObjectDatabase objects = repository.objectDatabase();
				HashAlgorithm hash = refs.hashAlgorithm();
				byte[] hex = new byte[hash.hexLength()];
				while (cursor.next()) {
					ObjectId id = cursor.isSymbolic() ? resolve(refs, cursor).id()
							: ObjectId.fromRaw(hash, cursor.idBuffer(), 0);
					// git show-ref refuses a ref whose object is missing, so it looks
					// every object up
					requireExists(objects, id, cursor.name());
					id.copyHexTo(hex, 0);
					out.write(hex);
					out.write(' ');
					out.write(cursor.nameBuffer(), 0, cursor.nameLength());
					out.write('\n');
				}
			}
		};
	}

	/**
	 * {@code show-ref --verify <name>}: one exact lookup on a store that is already open,
	 * as a long-running service would do it; opening the repository and the store (once,
	 * on the first run) is not part of it. The repository is only read, so the open store
	 * stays valid from run to run.
	 */
	static Operation.ApiTask showRefVerify(String name) {
		Map<Path, OpenStore> open = new java.util.HashMap<>();
		byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
		return (repo, env, out) -> {
			OpenStore store = open.get(repo);
			if (store == null) {
				Repository repository = Repository.open(repo, env);
				store = new OpenStore(repository, RefStores.open(repository), repository.objectDatabase());
				open.put(repo, store);
			}
			Optional<Ref> ref = store.refs().exactRef(name);
			if (ref.isEmpty() || !(ref.get() instanceof DirectRef direct)) {
				throw new IOException("'" + name + "' - not a valid ref in " + repo);
			}
			requireExists(store.objects(), direct.id(), name);
			byte[] line = new byte[store.refs().hashAlgorithm().hexLength() + nameBytes.length + 2];
			direct.id().copyHexTo(line, 0);
			line[line.length - nameBytes.length - 2] = ' ';
			System.arraycopy(nameBytes, 0, line, line.length - nameBytes.length - 1, nameBytes.length);
			line[line.length - 1] = '\n';
			out.write(line);
		};
	}

	/**
	 * A repository kept open for {@link #showRefVerify}, with its store and object
	 * database.
	 */
	private record OpenStore(Repository repository, RefStore refs, ObjectDatabase objects) {
	}

	/**
	 * {@code update-ref --stdin} for an input of {@code create <ref> <new>} and
	 * {@code delete <ref> <old>} lines: one transaction, which must commit.
	 */
	static Operation.ApiTask updateRefs(Path input) {
		return (repo, env, out) -> {
			try (Repository repository = Repository.open(repo, env);
					RefStore refs = RefStores.open(repository);
					RefTransaction transaction = refs.newTransaction();
					BufferedReader lines = Files.newBufferedReader(input, StandardCharsets.UTF_8)) {
				HashAlgorithm hash = refs.hashAlgorithm();
				String line;
				while ((line = lines.readLine()) != null) {
					transaction.add(update(hash, line, input));
				}
				TransactionResult result = transaction.commit();
				if (!result.committed()) {
					throw new IOException("the transaction of " + input + " was rejected: "
							+ result.firstRejection().map(Object::toString).orElse("no reason given"));
				}
			}
		};
	}

	/**
	 * The hygiene facts of every branch ({@link CommitHistory#facts}: merged into
	 * {@code base} and the creator date, all branches in one call), printed as
	 * {@code for-each-ref --merged <base> --format='%(refname) %(committerdate:unix)'
	 * refs/heads/} prints them. The facts cover the unmerged branches' dates too, which
	 * git's command does not read.
	 */
	static Operation.ApiTask mergedDates(String base) {
		return (repo, env, sink) -> {
			try (Repository repository = Repository.open(repo, env);
					RefStore refs = RefStores.open(repository);
					OutputStream out = new BufferedOutputStream(new NonClosing(sink), 1 << 16)) {
				RefTips tips = RefTips.read(refs, RefQuery.prefix("refs/heads/"));
				ObjectId baseId = refs.resolve(base).orElseThrow(() -> new IOException("no " + base)).id();
				TipFacts facts = tips.facts(CommitHistory.open(repository), baseId, false);
				for (int i = 0; i < tips.count(); i++) {
					if (facts.merged(i)) {
						out.write(tips.nameBytes(), tips.nameStart(i), tips.nameEnd(i) - tips.nameStart(i));
						out.write(' ');
						out.write(Long.toString(facts.date(i)).getBytes(StandardCharsets.US_ASCII));
						out.write('\n');
					}
				}
			}
		};
	}

	/** {@code pack-refs --all}: every loose ref into {@code packed-refs}, pruned. */
	static Operation.ApiTask packRefs() {
		return (repo, env, out) -> {
			try (Repository repository = Repository.open(repo, env); RefStore refs = RefStores.open(repository)) {
				refs.packRefs(new RefStore.PackOptions(true, true));
			}
		};
	}

	/** {@code refs migrate --ref-format=<target>}: the whole migration, swap included. */
	static Operation.ApiTask migrate(RefFormat target) {
		return (repo, env, out) -> {
			try (Repository repository = Repository.open(repo, env)) {
				MigrationReport report = new FormatMigrator(repository).migrate(MigrationOptions.to(target));
				if (!report.swapped()) {
					throw new IOException("the migration of " + repo + " to " + target + " did not swap: " + report);
				}
				out.write((report.refs() + " refs\n").getBytes(StandardCharsets.US_ASCII));
			}
		};
	}

	private static RefUpdate update(HashAlgorithm hash, String line, Path input) {
		int first = line.indexOf(' ');
		int second = line.indexOf(' ', first + 1);
		if (first < 0 || second < 0) {
			throw new IllegalArgumentException(input + ": not '<verb> <ref> <id>': " + line);
		}
		String name = line.substring(first + 1, second);
		ObjectId id = ObjectId.fromHex(hash, line.substring(second + 1));
		return switch (line.substring(0, first)) {
			case "create" -> RefUpdate.create(name, id);
			case "delete" -> RefUpdate.delete(name, id);
			default -> throw new IllegalArgumentException(input + ": unknown verb in: " + line);
		};
	}

	private static ObjectType requireObject(ObjectDatabase objects, ObjectId id, String name) throws IOException {
		ObjectType type = objects.type(id);
		if (type == null) {
			throw new IOException("bad ref " + name + " (" + id.name() + "): the object does not exist");
		}
		return type;
	}

	private static void requireExists(ObjectDatabase objects, ObjectId id, String name) throws IOException {
		if (!objects.exists(id)) {
			throw new IOException("bad ref " + name + " (" + id.name() + "): the object does not exist");
		}
	}

	private static DirectRef resolve(RefStore refs, RefCursor cursor) throws IOException {
		String target = new String(cursor.targetBuffer(), 0, cursor.targetLength(), StandardCharsets.UTF_8);
		return refs.resolve(target)
			.orElseThrow(() -> new IOException(cursor.name() + " points to " + target + ", which does not exist"));
	}

	/**
	 * Lets a buffered stream be closed (flushed) without closing the sink the harness
	 * owns.
	 */
	private static final class NonClosing extends java.io.FilterOutputStream {

		NonClosing(OutputStream out) {
			super(out);
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			this.out.write(b, off, len);
		}

		@Override
		public void close() throws IOException {
			flush();
		}

	}

}
