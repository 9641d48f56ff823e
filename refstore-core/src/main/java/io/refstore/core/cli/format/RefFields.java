package io.refstore.core.cli.format;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.env.OutBuffer;
import io.refstore.core.cli.format.FormatTemplate.Atom;
import io.refstore.core.cli.revision.RevParse;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.objects.ObjectText;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * The ref being printed by {@code for-each-ref}, reused for every ref: the name and
 * symbolic target are views into the cursor's buffers, and object types and tag targets
 * are looked up only when an atom asks, at most once per ref.
 *
 * <p>
 * Not thread-safe.
 */
public final class RefFields {

	/** The type names as bytes, so that printing a type allocates nothing. */
	private static final byte[][] TYPE_NAMES = typeNames();

	private final HashAlgorithm algorithm;

	private final ObjectDatabase objects;

	private final RevParse names;

	private final boolean strictShortNames;

	private final int defaultAbbrev;

	private byte[] name;

	private int nameLength;

	private final byte[] id;

	private byte[] target;

	private int targetLength;

	private ObjectId objectId;

	private ObjectType type;

	/** Whether {@link #type} was given by {@link #knownType}, even as {@code null}. */
	private boolean typeKnown;

	private boolean derefLoaded;

	private ObjectId derefId;

	private ObjectType derefType;

	/**
	 * Counts {@link #set} calls, so that {@link AtomValues} knows when its cache is
	 * stale.
	 */
	private long generation;

	private AtomValues values;

	/** The line a rich format is rendered into, reused ref after ref. */
	private final StringBuilder line = new StringBuilder(128);

	/** Where {@link #text} prints an atom, made on its first use. */
	private ByteArrayOutputStream scratchBytes;

	private OutBuffer scratch;

	/**
	 * @param algorithm the repository's hash
	 * @param objects the object database, or {@code null} if the format has no object
	 * atom
	 * @param names for {@code :short} names, or {@code null} if the format has none
	 * @param strictShortNames whether {@code :short} names must be unambiguous under
	 * every rule ({@code core.warnAmbiguousRefs}, true by default)
	 * @param defaultAbbrev the digits of {@code %(objectname:short)}
	 */
	public RefFields(HashAlgorithm algorithm, ObjectDatabase objects, RevParse names, boolean strictShortNames,
			int defaultAbbrev) {
		this.algorithm = algorithm;
		this.objects = objects;
		this.names = names;
		this.strictShortNames = strictShortNames;
		this.defaultAbbrev = defaultAbbrev;
		this.id = new byte[algorithm.rawLength()];
	}

	/**
	 * Moves to the next ref. The arrays are not copied: they must stay unchanged until
	 * the ref is printed.
	 * @param name the name's bytes
	 * @param nameLength the name's length
	 * @param rawId the object id (of the resolved ref, for a symbolic one) at offset 0
	 * @param target the symbolic target's bytes, or {@code null} for a direct ref
	 * @param targetLength the target's length
	 */
	public void set(byte[] name, int nameLength, byte[] rawId, byte[] target, int targetLength) {
		this.name = name;
		this.nameLength = nameLength;
		System.arraycopy(rawId, 0, this.id, 0, this.id.length);
		this.target = target;
		this.targetLength = targetLength;
		this.objectId = null;
		this.type = null;
		this.typeKnown = false;
		this.derefLoaded = false;
		this.generation++;
	}

	/**
	 * A second {@code RefFields} of the same settings, for another thread: its own
	 * current ref and caches, sharing the object database (safe for several threads) and
	 * the rich atoms' {@link RefContext}, which only a
	 * {@linkplain FormatTemplate#shareable() shareable} format may use from two threads.
	 */
	RefFields twin() {
		RefFields twin = new RefFields(this.algorithm, this.objects, this.names, this.strictShortNames,
				this.defaultAbbrev);
		if (this.values != null) {
			twin.values(new AtomValues(twin, this.values.objects(), this.values.context()));
		}
		return twin;
	}

	/** Gives the evaluator of rich atoms (formats beyond the streaming atoms). */
	void values(AtomValues values) {
		this.values = values;
	}

	/**
	 * Gives the rich atoms the values of {@code %(ahead-behind:...)} and
	 * {@code %(is-base:...)}, worked out for the whole list.
	 */
	public void baseAtoms(BaseAtoms atoms) {
		this.values.context().baseAtoms(atoms);
	}

	HashAlgorithm algorithm() {
		return this.algorithm;
	}

	AtomValues values() {
		return this.values;
	}

	long generation() {
		return this.generation;
	}

	String refName() {
		return new String(this.name, 0, this.nameLength, StandardCharsets.UTF_8);
	}

	/** The symbolic target's name, or {@code null} for a direct ref. */
	String symrefTarget() {
		return (this.target != null) ? new String(this.target, 0, this.targetLength, StandardCharsets.UTF_8) : null;
	}

	ObjectId objectIdValue() {
		return objectId();
	}

	int defaultAbbrevDigits() {
		return Math.min(this.defaultAbbrev, this.algorithm.hexLength());
	}

	String shortName(String fullName) throws IOException {
		return this.names.shorten(fullName, this.strictShortNames);
	}

	/**
	 * Gives the current ref's object type, looked up ahead (see {@link TypedBatch}), so
	 * that printing does not look it up again.
	 * @param type the type, or {@code null} if the object does not exist (printing its
	 * type then fails)
	 */
	public void knownType(ObjectType type) {
		this.type = type;
		this.typeKnown = true;
	}

	/** Prints one atom's value. */
	void print(Atom atom, OutBuffer out) throws IOException, CommandFailure {
		switch (atom.field()) {
			case REFNAME -> printName(this.name, this.nameLength, atom, out);
			case SYMREF -> {
				if (this.target != null) {
					printName(this.target, this.targetLength, atom, out);
				}
			}
			case OBJECTNAME -> out.writeHex(this.id, this.id.length, digits(atom));
			case OBJECTTYPE -> writeType(type(), out);
			case DEREF_OBJECTNAME -> {
				if (deref()) {
					out.writeHex(this.derefId, digits(atom));
				}
			}
			case DEREF_OBJECTTYPE -> {
				if (deref()) {
					writeType(this.derefType, out);
				}
			}
		}
	}

	/** The line buffer of a rich format's renderer, emptied. */
	StringBuilder lineBuffer() {
		this.line.setLength(0);
		return this.line;
	}

	/**
	 * One atom's value as text, its bytes as ISO-8859-1 chars (for a rich format, which
	 * builds a line as text).
	 */
	String text(Atom atom) throws IOException, CommandFailure {
		if (this.scratch == null) {
			this.scratchBytes = new ByteArrayOutputStream(128);
			this.scratch = new OutBuffer(this.scratchBytes, 256);
		}
		this.scratchBytes.reset();
		print(atom, this.scratch);
		this.scratch.flush();
		return this.scratchBytes.toString(StandardCharsets.ISO_8859_1);
	}

	private static void writeType(ObjectType type, OutBuffer out) throws IOException {
		byte[] name = TYPE_NAMES[type.ordinal()];
		out.write(name, 0, name.length);
	}

	private int digits(Atom atom) {
		int hex = this.algorithm.hexLength();
		return switch (atom.modifier()) {
			case SHORT -> Math.min(this.defaultAbbrev, hex);
			case SHORT_N -> Math.min(Math.max(atom.number(), CommandContext.MINIMUM_ABBREV), hex);
			default -> hex;
		};
	}

	private void printName(byte[] bytes, int length, Atom atom, OutBuffer out) throws IOException {
		switch (atom.modifier()) {
			case SHORT -> out
				.write(this.names.shorten(new String(bytes, 0, length, StandardCharsets.UTF_8), this.strictShortNames));
			case LSTRIP -> {
				int from = lstrip(bytes, length, atom.number());
				out.write(bytes, from, length - from);
			}
			case RSTRIP -> out.write(bytes, 0, rstrip(bytes, length, atom.number()));
			default -> out.write(bytes, 0, length);
		}
	}

	private static byte[][] typeNames() {
		byte[][] names = new byte[ObjectType.values().length][];
		for (ObjectType type : ObjectType.values()) {
			names[type.ordinal()] = type.gitName().getBytes(StandardCharsets.US_ASCII);
		}
		return names;
	}

	/**
	 * Where the name starts after removing {@code n} leading components (negative:
	 * keeping {@code -n}).
	 */
	static int lstrip(byte[] b, int length, int n) {
		int components = components(b, length);
		int drop = (n >= 0) ? n : Math.max(0, components + n);
		if (drop >= components) {
			return length;
		}
		int pos = 0;
		for (int seen = 0; seen < drop; pos++) {
			if (b[pos] == '/') {
				seen++;
			}
		}
		return pos;
	}

	/**
	 * Where the name ends after removing {@code n} trailing components (negative: keeping
	 * {@code -n}).
	 */
	static int rstrip(byte[] b, int length, int n) {
		int components = components(b, length);
		int keep = (n >= 0) ? components - n : Math.min(components, -n);
		if (keep <= 0) {
			return 0;
		}
		int seen = 0;
		for (int pos = 0; pos < length; pos++) {
			if (b[pos] == '/' && ++seen == keep) {
				return pos;
			}
		}
		return length;
	}

	private static int components(byte[] b, int length) {
		int count = 1;
		for (int i = 0; i < length; i++) {
			if (b[i] == '/') {
				count++;
			}
		}
		return count;
	}

	private ObjectId objectId() {
		if (this.objectId == null) {
			this.objectId = ObjectId.fromRaw(this.algorithm, this.id, 0);
		}
		return this.objectId;
	}

	private ObjectType type() throws IOException, CommandFailure {
		if (this.type == null) {
			if (!this.typeKnown) {
				this.type = this.objects.type(objectId());
			}
			if (this.type == null) {
				throw CommandFailure.fatal("missing object " + objectId().name() + " for "
						+ new String(this.name, 0, this.nameLength, StandardCharsets.UTF_8));
			}
		}
		return this.type;
	}

	/**
	 * Looks up what a tag points to (one level, as git's {@code %(*...)}); {@code false}
	 * if not a tag.
	 */
	/**
	 * The object a tag points to, refusing as git does ({@code bad tag pointer}) a tag
	 * whose {@code type} header names another type than its object has.
	 */
	private ObjectId checkedTarget(ObjectId tag) throws IOException, CommandFailure {
		ObjectId target = this.objects.tagTarget(tag);
		ObjectDatabase.StoredObject object = (target != null) ? this.objects.read(tag) : null;
		if (object != null) {
			String declared = ObjectText.parse(object.content()).header("type");
			ObjectType actual = this.objects.type(target);
			if (declared != null && actual != null && !declared.equals(actual.gitName())) {
				throw CommandFailure.fatal(
						"parse_object_buffer failed on " + tag.name() + " for "
								+ new String(this.name, 0, this.nameLength, StandardCharsets.UTF_8),
						"object " + target.name() + " is a " + actual.gitName() + ", not a " + declared,
						"bad tag pointer to " + target.name() + " in " + tag.name());
			}
		}
		return target;
	}

	private boolean deref() throws IOException, CommandFailure {
		if (!this.derefLoaded) {
			this.derefLoaded = true;
			// git 2.55 peels through a tag of a tag to the first object that is no tag
			this.derefId = (type() == ObjectType.TAG) ? checkedTarget(objectId()) : null;
			this.derefType = (this.derefId != null) ? this.objects.type(this.derefId) : null;
			for (int depth = 0; this.derefType == ObjectType.TAG && depth < 64; depth++) {
				this.derefId = checkedTarget(this.derefId);
				this.derefType = (this.derefId != null) ? this.objects.type(this.derefId) : null;
			}
			if (this.derefId != null && this.derefType == null) {
				throw CommandFailure.fatal("missing object " + this.derefId.name() + " for "
						+ new String(this.name, 0, this.nameLength, StandardCharsets.UTF_8));
			}
		}
		return this.derefId != null;
	}

}
