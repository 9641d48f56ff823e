package io.refstore.core.objects;

/**
 * An object's type and whole content, as read from a loose file or a pack.
 *
 * @param type 1 commit, 2 tree, 3 blob, 4 tag (git's pack type numbers)
 * @param content the content, without the loose-object header
 */
record RawObject(int type, byte[] content) {

	static final int COMMIT = 1;

	static final int TREE = 2;

	static final int BLOB = 3;

	static final int TAG = 4;

	/** The public type for a pack type number 1-4. */
	static ObjectDatabase.ObjectType publicType(int type) {
		return switch (type) {
			case COMMIT -> ObjectDatabase.ObjectType.COMMIT;
			case TREE -> ObjectDatabase.ObjectType.TREE;
			case BLOB -> ObjectDatabase.ObjectType.BLOB;
			case TAG -> ObjectDatabase.ObjectType.TAG;
			default -> throw new IllegalArgumentException("not an object type: " + type);
		};
	}

}
