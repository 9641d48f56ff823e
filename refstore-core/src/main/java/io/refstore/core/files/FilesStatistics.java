package io.refstore.core.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.StoreStatistics;

/**
 * {@link FilesRefStore#statistics()}: loose refs walked, {@code packed-refs} counted by
 * streaming its lines.
 */
final class FilesStatistics {

	private FilesStatistics() {
	}

	static StoreStatistics of(FilesRefStore store) throws IOException {
		long looseRefs = 0;
		long looseBytes = 0;
		for (byte[] name : LooseRefs.list(store.options.commonDir(), "")) {
			try {
				looseBytes += Files.size(store.refPath(new String(name, StandardCharsets.UTF_8)));
				looseRefs++;
			}
			catch (NoSuchFileException ex) {
				// deleted since the walk: no longer a loose ref
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
		boolean due = looseRefs >= limit;
		String reason = looseRefs + " loose refs, " + (due ? "at or above" : "below") + " the limit of " + limit
				+ " for a packed-refs of " + packedSize + " bytes";
		return new StoreStatistics(RefFormat.FILES, looseRefs, packedRefs, 0, packedSize + looseBytes, due, reason);
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
