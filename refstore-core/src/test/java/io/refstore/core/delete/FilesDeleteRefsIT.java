package io.refstore.core.delete;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
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

	/**
	 * A sync-forced chunk removes its reflogs only once its commit is on the disk, so a
	 * kill (or a power cut) in between leaves the reflogs of refs it deleted: the restore
	 * brings each ref back with its log once, and deleting such a name removes its log as
	 * git does.
	 */
	@Test
	void reflogsLeftByADeletionKilledAfterItsCommitAreRestoredOnceAndRemovedLikeGits() throws IOException {
		List<String> refs = DeletionFixture.refs(this.repo);
		List<String> reflogs = DeletionFixture.reflogs(this.repo);
		List<String> reflogBytes = reflogBytes();
		Path logs = this.repo.gitDir().resolve("logs");
		Path saved = this.tmp.resolve("logs-before");
		copyTree(logs, saved);
		Path manifest = this.tmp.resolve("delete.manifest");
		DeleteResult result = new RefDeleter(this.store).delete(selection(),
				DeleteOptions.to(manifest).withChunkSize(500));
		assertThat(result.failed()).isEmpty();
		// the state of a kill between the commit and the removal of the reflogs
		copyTree(saved, logs);
		String left = "refs/heads/tmp/t0444";
		assertThat(this.repo.git("reflog", "exists", left)).isEmpty();
		assertThat(this.repo.git("for-each-ref", left)).isEmpty();

		RestoreResult restored = restore(manifest);
		assertThat(restored.complete()).isTrue();
		assertThat(DeletionFixture.refs(this.repo)).isEqualTo(refs);
		assertThat(DeletionFixture.reflogs(this.repo)).isEqualTo(reflogs);
		assertThat(reflogBytes()).isEqualTo(reflogBytes);
		assertGitChecksPass();

		// git's update-ref -d of a name without a ref removes the log it finds there;
		// so does this store's
		String other = "refs/heads/tmp/t0445";
		this.repo.git("update-ref", "-d", left);
		this.repo.git("update-ref", "-d", other);
		copyTree(saved, logs);
		assertThat(Files.exists(logs.resolve(left))).isTrue();
		this.repo.git("update-ref", "-d", left);
		try (RefTransaction transaction = this.store.newTransaction()) {
			transaction.add(RefUpdate.delete(other, null));
			assertThat(transaction.commit().committed()).isTrue();
		}
		assertThat(logs.resolve(left)).doesNotExist();
		assertThat(logs.resolve(other)).doesNotExist();
	}

	private static void copyTree(Path from, Path to) throws IOException {
		try (Stream<Path> files = Files.walk(from)) {
			for (Path file : files.toList()) {
				Path target = to.resolve(from.relativize(file).toString());
				if (Files.isDirectory(file)) {
					Files.createDirectories(target);
				}
				else {
					Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
				}
			}
		}
	}

}
