package io.refstore.core.objects;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * refstore's own reader of a git object directory, for both hashes: packs
 * ({@code pack/*.idx} version 2, or version 1 for SHA-1, with {@code pack/*.pack},
 * including delta chains), loose objects and {@code info/alternates}. It reads only what
 * ref storage needs: an object's type and a tag's target.
 * <p>
 * Like git, it looks in packs first, then loose objects; when an object is not found it
 * lists {@code pack/} again once, in case a concurrent {@code git gc} moved loose objects
 * into a new pack. Packs that disappear stay open until {@link #close()}, so readers in
 * other threads are never cut off. Safe for use by several threads.
 */
final class PackedObjectDatabase implements ObjectDatabase {

	/** Git's limit for alternates that name further alternates. */
	private static final int MAX_ALTERNATE_DEPTH = 5;

	private final Path objectsDir;

	private final HashAlgorithm algorithm;

	private final LooseObjects loose;

	private final List<PackedObjectDatabase> alternates;

	private volatile Map<String, PackFile> packs = Map.of();

	/**
	 * The values of {@link #packs}, for lookups: iterating an array allocates nothing.
	 */
	private volatile PackFile[] packList = new PackFile[0];

	private final List<PackFile> retired = new ArrayList<>();

	PackedObjectDatabase(Path objectsDir, HashAlgorithm algorithm) throws IOException {
		this(objectsDir, algorithm, 0);
	}

	private PackedObjectDatabase(Path objectsDir, HashAlgorithm algorithm, int depth) throws IOException {
		if (!Files.isDirectory(objectsDir)) {
			throw new NoSuchFileException(objectsDir.toString(), null, "object directory does not exist");
		}
		this.objectsDir = objectsDir;
		this.algorithm = algorithm;
		this.loose = new LooseObjects(objectsDir);
		this.alternates = openAlternates(depth);
		rescan();
	}

	private List<PackedObjectDatabase> openAlternates(int depth) throws IOException {
		Path file = this.objectsDir.resolve("info").resolve("alternates");
		if (depth >= MAX_ALTERNATE_DEPTH || !Files.isRegularFile(file)) {
			return List.of();
		}
		List<PackedObjectDatabase> found = new ArrayList<>();
		for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
			String path = line.strip();
			if (!path.isEmpty() && !path.startsWith("#")) {
				found.add(
						new PackedObjectDatabase(this.objectsDir.resolve(path).normalize(), this.algorithm, depth + 1));
			}
		}
		return List.copyOf(found);
	}

	@Override
	public ObjectType type(ObjectId id) throws IOException {
		int type = typeCode(checkAlgorithm(id));
		return (type < 0) ? null : RawObject.publicType(type);
	}

	/**
	 * Looks the ids up in the order of their leading bytes, so that the pack indexes (and
	 * their fan-out table) are read front to back instead of at random: in a large batch
	 * neighbouring lookups share cache lines.
	 */
	@Override
	public void types(HashAlgorithm algorithm, byte[] ids, int count, ObjectType[] types) throws IOException {
		if (algorithm != this.algorithm) {
			throw new IllegalArgumentException("object ids are " + algorithm.configName() + " ids, but this is a "
					+ this.algorithm.configName() + " object database");
		}
		int rawLength = algorithm.rawLength();
		// each id's leading bits above its index in the batch: sorted as signed longs,
		// they order the batch
		int indexBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(count - 1));
		long[] order = new long[count];
		for (int i = 0; i < count; i++) {
			long leading = 0;
			for (int b = 0; b < 8; b++) {
				leading = (leading << 8) | (ids[i * rawLength + b] & 0xff);
			}
			order[i] = ((leading >>> (indexBits + 1)) << indexBits) | i;
		}
		java.util.Arrays.sort(order);
		long indexMask = (1L << indexBits) - 1;
		for (long entry : order) {
			int i = (int) (entry & indexMask);
			int type = typeCode(ids, i * rawLength);
			types[i] = (type < 0) ? null : RawObject.publicType(type);
		}
	}

	/**
	 * Whether the object exists: a pack index that lists it suffices, as for git, without
	 * reading the pack.
	 */
	@Override
	public boolean exists(ObjectId id) throws IOException {
		checkAlgorithm(id);
		for (PackFile pack : this.packList) {
			if (pack.find(id) >= 0) {
				return true;
			}
		}
		return typeCode(id) >= 0;
	}

	@Override
	public ObjectId peel(ObjectId id) throws IOException {
		if (typeCode(checkAlgorithm(id)) != RawObject.TAG) {
			return null;
		}
		ObjectId current = id;
		for (int depth = 0; depth <= ObjectDatabases.MAX_TAG_DEPTH; depth++) {
			RawObject tag = load(current);
			if (tag == null || tag.type() != RawObject.TAG) {
				// a nested tag is missing, or is not the tag its parent claims: git
				// stores no peeled value
				return null;
			}
			TagObjects.Target target = TagObjects.target(current, tag.content());
			if (!target.targetIsTag()) {
				// a tag whose object is there but of another type than its type line
				// claims is invalid: git peels it to nothing (a missing object is peeled)
				int actual = typeCode(target.object());
				return (actual < 0 || actual == target.declaredType()) ? target.object() : null;
			}
			current = target.object();
		}
		throw ObjectDatabases.tooDeep(id);
	}

	@Override
	public ObjectId tagTarget(ObjectId id) throws IOException {
		RawObject tag = load(checkAlgorithm(id));
		if (tag == null || tag.type() != RawObject.TAG) {
			return null;
		}
		return TagObjects.target(id, tag.content()).object();
	}

	/**
	 * {@link #typeCode(ObjectId)} for the raw id at {@code ids[at]}: the packs are
	 * searched without an object.
	 */
	private int typeCode(byte[] ids, int at) throws IOException {
		for (PackFile pack : this.packList) {
			long offset = pack.find(ids, at);
			if (offset >= 0) {
				return pack.type(offset, this);
			}
		}
		return typeCodeBeyondPacks(ObjectId.fromRaw(this.algorithm, ids, at));
	}

	/**
	 * The type (1-4) of an object, or -1 if it is nowhere in this database or its
	 * alternates.
	 */
	int typeCode(ObjectId id) throws IOException {
		int type = packedTypeCode(id);
		return (type >= 0) ? type : typeCodeBeyondPacks(id);
	}

	/**
	 * The type of an object none of the known packs holds: loose, in a pack added since,
	 * or in an alternate.
	 */
	private int typeCodeBeyondPacks(ObjectId id) throws IOException {
		int type = this.loose.type(id);
		if (type < 0 && rescan()) {
			type = packedTypeCode(id);
			if (type < 0) {
				type = this.loose.type(id);
			}
		}
		for (int i = 0; type < 0 && i < this.alternates.size(); i++) {
			type = this.alternates.get(i).typeCode(id);
		}
		return type;
	}

	private int packedTypeCode(ObjectId id) throws IOException {
		for (PackFile pack : this.packList) {
			long offset = pack.find(id);
			if (offset >= 0) {
				return pack.type(offset, this);
			}
		}
		return -1;
	}

	@Override
	public StoredObject read(ObjectId id) throws IOException {
		RawObject object = load(checkAlgorithm(id));
		return (object != null) ? new StoredObject(RawObject.publicType(object.type()), object.content()) : null;
	}

	/**
	 * The whole object, or {@code null} if it is nowhere in this database or its
	 * alternates.
	 */
	RawObject load(ObjectId id) throws IOException {
		for (int attempt = 0; attempt < 2; attempt++) {
			for (PackFile pack : this.packList) {
				long offset = pack.find(id);
				if (offset >= 0) {
					return pack.load(offset, this);
				}
			}
			RawObject object = this.loose.load(id);
			if (object != null) {
				return object;
			}
			if (attempt == 0 && !rescan()) {
				break;
			}
		}
		for (PackedObjectDatabase alternate : this.alternates) {
			RawObject object = alternate.load(id);
			if (object != null) {
				return object;
			}
		}
		return null;
	}

	/** The type of a {@code REF_DELTA} base, which must exist. */
	int baseType(ObjectId base, Path pack, long at) throws IOException {
		int type = typeCode(base);
		if (type < 0) {
			throw missingBase(base, pack, at);
		}
		return type;
	}

	/** A {@code REF_DELTA} base, which must exist. */
	RawObject baseObject(ObjectId base, Path pack, long at) throws IOException {
		RawObject object = load(base);
		if (object == null) {
			throw missingBase(base, pack, at);
		}
		return object;
	}

	private static CorruptObjectException missingBase(ObjectId base, Path pack, long at) {
		return new CorruptObjectException(pack, "offset " + at + ": REF_DELTA base " + base + " does not exist");
	}

	/**
	 * Lists {@code pack/} and opens packs not seen before.
	 * @return whether the set of packs changed
	 */
	private synchronized boolean rescan() throws IOException {
		Map<String, PackFile> current = this.packs;
		Map<String, PackFile> next = new LinkedHashMap<>();
		Path packDir = this.objectsDir.resolve("pack");
		if (Files.isDirectory(packDir)) {
			// filtered by name here: a glob filter compiles a regular expression on every
			// start
			try (DirectoryStream<Path> listing = Files.newDirectoryStream(packDir)) {
				for (Path idx : listing) {
					String name = idx.getFileName().toString();
					if (!name.startsWith("pack-") || !name.endsWith(".idx")) {
						continue;
					}
					String base = name.substring(0, name.length() - ".idx".length());
					PackFile pack = current.containsKey(base) ? current.get(base) : openPack(packDir, base, idx);
					if (pack != null) {
						next.put(base, pack);
					}
				}
			}
		}
		boolean changed = !next.keySet().equals(current.keySet());
		for (Map.Entry<String, PackFile> old : current.entrySet()) {
			if (!next.containsKey(old.getKey())) {
				this.retired.add(old.getValue());
			}
		}
		this.packs = Map.copyOf(next);
		this.packList = next.values().toArray(new PackFile[0]);
		return changed;
	}

	private PackFile openPack(Path packDir, String base, Path idx) throws IOException {
		Path packPath = packDir.resolve(base + ".pack");
		try {
			return new PackFile(packPath, PackIndex.open(idx, this.algorithm), this.algorithm);
		}
		catch (NoSuchFileException ex) {
			// removed by a concurrent repack between listing and opening, or an index
			// without its pack
			return null;
		}
	}

	private ObjectId checkAlgorithm(ObjectId id) {
		if (id.algorithm() != this.algorithm) {
			throw new IllegalArgumentException("object id " + id + " is a " + id.algorithm().configName()
					+ " id, but this is a " + this.algorithm.configName() + " object database");
		}
		return id;
	}

	@Override
	public synchronized void close() throws IOException {
		IOException failure = null;
		List<PackFile> all = new ArrayList<>(this.packs.values());
		all.addAll(this.retired);
		for (PackFile pack : all) {
			try {
				pack.close();
			}
			catch (IOException ex) {
				failure = (failure == null) ? ex : failure;
			}
		}
		this.packs = Map.of();
		this.packList = new PackFile[0];
		this.retired.clear();
		for (PackedObjectDatabase alternate : this.alternates) {
			alternate.close();
		}
		if (failure != null) {
			throw failure;
		}
	}

	@Override
	public String toString() {
		return "PackedObjectDatabase[" + this.objectsDir + ", " + this.algorithm.configName() + "]";
	}

}
