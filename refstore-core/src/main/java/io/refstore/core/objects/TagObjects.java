package io.refstore.core.objects;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * Reads the two lines of an annotated tag that peeling needs: {@code object <hex>} and
 * {@code type <name>}, which git writes first and second. Stateless.
 */
final class TagObjects {

	private static final byte[] OBJECT = { 'o', 'b', 'j', 'e', 'c', 't', ' ' };

	private static final byte[] TYPE_TAG = { 't', 'y', 'p', 'e', ' ', 't', 'a', 'g', '\n' };

	private static final byte[] TYPE = { 't', 'y', 'p', 'e', ' ' };

	private TagObjects() {
	}

	/**
	 * What a tag points to.
	 *
	 * @param object the target's id
	 * @param targetIsTag whether the tag's {@code type} line names another tag
	 * @param declaredType the type the {@code type} line names as a {@link RawObject}
	 * code, -1 for a name git has no object type for
	 */
	record Target(ObjectId object, boolean targetIsTag, int declaredType) {
	}

	/**
	 * Parses a tag's first two lines.
	 * @param tag the tag's id, for messages
	 * @param content the tag's content
	 * @return the target
	 * @throws CorruptObjectException if the content does not start with well-formed
	 * {@code object} and {@code type} lines
	 */
	static Target target(ObjectId tag, byte[] content) throws CorruptObjectException {
		HashAlgorithm algorithm = tag.algorithm();
		int end = OBJECT.length + algorithm.hexLength();
		boolean prefixOk = content.length > end && startsWith(content, 0, OBJECT);
		ObjectId target = prefixOk ? ObjectId.tryParseHex(algorithm, content, OBJECT.length) : null;
		if (target == null || content[end] != '\n') {
			throw damaged(tag, "it does not start with 'object <" + algorithm.configName() + " id>' and a line feed");
		}
		int typeAt = end + 1;
		if (!startsWith(content, typeAt, TYPE) || indexOf(content, typeAt, (byte) '\n') < 0) {
			throw damaged(tag, "its second line is not 'type <type>'");
		}
		int typeEnd = indexOf(content, typeAt, (byte) '\n');
		String declared = new String(content, typeAt + TYPE.length, typeEnd - typeAt - TYPE.length,
				StandardCharsets.US_ASCII);
		int declaredType = switch (declared) {
			case "commit" -> RawObject.COMMIT;
			case "tree" -> RawObject.TREE;
			case "blob" -> RawObject.BLOB;
			case "tag" -> RawObject.TAG;
			default -> -1;
		};
		return new Target(target, startsWith(content, typeAt, TYPE_TAG), declaredType);
	}

	private static boolean startsWith(byte[] content, int at, byte[] prefix) {
		return content.length - at >= prefix.length
				&& Arrays.equals(content, at, at + prefix.length, prefix, 0, prefix.length);
	}

	private static int indexOf(byte[] content, int from, byte b) {
		for (int i = from; i < content.length; i++) {
			if (content[i] == b) {
				return i;
			}
		}
		return -1;
	}

	private static CorruptObjectException damaged(ObjectId tag, String reason) {
		return new CorruptObjectException(null, "tag " + tag.name() + " is damaged: " + reason);
	}

}
