package io.refstore.core.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.io.FileSystemSync;
import io.refstore.core.io.Fsync;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.ReflogEntry;

/**
 * A new files store forces every file it wrote, found from the names written rather than
 * by walking the store: {@code packed-refs}, each loose ref and each log (fewer files
 * than {@link FileSystemSync#FROM_FILES}, so no sync of the whole file system stands in
 * for them).
 */
class FilesInitialWriterTest {

	private static final ObjectId A = ObjectId.fromHex(HashAlgorithm.SHA1, "07a33c9baff543b217103d0f7c3b90c6d743a0e5");

	@TempDir
	Path dir;

	@Test
	void finishForcesEveryFileWritten() throws IOException {
		ReflogEntry created = new ReflogEntry(ObjectId.zero(HashAlgorithm.SHA1), A,
				new PersonIdent("A", "a@example.com", 1_700_000_000L, 0), "created");
		long before;
		try (FilesInitialWriter writer = new FilesInitialWriter(this.dir, HashAlgorithm.SHA1)) {
			writer.addDirect(bytes("refs/heads/main"), "refs/heads/main".length(), A.toRaw(), null);
			writer.addDirect(bytes("refs/pull/1/head"), "refs/pull/1/head".length(), A.toRaw(), null);
			writer.addDirect(bytes("ORIG_HEAD"), "ORIG_HEAD".length(), A.toRaw(), null);
			writer.addSymbolic(bytes("HEAD"), "HEAD".length(), "refs/heads/main");
			for (String log : List.of("HEAD", "refs/heads/main", "refs/pull/1/head")) {
				writer.addReflog(log, List.of(created));
			}
			before = Fsync.fileFlushes();
			writer.finish();
		}
		// packed-refs, ORIG_HEAD, HEAD and three logs
		assertThat(Fsync.fileFlushes() - before).isEqualTo(6);
		assertThat(this.dir.resolve("logs/refs/pull/1/head")).isRegularFile();
		assertThat(Files.readString(this.dir.resolve("packed-refs"))).contains(A.name() + " refs/pull/1/head");
	}

	private static byte[] bytes(String name) {
		return name.getBytes(StandardCharsets.UTF_8);
	}

}
