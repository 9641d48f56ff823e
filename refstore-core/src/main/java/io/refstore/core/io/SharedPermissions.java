package io.refstore.core.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * git's {@code core.sharedRepository}: the permissions a file the repository's users
 * share gets beyond what the umask leaves. {@code group} (or {@code true}, {@code 1})
 * adds group read and write, {@code all}/{@code world}/{@code everybody} (or {@code 2})
 * adds those and world read; {@code umask} (or {@code false}, {@code 0}) leaves the
 * umask's choice; an octal mode such as {@code 0640} replaces the file's permissions with
 * it (never more than read and write).
 *
 * <p>
 * A setting is an int as git keeps it: 0 for the umask, a positive mode to add, a negated
 * mode to set.
 */
public final class SharedPermissions {

	/** The umask decides (git's default). */
	public static final int UMASK = 0;

	/** {@code group}: owner and group read and write. */
	public static final int GROUP = 0660;

	/** {@code all}: owner and group read and write, others read. */
	public static final int EVERYBODY = 0664;

	private static final PosixFilePermission[] BITS = { PosixFilePermission.OTHERS_EXECUTE,
			PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE,
			PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE,
			PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ };

	private SharedPermissions() {
	}

	/**
	 * The setting {@code value} of {@code core.sharedRepository} names, read as git reads
	 * it; {@code null} (the key given without a value) means {@code group}.
	 * @throws IllegalArgumentException for a mode that denies the owner read or write
	 */
	public static int parse(String value) {
		if (value == null) {
			return GROUP;
		}
		switch (value) {
			case "umask":
				return UMASK;
			case "group":
				return GROUP;
			case "all", "world", "everybody":
				return EVERYBODY;
			default:
				break;
		}
		int mode;
		try {
			mode = Integer.parseInt(value, 8);
		}
		catch (NumberFormatException ex) {
			return isTrue(value) ? GROUP : UMASK;
		}
		// 0, 1 and 2 are the old spellings of umask, group and everybody
		switch (mode) {
			case 0:
				return UMASK;
			case 1:
				return GROUP;
			case 2:
				return EVERYBODY;
			default:
				break;
		}
		if ((mode & 0600) != 0600) {
			throw new IllegalArgumentException(String.format("problem with core.sharedRepository filemode value "
					+ "(0%03o).\nThe owner of files must always have read and write permissions.", mode));
		}
		return -(mode & 0666);
	}

	private static boolean isTrue(String value) {
		return switch (value.toLowerCase(Locale.ROOT)) {
			case "true", "yes", "on" -> true;
			default -> false;
		};
	}

	/**
	 * Gives {@code file} the permissions {@code shared} asks for, as git does for each
	 * file it creates in a shared repository; nothing for {@link #UMASK} or on a file
	 * system without POSIX permissions.
	 */
	public static void adjust(Path file, int shared) throws IOException {
		if (shared == UMASK) {
			return;
		}
		PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
		if (view == null) {
			return;
		}
		int mode = toMode(view.readAttributes().permissions());
		int wanted = apply(mode, shared);
		if (wanted != mode) {
			view.setPermissions(toPermissions(wanted));
		}
	}

	/** The permission bits {@code mode} gets under {@code shared}. */
	static int apply(int mode, int shared) {
		int tweak = Math.abs(shared);
		if ((mode & 0200) == 0) {
			// a read-only file stays read-only for everyone
			tweak &= ~0222;
		}
		if ((mode & 0100) != 0) {
			// whoever may read an executable may run it
			tweak |= (tweak & 0444) >> 2;
		}
		return (shared < 0) ? (mode & ~0777) | tweak : mode | tweak;
	}

	private static int toMode(Set<PosixFilePermission> permissions) {
		int mode = 0;
		for (int bit = 0; bit < BITS.length; bit++) {
			if (permissions.contains(BITS[bit])) {
				mode |= 1 << bit;
			}
		}
		return mode;
	}

	private static Set<PosixFilePermission> toPermissions(int mode) {
		Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
		for (int bit = 0; bit < BITS.length; bit++) {
			if ((mode & (1 << bit)) != 0) {
				permissions.add(BITS[bit]);
			}
		}
		return permissions;
	}

}
