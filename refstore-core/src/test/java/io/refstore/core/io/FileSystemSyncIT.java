package io.refstore.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.testing.SmallDisk;

/**
 * {@link FileSystemSync} on real file systems (mounted, which needs root: see
 * {@link SmallDisk}): one sync of an ext4 file system for a bulk write, none where it
 * would not force the files, and an error when the write-back fails.
 */
class FileSystemSyncIT {

	@TempDir
	Path tmp;

	@Test
	void syncsAnExt4FileSystemOnceForABulkWriteAndLeavesAFewFilesToTheCaller() throws IOException {
		try (SmallDisk disk = SmallDisk.thinExt4(this.tmp.resolve("thin"), 64L << 20, 256L << 20)) {
			Path dir = written(disk.root(), FileSystemSync.FROM_FILES);
			long flushes = Fsync.fileFlushes();

			assertThat(FileSystemSync.tried(dir, FileSystemSync.FROM_FILES - 1)).isFalse();
			assertThat(Fsync.fileFlushes()).isEqualTo(flushes);
			assertThat(FileSystemSync.tried(dir, FileSystemSync.FROM_FILES)).isTrue();
			assertThat(Fsync.fileFlushes()).isEqualTo(flushes + 1);
		}
	}

	@Test
	void leavesAFileSystemWhoseSyncForcesNothingToTheCaller() throws IOException {
		try (SmallDisk disk = SmallDisk.tmpfs(this.tmp.resolve("tmpfs"), 16L << 20)) {
			Path dir = written(disk.root(), 10);

			assertThat(FileSystemSync.tried(dir, 100_000)).isFalse();
		}
	}

	@Test
	void failsWhenTheWriteBackFails() throws IOException {
		try (SmallDisk disk = SmallDisk.thinExt4(this.tmp.resolve("thin"), 16L << 20, 256L << 20)) {
			// every write from here lands in the page cache and fails on its way to the
			// device
			disk.fillBacking();
			Path dir = written(disk.root(), FileSystemSync.FROM_FILES);

			assertThatThrownBy(() -> FileSystemSync.tried(dir, FileSystemSync.FROM_FILES))
				.isInstanceOf(IOException.class)
				.hasMessageStartingWith("syncing the file system of " + dir + " failed: ")
				.hasMessageNotContaining("exit status");
			disk.unfill();
		}
	}

	/** A directory of {@code count} new files of a few KB each, not synced. */
	private static Path written(Path root, int count) throws IOException {
		Path dir = Files.createDirectories(root.resolve("logs"));
		byte[] content = new byte[4096];
		for (int i = 0; i < count; i++) {
			Files.write(dir.resolve("log" + i), content);
		}
		return dir;
	}

}
