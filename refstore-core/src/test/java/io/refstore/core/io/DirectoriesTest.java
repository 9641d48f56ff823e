package io.refstore.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Directories#entries}: every entry, each a path that reaches its file, also one
 * whose name's bytes do not decode (made by the shell: Java cannot name it); and the
 * exceptions NIO throws for what is not a directory.
 */
class DirectoriesTest {

	@TempDir
	Path dir;

	@Test
	void everyEntryIsListedAndReachesItsFile() throws IOException {
		Files.createFile(this.dir.resolve("head"));
		Files.createDirectory(this.dir.resolve("sub"));
		Files.createFile(this.dir.resolve("v1.0"));

		List<Path> entries = Directories.entries(this.dir);

		assertThat(entries).extracting((entry) -> entry.getFileName().toString())
			.containsExactlyInAnyOrder("head", "sub", "v1.0");
		assertThat(entries).allMatch((entry) -> Files.exists(entry, LinkOption.NOFOLLOW_LINKS));
	}

	@Test
	void aNameWhoseBytesDoNotDecodeStillReachesItsFile() throws Exception {
		Process shell = new ProcessBuilder("sh", "-c", "printf x > \"$(printf 'bad\\377name')\"")
			.directory(this.dir.toFile())
			.start();
		assertThat(shell.waitFor()).isZero();
		Files.createFile(this.dir.resolve("good"));

		List<Path> entries = Directories.entries(this.dir);

		assertThat(entries).hasSize(2).allMatch((entry) -> Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS));
	}

	@Test
	void whatIsNoDirectoryIsRefusedAsNioRefusesIt() throws IOException {
		Path file = Files.createFile(this.dir.resolve("file"));

		assertThatThrownBy(() -> Directories.entries(this.dir.resolve("missing")))
			.isInstanceOf(NoSuchFileException.class);
		assertThatThrownBy(() -> Directories.entries(file)).isInstanceOf(NotDirectoryException.class);
	}

}
