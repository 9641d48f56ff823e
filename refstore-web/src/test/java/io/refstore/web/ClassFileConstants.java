package io.refstore.web;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the text constants of a class file (JVMS 4.4): class names, descriptors and
 * signatures of every type the class refers to, in internal form
 * ({@code io/refstore/core/ref/RefName}), and its string literals. A type the compiled
 * code uses appears here whether the source imported it or spelled it out in full.
 */
final class ClassFileConstants {

	private static final int MAGIC = 0xCAFEBABE;

	private ClassFileConstants() {
	}

	/**
	 * @param classFile the bytes of a {@code .class} file
	 * @return every CONSTANT_Utf8 entry of its constant pool, in pool order
	 * @throws IOException if the bytes are not a class file, or a constant has an unknown
	 * tag
	 */
	static List<String> utf8(byte[] classFile) throws IOException {
		DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
		if (in.readInt() != MAGIC) {
			throw new IOException("not a class file: it does not start with 0xCAFEBABE");
		}
		in.readUnsignedShort();
		in.readUnsignedShort();
		int count = in.readUnsignedShort();
		List<String> texts = new ArrayList<>();
		for (int index = 1; index < count; index++) {
			int tag = in.readUnsignedByte();
			switch (tag) {
				case 1 -> texts.add(in.readUTF());
				case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
				case 15 -> in.skipNBytes(3);
				case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
				case 5, 6 -> {
					in.skipNBytes(8);
					// longs and doubles take two pool slots (JVMS 4.4.5)
					index++;
				}
				default -> throw new IOException("unknown constant pool tag " + tag + " at entry " + index);
			}
		}
		return texts;
	}

}
