package io.refstore.core.cli.format;

import java.io.IOException;
import java.util.Arrays;

import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.env.OutBuffer;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.HashAlgorithm;

/**
 * Refs collected for printing by {@code for-each-ref} with a format whose only object
 * atom is {@code %(objecttype)}: the types of a whole batch are looked up at once
 * ({@link ObjectDatabase#types}), in the order of the pack indexes rather than the
 * scattered order of the names, then the refs are printed in their order. The output is
 * the same as printing one ref at a time, up to a missing object, which fails the command
 * at the same ref.
 *
 * <p>
 * Not thread-safe.
 */
public final class TypedBatch {

	/**
	 * Refs per batch: large enough that neighbouring ids share index pages, small enough
	 * to stream.
	 */
	static final int SIZE = 1 << 16;

	private final HashAlgorithm hash;

	private final ObjectDatabase objects;

	/**
	 * Grown up to {@link #SIZE} refs as they come, so that a small repository allocates
	 * little.
	 */
	private byte[] ids;

	private int[] nameEnds = new int[0];

	private byte[][] targets = new byte[0][];

	private ObjectType[] types = new ObjectType[0];

	private byte[] names = new byte[0];

	private byte[] name = new byte[256];

	private final byte[] id;

	private int count;

	public TypedBatch(HashAlgorithm hash, ObjectDatabase objects) {
		this.hash = hash;
		this.objects = objects;
		this.ids = new byte[0];
		this.id = new byte[hash.rawLength()];
	}

	/**
	 * Adds a ref (copying what it is given).
	 * @param target the final name of a symbolic ref's chain, or {@code null} for a
	 * direct ref
	 * @return whether the batch is now full and must be {@linkplain #print printed}
	 */
	public boolean add(byte[] refName, int nameLength, byte[] rawId, byte[] target) {
		if (this.count == this.nameEnds.length) {
			grow();
		}
		int start = (this.count == 0) ? 0 : this.nameEnds[this.count - 1];
		if (this.names.length - start < nameLength) {
			this.names = Arrays.copyOf(this.names, Math.max(this.names.length * 2, start + nameLength));
		}
		System.arraycopy(refName, 0, this.names, start, nameLength);
		this.nameEnds[this.count] = start + nameLength;
		System.arraycopy(rawId, 0, this.ids, this.count * this.id.length, this.id.length);
		this.targets[this.count] = target;
		this.count++;
		return this.count == SIZE;
	}

	private void grow() {
		int capacity = Math.min(SIZE, Math.max(1024, this.nameEnds.length * 2));
		this.ids = Arrays.copyOf(this.ids, capacity * this.id.length);
		this.nameEnds = Arrays.copyOf(this.nameEnds, capacity);
		this.targets = Arrays.copyOf(this.targets, capacity);
		this.types = Arrays.copyOf(this.types, capacity);
		this.names = Arrays.copyOf(this.names, Math.max(this.names.length, capacity * 48));
	}

	/** Looks up the batch's types, prints its refs in order, and empties it. */
	public void print(FormatTemplate template, RefFields fields, OutBuffer out) throws IOException, CommandFailure {
		this.objects.types(this.hash, this.ids, this.count, this.types);
		int start = 0;
		for (int i = 0; i < this.count; i++) {
			int length = this.nameEnds[i] - start;
			if (this.name.length < length) {
				this.name = new byte[Math.max(length, this.name.length * 2)];
			}
			System.arraycopy(this.names, start, this.name, 0, length);
			System.arraycopy(this.ids, i * this.id.length, this.id, 0, this.id.length);
			byte[] target = this.targets[i];
			fields.set(this.name, length, this.id, target, (target != null) ? target.length : 0);
			fields.knownType(this.types[i]);
			template.renderLine(fields, out);
			start = this.nameEnds[i];
		}
		Arrays.fill(this.targets, 0, this.count, null);
		this.count = 0;
	}

}
