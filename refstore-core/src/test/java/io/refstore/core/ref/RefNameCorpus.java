package io.refstore.core.ref;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Ref names to compare with git: the fact sheet's examples of every rule and its
 * surprising accepts, then random names built from pieces that sit on the rules' edges.
 * Names are raw bytes because git checks bytes and many of these are not UTF-8. The same
 * seed gives the same corpus.
 */
final class RefNameCorpus {

	/** Hand-picked names: each rule's rejects and the accepts that surprise. */
	static final List<String> EXAMPLES = List.of("", "@", "/", ".", "..", "HEAD", "foo", "-dash", "a@b", "x{y}",
			"refs/heads/.hidden", "refs/heads/a/.b", "refs/heads/.", ".refs/heads/a", "refs/heads/a.lock",
			"refs/heads/a.lock/b", "refs.lock/x", "refs/heads/.lock", "refs/heads/a.lockx", "refs/heads/lock", "a.lock",
			"refs/heads/a..b", "refs/heads/..", "refs/heads/a\tb", "refs/heads/a\u007f", "refs/heads/a\u0001",
			"refs/heads/a\nb", "refs/heads/a\u001f", "refs/heads/a b", "refs/heads/a~1", "refs/heads/a^",
			"refs/heads/a:b", "refs/heads/a?", "refs/heads/a[", "refs/heads/a]", "refs/heads/a\\b", "refs/heads/a*",
			"refs/*/x*", "refs/*", "/refs/heads/a", "refs/heads/a/", "refs//heads/a", "refs/heads/a.",
			"refs/heads/a.b.", "refs/heads/a@{1}", "refs/heads/@{", "refs/heads/@", "refs/heads/a@b", "refs/heads/a@",
			"refs/heads/@@", "refs/heads/-dash", "refs/heads/x{y}", "refs/heads/{", "refs/heads/}", "refs/heads/ünï",
			"refs/heads/😀", "refs/heads/a./b", "refs/heads/a@/{b", "refs/heads/a./.b", "refs/tags/v1.0", "ORIG_HEAD",
			"refs/heads/main", "a/b", "refs/heads/!#$%&'()+,;<=>\"`|", "refs/heads/%2e%2e");

	private static final List<byte[]> PIECES = pieces();

	private RefNameCorpus() {
	}

	/**
	 * The examples followed by {@code random} generated names; no name holds NUL (git
	 * takes names as C strings), and duplicates are dropped.
	 */
	static List<byte[]> names(long seed, int random) {
		Map<String, byte[]> unique = new LinkedHashMap<>();
		for (String example : EXAMPLES) {
			byte[] name = example.getBytes(StandardCharsets.UTF_8);
			unique.put(key(name), name);
		}
		Random rnd = new Random(seed);
		while (unique.size() < EXAMPLES.size() + random) {
			byte[] name = randomName(rnd);
			unique.putIfAbsent(key(name), name);
		}
		return new ArrayList<>(unique.values());
	}

	private static byte[] randomName(Random rnd) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		int prefix = rnd.nextInt(4);
		if (prefix == 0) {
			out.writeBytes(bytes("refs/heads/"));
		}
		else if (prefix == 1) {
			out.writeBytes(bytes("refs/"));
		}
		int count = 1 + rnd.nextInt(6);
		for (int i = 0; i < count; i++) {
			// plain letters half of the time, so that many names pass and the rules meet
			// valid neighbours
			if (rnd.nextBoolean()) {
				out.write('a' + rnd.nextInt(3));
			}
			else {
				out.writeBytes(PIECES.get(rnd.nextInt(PIECES.size())));
			}
		}
		return out.toByteArray();
	}

	private static List<byte[]> pieces() {
		List<byte[]> pieces = new ArrayList<>();
		for (String piece : List.of(".", "..", "/", "//", "@", "{", "}", "@{", "*", "lock", ".lock", "HEAD", "_", "-",
				"~", "^", ":", "?", "[", "]", "\\", " ", "\t", "\n", "\u0001", "\u001f", "\u007f", "ü", "%2e", "refs/",
				"heads/", "x/", "/.", "./")) {
			pieces.add(bytes(piece));
		}
		// bytes that are not UTF-8 at all: a lone continuation byte, 0xff, and an
		// overlong '.'
		pieces.add(new byte[] { (byte) 0x80 });
		pieces.add(new byte[] { (byte) 0xff });
		pieces.add(new byte[] { (byte) 0xc0, (byte) 0xae });
		return pieces;
	}

	/** The name as text if its bytes are UTF-8, else {@code null}. */
	static String utf8OrNull(byte[] name) {
		String text = new String(name, StandardCharsets.UTF_8);
		return Arrays.equals(text.getBytes(StandardCharsets.UTF_8), name) ? text : null;
	}

	/** The name for messages: control bytes and bytes from 0x80 as {@code \xNN}. */
	static String printable(byte[] name) {
		StringBuilder out = new StringBuilder();
		for (byte b : name) {
			int c = b & 0xff;
			if (c < 0x20 || c >= 0x7f) {
				out.append(String.format("\\x%02x", c));
			}
			else {
				out.append((char) c);
			}
		}
		return out.toString();
	}

	private static String key(byte[] name) {
		return new String(name, StandardCharsets.ISO_8859_1);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
