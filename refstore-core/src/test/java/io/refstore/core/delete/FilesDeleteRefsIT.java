package io.refstore.core.delete;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.refstore.core.ref.Ref;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Mass deletion on the files backend, judged by git 2.39 (and {@code git refs verify} of
 * the reftable git): a chunk rewrites {@code packed-refs} once if it deletes a packed
 * ref, and not at all otherwise.
 */
class FilesDeleteRefsIT extends DeleteRefsContract {

	private Set<String> packed;

	@Override
	TempRepo newRepo(Path dir) {
		return TempRepo.init(GitCli.system(), dir);
	}

	@Override
	boolean packs() {
		return true;
	}

	@Override
	void assertGitChecksPass() {
		this.repo.git("fsck", "--no-progress");
		assertThat(GitCli.reftable().ok(this.repo.dir(), "refs", "verify", "--strict")).isEmpty();
	}

	@Override
	List<String> reflogBytes() {
		return DeletionFixture.logFiles(this.repo);
	}

	@Override
	void startCountingWrites() throws IOException {
		this.packed = new TreeSet<>();
		for (String line : Files.readAllLines(packedRefs(), StandardCharsets.UTF_8)) {
			if (!line.startsWith("#") && !line.startsWith("^")) {
				this.packed.add(line.substring(line.indexOf(' ') + 1));
			}
		}
		assertThat(this.packed).hasSizeGreaterThan(3000);
		List<String> loose = DeletionFixture.names(this.repo)
			.stream()
			.filter((name) -> Files.isRegularFile(this.repo.gitDir().resolve(name)))
			.toList();
		assertThat(loose).hasSizeGreaterThan(200);
	}

	@Override
	void stopCountingWrites() {
		// nothing was changed to count
	}

	private Path packedRefs() {
		return this.repo.gitDir().resolve("packed-refs");
	}

	@Override
	Object writeState() throws IOException {
		return Files.getAttribute(packedRefs(), "unix:ino");
	}

	@Override
	void assertOneWrite(List<Ref> chunk, Object before, Object after) {
		boolean deletesPacked = chunk.stream().anyMatch((ref) -> this.packed.contains(ref.name()));
		assertThat(after.equals(before)).as("packed-refs kept its inode").isEqualTo(!deletesPacked);
	}

}
