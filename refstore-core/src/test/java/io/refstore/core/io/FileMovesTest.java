package io.refstore.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FileMoves#moveFinishing}: the move of a store's directory into its backup, run
 * again after a power cut left that directory in both places (the campaign of issue 33
 * found it: the rerun of a migration stopped for good with "Directory not empty").
 */
class FileMovesTest {

	@TempDir
	Path dir;

	@Test
	void movesADirectoryTheBackupDoesNotHoldYet() throws IOException {
		Path from = write("git/logs/refs/heads/a", "one");
		Path to = this.dir.resolve("backup/logs");
		assertThat(FileMoves.moveFinishing(this.dir.resolve("git/logs"), to)).isTrue();
		assertThat(from).doesNotExist();
		assertThat(to.resolve("refs/heads/a")).hasContent("one");
		assertThat(FileMoves.moveFinishing(this.dir.resolve("git/logs"), to)).isFalse();
	}

	@Test
	void finishesAMoveLeftInBothPlacesKeepingWhatOnlyTheSourceHolds() throws IOException {
		write("git/logs/refs/heads/a", "one");
		write("git/logs/refs/heads/b", "two");
		write("git/logs/HEAD", "head");
		write("backup/logs/refs/heads/a", "one");
		write("backup/logs/HEAD", "head");
		Files.createDirectories(this.dir.resolve("git/logs/refs/tags"));
		assertThat(FileMoves.moveFinishing(this.dir.resolve("git/logs"), this.dir.resolve("backup/logs"))).isTrue();
		assertThat(this.dir.resolve("git/logs")).doesNotExist();
		assertThat(this.dir.resolve("backup/logs/refs/heads/a")).hasContent("one");
		assertThat(this.dir.resolve("backup/logs/refs/heads/b")).hasContent("two");
		assertThat(this.dir.resolve("backup/logs/HEAD")).hasContent("head");
		assertThat(this.dir.resolve("backup/logs/refs/tags")).isEmptyDirectory();
	}

	@Test
	void refusesToChooseBetweenTwoContentsUnderOneName() throws IOException {
		Path source = write("git/reftable/tables.list", "0x01.ref");
		Path target = write("backup/reftable/tables.list", "0x02.ref");
		assertThatThrownBy(
				() -> FileMoves.moveFinishing(this.dir.resolve("git/reftable"), this.dir.resolve("backup/reftable")))
			.isInstanceOf(IOException.class)
			.hasMessageContaining(source.toString())
			.hasMessageContaining(target.toString());
		assertThat(source).hasContent("0x01.ref");
		assertThat(target).hasContent("0x02.ref");
	}

	private Path write(String path, String content) throws IOException {
		Path file = this.dir.resolve(path);
		Files.createDirectories(file.getParent());
		return Files.writeString(file, content, StandardCharsets.UTF_8);
	}

}
