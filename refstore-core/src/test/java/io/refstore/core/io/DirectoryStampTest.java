package io.refstore.core.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class DirectoryStampTest {

	@TempDir
	Path tmp;

	private Path oldDirectory() throws IOException {
		Path dir = Files.createDirectories(this.tmp.resolve("dir"));
		Files.writeString(dir.resolve("packed-refs"), "one\n");
		age(dir);
		return dir;
	}

	private static void age(Path dir) throws IOException {
		Files.setLastModifiedTime(dir, FileTime.from(Instant.now().minusSeconds(3600)));
	}

	@Test
	void anUntouchedDirectoryIsUnchanged() throws IOException {
		try (DirectoryStamp stamp = new DirectoryStamp(oldDirectory())) {
			DirectoryStamp.Token token = stamp.read();
			assertThat(token).isNotNull();
			assertThat(stamp.unchanged(token)).isTrue();
			assertThat(stamp.unchanged(token)).isTrue();
		}
	}

	@Test
	void aFileRenamedOverAnotherChangesTheDirectory() throws IOException {
		Path dir = oldDirectory();
		try (DirectoryStamp stamp = new DirectoryStamp(dir)) {
			DirectoryStamp.Token token = stamp.read();
			Files.writeString(dir.resolve("packed-refs.lock"), "two\n");
			age(dir);
			DirectoryStamp.Token afterLock = stamp.read();
			Files.move(dir.resolve("packed-refs.lock"), dir.resolve("packed-refs"), StandardCopyOption.ATOMIC_MOVE,
					StandardCopyOption.REPLACE_EXISTING);
			assertThat(stamp.unchanged(token)).isFalse();
			assertThat(stamp.unchanged(afterLock)).isFalse();
		}
	}

	@Test
	void creatingOrDeletingAFileChangesTheDirectory() throws IOException {
		Path dir = oldDirectory();
		try (DirectoryStamp stamp = new DirectoryStamp(dir)) {
			DirectoryStamp.Token token = stamp.read();
			Files.writeString(dir.resolve("HEAD"), "ref: refs/heads/main\n");
			assertThat(stamp.unchanged(token)).isFalse();
			age(dir);
			DirectoryStamp.Token next = stamp.read();
			assertThat(stamp.unchanged(next)).isTrue();
			Files.delete(dir.resolve("packed-refs"));
			assertThat(stamp.unchanged(next)).isFalse();
		}
	}

	@Test
	void aRecentlyModifiedDirectoryGivesNoToken() throws IOException {
		Path dir = Files.createDirectories(this.tmp.resolve("fresh"));
		Files.writeString(dir.resolve("packed-refs"), "one\n");
		try (DirectoryStamp stamp = new DirectoryStamp(dir)) {
			DirectoryStamp.Token token = stamp.read();
			assertThat(token).isNull();
			assertThat(stamp.unchanged(token)).isFalse();
		}
	}

	@Test
	void aDirectoryRemovedAndMadeAgainIsNoticedAndFollowed() throws IOException {
		Path dir = oldDirectory();
		try (DirectoryStamp stamp = new DirectoryStamp(dir)) {
			DirectoryStamp.Token token = stamp.read();
			Files.delete(dir.resolve("packed-refs"));
			Files.delete(dir);
			Files.createDirectories(dir);
			Files.writeString(dir.resolve("packed-refs"), "two\n");
			age(dir);
			assertThat(stamp.unchanged(token)).isFalse();
			DirectoryStamp.Token next = stamp.read();
			assertThat(next).isNotNull();
			assertThat(stamp.unchanged(next)).isTrue();
			Files.writeString(dir.resolve("tables.list"), "");
			assertThat(stamp.unchanged(next)).isFalse();
		}
	}

	@Test
	void aMissingDirectoryGivesNoToken() {
		try (DirectoryStamp stamp = new DirectoryStamp(this.tmp.resolve("missing"))) {
			assertThat(stamp.read()).isNull();
			assertThat(stamp.unchanged(null)).isFalse();
		}
	}

	@Test
	void aClosedStampTellsNothing() throws IOException {
		DirectoryStamp stamp = new DirectoryStamp(oldDirectory());
		DirectoryStamp.Token token = stamp.read();
		stamp.close();
		assertThat(stamp.unchanged(token)).isFalse();
		assertThat(stamp.read()).isNull();
	}

}
