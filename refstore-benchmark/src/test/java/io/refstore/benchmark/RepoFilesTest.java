package io.refstore.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RepoFilesTest {

	@TempDir
	Path dir;

	@Test
	void aCopySharesObjectsButNotRefs() throws IOException {
		Path repo = this.dir.resolve("repo.git");
		Files.createDirectories(repo.resolve("objects/pack"));
		Files.createDirectories(repo.resolve("refs/heads"));
		Files.writeString(repo.resolve("objects/pack/pack-1.pack"), "pack");
		Files.writeString(repo.resolve("packed-refs"), "old\n");
		Files.writeString(repo.resolve("refs/heads/main"), "main\n");

		Path copy = this.dir.resolve("copy.git");
		RepoFiles.copyRepo(repo, copy);
		Files.writeString(copy.resolve("packed-refs"), "new\n");
		Files.delete(copy.resolve("refs/heads/main"));

		assertThat(Files.readString(repo.resolve("packed-refs"))).isEqualTo("old\n");
		assertThat(repo.resolve("refs/heads/main")).hasContent("main");
		assertThat(Files.isSameFile(repo.resolve("objects/pack/pack-1.pack"), copy.resolve("objects/pack/pack-1.pack")))
			.isTrue();
		assertThat(Files.getAttribute(repo.resolve("objects/pack/pack-1.pack"), "unix:nlink")).isEqualTo(2);
	}

	@Test
	void deleteTreeRemovesEverythingAndIgnoresWhatIsMissing() throws IOException {
		Path tree = this.dir.resolve("a");
		Files.createDirectories(tree.resolve("b/c"));
		Files.writeString(tree.resolve("b/c/f"), "x");
		RepoFiles.deleteTree(tree);
		assertThat(tree).doesNotExist();
		RepoFiles.deleteTree(tree);
	}

}
