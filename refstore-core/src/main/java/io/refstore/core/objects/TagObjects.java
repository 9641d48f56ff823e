package io.refstore.core.objects;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * Reads the one line of an annotated tag that peeling needs: {@code object <hex>} at the very start of the
 * tag's content. Stateless.
 */
final class TagObjects {

	private static final byte[] OBJECT = { 'o', 'b', 'j', 'e', 'c', 't', ' ' };

	private TagObjects() {
	}

	/**
	 * The object a tag points to.
	 * @param tag the tag's id, for messages
	 * @param content the tag's content (or at least its first line)
	 * @param length how many bytes of {@code content} are valid
	 * @return the target id
	 * @throws CorruptObjectException if the content does not start with a well-formed {@code object} line
	 */
	static ObjectId target(ObjectId tag, byte[] content, int length) throws CorruptObjectException {
		HashAlgorithm algorithm = tag.algorithm();
		int end = OBJECT.length + algorithm.hexLength();
		boolean prefixOk = length > end && java.util.Arrays.equals(content, 0, OBJECT.length, OBJECT, 0, OBJECT.length);
		ObjectId target = prefixOk ? ObjectId.tryParseHex(algorithm, content, OBJECT.length) : null;
		if (target == null || content[end] != '\n') {
			throw new CorruptObjectException(null,
					"tag " + tag.name() + " is damaged: it does not start with 'object <" + algorithm.configName()
							+ " id>' and a line feed");
		}
		return target;
	}

	/** The number of leading bytes of a tag that {@link #target} needs. */
	static int headerLength(HashAlgorithm algorithm) {
		return OBJECT.length + algorithm.hexLength() + 1;
	}

}
