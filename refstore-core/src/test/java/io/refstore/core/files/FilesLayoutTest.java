package io.refstore.core.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilesLayoutTest {

	private static final String MAIN = "07a33c9baff543b217103d0f7c3b90c6d743a0e5\n";

	@Test
	void retireTakesTheStoreWithTheLocksOfAKilledMigrationAndLeavesEverythingElse(@TempDir Path dir)
			throws IOException {
		Path gitDir = dir.resolve("git");
		// what a migration killed after the switch leaves: the files store with the locks
		// of lockStore
		write(gitDir, "HEAD", "ref: refs/heads/main\n");
		write(gitDir, "ORIG_HEAD", MAIN);
		write(gitDir, "packed-refs",
				"# pack-refs with: peeled fully-peeled sorted \n" + MAIN.strip() + " refs/heads/old\n");
		write(gitDir, "refs/heads/main", MAIN);
		write(gitDir, "logs/HEAD", "");
		for (String lock : List.of("HEAD.lock", "ORIG_HEAD.lock", "packed-refs.lock", "refs/heads/main.lock")) {
			write(gitDir, lock, "");
		}
		// not the store's: a pseudoref, another lock, the configuration
		write(gitDir, "FETCH_HEAD", MAIN);
		write(gitDir, "index.lock", "");
		write(gitDir, "config", "[core]\n");
		Path backup = dir.resolve("backup");

		FilesLayout.retire(gitDir, backup);

		assertThat(files(gitDir)).containsExactly("FETCH_HEAD", "HEAD", "config", "index.lock");
		assertThat(files(backup)).containsExactly("HEAD", "ORIG_HEAD", "logs/HEAD", "packed-refs", "refs/heads/main");
	}

	@Test
	void retireRunAgainAfterTheStubsWereWrittenLeavesStubsAndBackupAlone(@TempDir Path dir) throws IOException {
		Path gitDir = dir.resolve("git");
		write(gitDir, "HEAD", "ref: refs/heads/main\n");
		write(gitDir, "refs/heads/main", MAIN);
		write(gitDir, "refs/tags/v1", MAIN);
		write(gitDir, "logs/refs/heads/main", "");
		Path backup = dir.resolve("backup");
		FilesLayout.retire(gitDir, backup);
		io.refstore.core.reftable.ReftableLayout.writeStubs(gitDir);
		List<String> stubs = files(gitDir);
		List<String> kept = files(backup);

		// a migration killed after writing the stubs is finished by running retire once
		// more
		FilesLayout.retire(gitDir, backup);

		assertThat(files(gitDir)).isEqualTo(stubs).contains("refs/heads");
		assertThat(files(backup)).isEqualTo(kept).contains("refs/heads/main", "refs/tags/v1");
	}

	private static void write(Path gitDir, String name, String content) throws IOException {
		Path file = gitDir.resolve(name);
		Files.createDirectories(file.getParent());
		Files.writeString(file, content);
	}

	private static List<String> files(Path root) throws IOException {
		try (Stream<Path> paths = Files.walk(root)) {
			return paths.filter(Files::isRegularFile).map((path) -> root.relativize(path).toString()).sorted().toList();
		}
	}

}
