package io.refstore.core.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.StoreStatistics;

/**
 * {@link FilesRefStore#statistics()}: loose refs walked and read, {@code packed-refs}
 * counted by streaming its lines. Maintenance is due when the loose refs that
 * {@code pack-refs --all} would pack reach git's limit, as {@code pack-refs --all --auto}
 * (git's maintenance task) decides: a loose symbolic ref is never packed, and counting it
 * would keep a store due forever.
 */
final class FilesStatistics {

	private FilesStatistics() {
	}

	static StoreStatistics of(FilesRefStore store) throws IOException {
		long looseRefs = 0;
		long looseBytes = 0;
		long packable = 0;
		for (byte[] nameBytes : LooseRefs.list(store.options.commonDir(), "")) {
			String name = new String(nameBytes, StandardCharsets.UTF_8);
			byte[] content;
			try {
				content = Files.readAllBytes(store.refPath(name));
			}
			catch (NoSuchFileException ex) {
				// deleted since the walk: no longer a loose ref
				continue;
			}
			looseRefs++;
			looseBytes += content.length;
			if (FilesPacker.packs(store.options.objects(), name,
					LooseRefs.parse(content, name, store.hashAlgorithm()))) {
				packable++;
			}
		}
		long packedSize;
		long packedRefs;
		try (InputStream in = Files.newInputStream(store.packedFile())) {
			packedSize = Files.size(store.packedFile());
			packedRefs = countRecords(in);
		}
		catch (NoSuchFileException ex) {
			packedSize = 0;
			packedRefs = 0;
		}
		long limit = StoreStatistics.looseRefLimit(packedSize);
		boolean due = packable >= limit;
		// read by people (the console, the API): digits grouped
		String counted = (packable == looseRefs) ? grouped(looseRefs) + " loose refs" : grouped(packable) + " of "
				+ grouped(looseRefs) + " loose refs to pack (symbolic, broken and per-worktree refs stay loose)";
		String reason = counted + ", " + (due ? "at or above" : "below") + " the limit of " + grouped(limit)
				+ " for a packed-refs of " + grouped(packedSize) + " bytes";
		return new StoreStatistics(RefFormat.FILES, looseRefs, packedRefs, 0, packedSize + looseBytes, due, reason);
	}

	private static String grouped(long value) {
		return String.format(Locale.ROOT, "%,d", value);
	}

	/**
	 * Lines that start a record: neither the header comment nor a {@code ^} peeled line.
	 */
	private static long countRecords(InputStream in) throws IOException {
		byte[] buf = new byte[1 << 16];
		long records = 0;
		boolean lineStart = true;
		for (int n; (n = in.read(buf)) > 0;) {
			for (int i = 0; i < n; i++) {
				byte b = buf[i];
				if (lineStart && b != '#' && b != '^' && b != '\n') {
					records++;
				}
				lineStart = (b == '\n');
			}
		}
		return records;
	}

}
