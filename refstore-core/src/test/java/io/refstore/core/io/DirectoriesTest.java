package io.refstore.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Directories#entries}: every entry, each a path that reaches its file, also one
 * whose name's bytes do not decode (made by the shell: Java cannot name it); and the
 * exceptions NIO throws for what is not a directory. {@link Directories#forEachLeaf}:
 * every file of a tree and nothing else, in leaf directories, in directories mixing files
 * and subdirectories, and through a symbolic link to a directory, which it does not
 * follow.
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

	@Test
	void aWalkVisitsEveryFileOfTheTreeByItsNameAndNoDirectory() throws IOException {
		// a leaf directory of many files, a directory mixing files and subdirectories
		// (listed in no particular order), nested leaf directories and an empty one
		Path heads = Files.createDirectories(this.dir.resolve("refs/heads"));
		for (int i = 0; i < 50; i++) {
			Files.writeString(heads.resolve("b" + i), "x");
		}
		Files.createDirectories(heads.resolve("feature/deep"));
		Files.writeString(heads.resolve("feature/deep/x"), "x");
		Files.writeString(heads.resolve("feature/y"), "x");
		for (int n = 0; n < 20; n++) {
			Path pull = Files.createDirectories(this.dir.resolve("refs/pull/" + n));
			Files.writeString(pull.resolve("head"), "x");
		}
		Files.createDirectories(this.dir.resolve("refs/tags"));
		Files.writeString(this.dir.resolve("refs/zz"), "x");

		Map<String, Path> visited = new TreeMap<>();
		boolean walked = Directories.forEachLeaf(this.dir.resolve("refs"), "refs/",
				(file, name) -> assertThat(visited.put(name, file)).as(name).isNull());

		assertThat(walked).isTrue();
		List<String> expected = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			expected.add("refs/heads/b" + i);
		}
		expected.addAll(List.of("refs/heads/feature/deep/x", "refs/heads/feature/y", "refs/zz"));
		for (int n = 0; n < 20; n++) {
			expected.add("refs/pull/" + n + "/head");
		}
		assertThat(visited.keySet()).containsExactlyInAnyOrderElementsOf(expected);
		visited.forEach((name, file) -> assertThat(this.dir.resolve(name)).isEqualTo(file));
	}

	@Test
	void aWalkNamesASymbolicLinkAndDoesNotFollowIt() throws IOException {
		Path outside = Files.createDirectories(this.dir.resolve("outside"));
		Files.writeString(outside.resolve("secret"), "x");
		Path logs = Files.createDirectories(this.dir.resolve("logs"));
		Files.writeString(logs.resolve("main"), "x");
		Files.createSymbolicLink(logs.resolve("link"), outside);

		List<String> names = new ArrayList<>();
		Directories.forEachLeaf(logs, "", (file, name) -> names.add(name));

		assertThat(names).containsExactlyInAnyOrder("main", "link");
	}

	@Test
	void aWalkOfWhatIsNoDirectoryVisitsNothing() throws IOException {
		Path file = Files.createFile(this.dir.resolve("file"));
		List<String> names = new ArrayList<>();

		assertThat(Directories.forEachLeaf(this.dir.resolve("missing"), "", (f, name) -> names.add(name))).isFalse();
		assertThat(Directories.forEachLeaf(file, "", (f, name) -> names.add(name))).isFalse();
		assertThat(names).isEmpty();
	}

}
