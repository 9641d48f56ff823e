package io.refstore.core.interop;

import java.util.ArrayList;
import java.util.List;

/**
 * The ref names the differential test writes: branches, tags, pull and change refs,
 * remote-tracking refs, names that share long prefixes, names that sort differently
 * bytewise than by Java's UTF-16 order ({@code a}, {@code a-b}, {@code a.b}, {@code a/b};
 * U+FF5E vs U+10000), directory/file families ({@code a}, {@code a/b}, {@code a/b/c}),
 * UTF-8 names (NFC and NFD spellings), one root ref, and the symbolic refs. Also names
 * git must refuse, one per rule of {@code check-ref-format}. Immutable.
 */
final class NamePool {

	/**
	 * Symbolic refs the generator points with {@code symbolic-ref}; nothing else lives
	 * below them.
	 */
	static final List<String> SYMREFS = List.of("refs/sym/s0", "refs/sym/s1", "refs/sym/s2",
			"refs/remotes/origin/HEAD");

	/**
	 * Names that break one rule of {@code check-ref-format} each (written quoted in the
	 * text form).
	 */
	static final List<String> INVALID = List.of("refs/heads/a..b", "refs/heads/x.lock", "refs/heads/.hidden",
			"refs/heads/sp ace", "refs/heads/tab\tx", "refs/heads/tilde~1", "refs/heads/caret^", "refs/heads/co:lon",
			"refs/heads/qu?estion", "refs/heads/br[acket", "refs/heads/back\\slash", "refs/heads/st*ar",
			"refs/heads//double", "refs/heads/trailing/", "refs/heads/dot.", "refs/heads/at@{1}", "@",
			"refs/heads/del\u007f", "/refs/heads/leading");

	private final List<String> names;

	private NamePool(List<String> names) {
		this.names = List.copyOf(names);
	}

	static NamePool standard() {
		List<String> names = new ArrayList<>();
		names.add("refs/heads/main");
		for (int i = 0; i < 12; i++) {
			names.add("refs/heads/b" + i);
		}
		String longPrefix = "refs/heads/feature/" + "shared-long-prefix-".repeat(8);
		for (int i = 0; i < 6; i++) {
			names.add(longPrefix + "t" + i);
		}
		names.addAll(List.of("refs/heads/a", "refs/heads/a-b", "refs/heads/a.b", "refs/heads/a/b", "refs/heads/a/b/c",
				"refs/heads/a0", "refs/heads/a/b-c", "refs/heads/df/x", "refs/heads/df/x/y"));
		names.addAll(List.of("refs/heads/\u00fcn\u00ef", "refs/heads/caf\u00e9", "refs/heads/cafe\u0301",
				"refs/heads/\u65e5\u672c/\u679d", "refs/heads/\ud800\udc00", "refs/heads/\uff5e", "refs/heads/x{y}",
				"refs/heads/-dash", "refs/heads/@", "refs/heads/a@b"));
		for (int i = 0; i < 10; i++) {
			names.add("refs/tags/v" + i);
		}
		for (int i = 0; i < 6; i++) {
			names.add("refs/tags/annotated/t" + i);
		}
		names.addAll(List.of("refs/tags/v1.0", "refs/tags/v1.0.1", "refs/tags/\u00fcn\u00ef"));
		for (int i = 1; i <= 12; i++) {
			names.add("refs/pull/" + i + "/head");
		}
		for (int i = 1; i <= 4; i++) {
			names.add("refs/pull/" + i + "/merge");
		}
		for (String change : List.of("01/1001", "02/1002", "45/12345")) {
			for (int p = 1; p <= 3; p++) {
				names.add("refs/changes/" + change + "/" + p);
			}
		}
		names.addAll(List.of("refs/remotes/origin/main", "refs/remotes/origin/topic", "refs/remotes/origin/a/b",
				"refs/notes/commits", "ORIG_HEAD"));
		return new NamePool(names);
	}

	/** Every writable name that is not one of the {@link #SYMREFS}. */
	List<String> names() {
		return this.names;
	}

	/**
	 * Whether only commits may be written to {@code name} by the generator's good
	 * updates.
	 */
	static boolean wantsCommit(String name) {
		return RefModel.isBranch(name) || name.startsWith("refs/remotes/") || name.equals("ORIG_HEAD")
				|| name.startsWith("refs/pull/") || name.startsWith("refs/changes/");
	}

}
