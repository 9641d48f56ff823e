package io.refstore.core.delete;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.delete.Manifest.ChunkState;
import io.refstore.core.delete.ManifestReader.Chunk;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogPolicy;
import io.refstore.core.ref.Rejection;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Mass deletion and restore on a repository of some thousands of refs, with git as the
 * judge of what was selected, what is left, and what came back. Subclasses pick the
 * format, the git that speaks it, and how to count the writes of one chunk.
 */
abstract class DeleteRefsContract {

	@TempDir
	Path tmp;

	TempRepo repo;

	List<String> commits;

	Repository repository;

	RefStore store;

	/** Makes an empty repository of the format under test. */
	abstract TempRepo newRepo(Path dir);

	/** Whether to pack refs while filling (a mix of packed and loose refs). */
	abstract boolean packs();

	/**
	 * The stored reflogs byte for byte where the test can read them (files), else an
	 * empty list.
	 */
	List<String> reflogBytes() {
		return List.of();
	}

	/** Runs git's own checks of the repository and requires them to pass. */
	abstract void assertGitChecksPass();

	/**
	 * Prepares the repository so that {@link #writeState()} tells the writes of one
	 * transaction apart.
	 */
	abstract void startCountingWrites() throws IOException;

	/** Undoes {@link #startCountingWrites()}. */
	abstract void stopCountingWrites() throws IOException;

	/**
	 * What changes on disk with each ref-storage write: the packed-refs inode, or the
	 * table list.
	 */
	abstract Object writeState() throws IOException;

	/**
	 * Requires that committing {@code chunk} changed the storage exactly as one
	 * transaction does.
	 */
	abstract void assertOneWrite(List<Ref> chunk, Object before, Object after) throws IOException;

	@BeforeEach
	void setUp() throws IOException {
		this.repo = newRepo(this.tmp.resolve("repo"));
		this.commits = DeletionFixture.fill(this.repo, packs());
		open();
	}

	@AfterEach
	void tearDown() throws IOException {
		this.store.close();
		this.repository.close();
	}

	void open() throws IOException {
		if (this.store != null) {
			tearDown();
		}
		this.repository = Repository.open(this.repo.dir(), Map.of("GIT_COMMITTER_NAME", "C O Mitter",
				"GIT_COMMITTER_EMAIL", "committer@example.com", "GIT_COMMITTER_DATE", GitCli.FIXED_DATE));
		this.store = RefStores.open(this.repository);
	}

	/**
	 * Prefix, two globs, names (one duplicate, one excluded, two missing) and two
	 * exclusions.
	 */
	static RefSelection selection() {
		return RefSelection.builder()
			.prefix("refs/heads/tmp/")
			.glob("refs/tags/v0.*")
			.glob("refs/pull/*/head")
			.exclude("refs/heads/tmp/keep")
			.exclude("refs/tags/v0.1*")
			.name("refs/heads/keep/k007")
			.name("refs/remotes/origin/HEAD")
			.name("refs/remotes/origin/b005")
			.name("refs/heads/tmp/t0003")
			.name("refs/tags/v0.150")
			.name("refs/heads/nope")
			.name("refs/heads/absent/x")
			.build();
	}

	/** What git says {@link #selection()} selects, in git's order. */
	List<String> expectedSelection() {
		Set<String> selected = new TreeSet<>();
		for (String name : DeletionFixture.names(this.repo)) {
			if (name.startsWith("refs/heads/tmp/")) {
				selected.add(name);
			}
		}
		selected.addAll(DeletionFixture.forEachRef(this.repo, "refs/tags/v0.*", "refs/pull/*/head"));
		selected.addAll(DeletionFixture.forEachRef(this.repo, "refs/heads/keep/k007", "refs/remotes/origin/HEAD",
				"refs/remotes/origin/b005", "refs/heads/tmp/t0003", "refs/tags/v0.150"));
		selected.removeAll(DeletionFixture.forEachRef(this.repo, "refs/heads/tmp/keep", "refs/tags/v0.1*"));
		List<String> inGitOrder = new ArrayList<>(DeletionFixture.names(this.repo));
		inGitOrder.retainAll(selected);
		return inGitOrder;
	}

	@Test
	void dryRunCountsWhatGitSelectsAndChangesNothing() throws IOException {
		List<String> expected = expectedSelection();
		List<String> before = DeletionFixture.refs(this.repo);
		DryRun dry = new RefDeleter(this.store).dryRun(selection(), 25);
		assertThat(dry.matched()).isEqualTo(expected.size()).isGreaterThan(2000);
		assertThat(dry.missing()).isEqualTo(2);
		assertThat(dry.sample()).isEqualTo(expected.subList(0, 25));
		assertThat(new RefDeleter(this.store).dryRun(selection(), Integer.MAX_VALUE).sample()).isEqualTo(expected);
		assertThat(DeletionFixture.refs(this.repo)).isEqualTo(before);
	}

	@Test
	void deletesInChunksOfOneWriteEachAndRestoreBringsBackRefsAndReflogs() throws IOException {
		List<String> expected = expectedSelection();
		List<String> refs = DeletionFixture.refs(this.repo);
		List<String> shown = DeletionFixture.showRef(this.repo);
		List<String> reflogs = DeletionFixture.reflogs(this.repo);
		List<String> reflogBytes = reflogBytes();
		assertThat(reflogs).hasSizeGreaterThan(2000)
			.anyMatch((line) -> line.contains("@{1700003600 +0530}") && line.endsWith(" rewind with spaces: \u00fc"))
			.anyMatch((line) -> line.contains(" Ann Other <ann@example.com> "));
		startCountingWrites();
		List<List<Ref>> chunks = new ArrayList<>();
		Object[] state = new Object[1];
		ChunkListener counter = new ChunkListener() {
			@Override
			public void beforeCommit(int chunk, List<Ref> refsOfChunk) throws IOException {
				state[0] = writeState();
			}

			@Override
			public void afterCommit(int chunk, List<Ref> refsOfChunk) throws IOException {
				assertOneWrite(refsOfChunk, state[0], writeState());
				chunks.add(refsOfChunk);
			}
		};
		Path manifest = this.tmp.resolve("delete.manifest");
		DeleteResult result = new RefDeleter(this.store).delete(selection(),
				DeleteOptions.to(manifest).withChunkSize(97).withListener(counter));

		assertThat(result.failed()).isEmpty();
		assertThat(result.deleted()).isEqualTo(expected.size());
		assertThat(result.chunks()).isEqualTo((expected.size() + 96) / 97).isEqualTo(chunks.size());
		assertThat(result.missing()).isEqualTo(2);
		assertThat(chunks.stream().flatMap(List::stream).map(Ref::name).toList()).isEqualTo(expected);
		Set<String> deleted = new TreeSet<>(expected);
		assertThat(DeletionFixture.refs(this.repo)).isEqualTo(DeletionFixture.without(refs, deleted, 0));
		assertThat(DeletionFixture.showRef(this.repo)).isEqualTo(DeletionFixture.without(shown, deleted, 1));
		assertThat(manifestStates(manifest)).hasSize(result.chunks()).containsOnly(ChunkState.COMMITTED);
		assertGitChecksPass();
		stopCountingWrites();

		RestoreResult restored = restore(manifest);
		assertThat(restored.complete()).isTrue();
		assertThat(restored.restored()).isEqualTo(expected.size());
		assertThat(DeletionFixture.refs(this.repo)).isEqualTo(refs);
		assertThat(DeletionFixture.showRef(this.repo)).isEqualTo(shown);
		assertThat(DeletionFixture.reflogs(this.repo)).isEqualTo(reflogs);
		assertThat(reflogBytes()).isEqualTo(reflogBytes);
		assertGitChecksPass();

		RestoreResult again = restore(manifest);
		assertThat(again.restored()).isZero();
		assertThat(again.present()).isEqualTo(expected.size());
		assertThat(again.reflogEntries()).isZero();
		assertThat(DeletionFixture.reflogs(this.repo)).isEqualTo(reflogs);
	}

	@Test
	void refChangedBeforeItsChunkCommitsFailsThatWholeChunkAndTheManifestSaysWhich() throws IOException {
		List<String> expected = expectedSelection();
		List<String> refs = DeletionFixture.refs(this.repo);
		String changed = expected.get(2 * 50 + 7);
		ChunkListener racer = new ChunkListener() {
			@Override
			public void beforeCommit(int chunk, List<Ref> refsOfChunk) {
				if (chunk == 3) {
					DeleteRefsContract.this.repo.git("update-ref", changed, DeleteRefsContract.this.commits.get(39));
				}
			}
		};
		Path manifest = this.tmp.resolve("delete.manifest");
		DeleteResult result = new RefDeleter(this.store).delete(selection(),
				DeleteOptions.to(manifest).withChunkSize(50).withListener(racer));

		ChunkFailure failure = result.failed().orElseThrow();
		assertThat(failure.chunk()).isEqualTo(3);
		assertThat(failure.ref()).isEqualTo(changed);
		assertThat(failure.rejection()).isEqualTo(Rejection.INCORRECT_OLD_VALUE);
		assertThat(failure.message()).contains(changed).contains(this.commits.get(39));
		assertThat(failure.inDoubt()).isFalse();
		assertThat(result.deleted()).isEqualTo(100);
		assertThat(result.chunks()).isEqualTo(2);
		assertThat(manifestStates(manifest)).containsExactly(ChunkState.COMMITTED, ChunkState.COMMITTED,
				ChunkState.FAILED);
		List<String> left = DeletionFixture.names(this.repo);
		assertThat(left).doesNotContainAnyElementsOf(expected.subList(0, 100))
			.containsAll(expected.subList(100, expected.size()));
		assertGitChecksPass();

		RestoreResult restored = restore(manifest);
		assertThat(restored.complete()).isTrue();
		assertThat(restored.chunks()).isEqualTo(2);
		assertThat(restored.skippedChunks()).isEqualTo(1);
		assertThat(restored.restored()).isEqualTo(100);
		assertThat(DeletionFixture.without(DeletionFixture.refs(this.repo), Set.of(changed), 0))
			.isEqualTo(DeletionFixture.without(refs, Set.of(changed), 0));
	}

	@Test
	void restoreRefusesARefRecreatedWithAnotherValueAndChangesNothing() throws IOException {
		Path manifest = this.tmp.resolve("delete.manifest");
		DeleteResult result = new RefDeleter(this.store).delete(selection(), DeleteOptions.to(manifest));
		assertThat(result.failed()).isEmpty();
		this.repo.git("update-ref", "refs/heads/tmp/t0444", this.commits.get(39));
		List<String> after = DeletionFixture.refs(this.repo);

		RestoreResult restored = restore(manifest);
		assertThat(restored.conflict().ref()).isEqualTo("refs/heads/tmp/t0444");
		assertThat(restored.conflict().message()).isEqualTo("cannot restore 'refs/heads/tmp/t0444': it exists as "
				+ this.commits.get(39) + ", the manifest has " + this.commits.get(444 % 40));
		assertThat(restored.restored()).isZero();
		assertThat(DeletionFixture.refs(this.repo)).isEqualTo(after);
	}

	/**
	 * A restore of some names of a manifest puts back those refs alone, with their
	 * reflogs, and leaves the others deleted; one of those names recreated with another
	 * value meanwhile is refused and left as is, whatever the other refs of the manifest.
	 */
	@Test
	void aRestoreOfSomeNamesPutsBackThoseAloneAndRefusesOneRecreated() throws IOException {
		List<String> refs = DeletionFixture.refs(this.repo);
		Path manifest = this.tmp.resolve("delete.manifest");
		new RefDeleter(this.store).delete(selection(), DeleteOptions.to(manifest).withChunkSize(50));
		List<String> afterDeletion = DeletionFixture.refs(this.repo);
		String one = "refs/heads/tmp/t0003";
		String other = "refs/heads/tmp/t0444";
		try (RefStore restoring = RefStores.open(this.repository, ReflogPolicy.EXISTING_ONLY)) {
			RefRestorer restorer = new RefRestorer(restoring, Set.of(one));
			assertThat(restorer.deletedRefs(manifest, "refs/heads/tmp/t0003", 10)).extracting(Ref::name)
				.containsExactly(one);
			assertThat(restorer.countRefs(manifest)).isEqualTo(1);
			RestoreResult restored = restorer.restore(manifest, ChunkListener.NONE);
			assertThat(restored.complete()).isTrue();
			assertThat(restored.restored()).isEqualTo(1);
		}
		List<String> expected = new ArrayList<>(afterDeletion);
		expected.add(refs.stream().filter((line) -> line.startsWith(one + " ")).findFirst().orElseThrow());
		expected.sort(null);
		List<String> now = new ArrayList<>(DeletionFixture.refs(this.repo));
		now.sort(null);
		assertThat(now).isEqualTo(expected);

		this.repo.git("update-ref", other, this.commits.get(39));
		List<String> before = DeletionFixture.refs(this.repo);
		try (RefStore restoring = RefStores.open(this.repository, ReflogPolicy.EXISTING_ONLY)) {
			RestoreResult refused = new RefRestorer(restoring, Set.of(other)).restore(manifest, ChunkListener.NONE);
			assertThat(refused.conflict().ref()).isEqualTo(other);
			assertThat(refused.restored()).isZero();
		}
		assertThat(DeletionFixture.refs(this.repo)).isEqualTo(before);
	}

	@Test
	void chunkWhoseOutcomeWasNotRecordedIsRestoredRefByRef() throws IOException {
		List<String> expected = expectedSelection();
		List<String> refs = DeletionFixture.refs(this.repo);
		Path manifest = this.tmp.resolve("delete.manifest");
		new RefDeleter(this.store).delete(selection(), DeleteOptions.to(manifest).withChunkSize(500));
		// as if the run had died between the commit of chunk 2 and its record
		List<String> lines = new ArrayList<>(Files.readAllLines(manifest));
		lines.removeIf((line) -> line.equals("committed 2") || line.startsWith("done "));
		Files.write(manifest, lines);
		assertThat(manifestStates(manifest).get(1)).isEqualTo(ChunkState.IN_DOUBT);
		// and as if some refs of it had not been deleted: they are there with the
		// recorded value
		List<String> kept = chunkNames(manifest, 2).stream()
			.filter((name) -> name.startsWith("refs/pull/"))
			.limit(5)
			.toList();
		for (String name : kept) {
			String value = refs.stream().filter((line) -> line.startsWith(name + " ")).findFirst().orElseThrow();
			this.repo.git("update-ref", name, value.split(" ")[1]);
		}

		RestoreResult restored = restore(manifest);
		assertThat(restored.complete()).isTrue();
		assertThat(restored.restored()).isEqualTo(expected.size() - 5);
		assertThat(restored.present()).isEqualTo(5);
		assertThat(DeletionFixture.refs(this.repo)).isEqualTo(refs);
	}

	RestoreResult restore(Path manifest) throws IOException {
		try (RefStore restoring = RefStores.open(this.repository, ReflogPolicy.EXISTING_ONLY)) {
			return new RefRestorer(restoring).restore(manifest, ChunkListener.NONE);
		}
	}

	static List<ChunkState> manifestStates(Path manifest) throws IOException {
		List<ChunkState> states = new ArrayList<>();
		try (ManifestReader reader = ManifestReader.open(manifest)) {
			for (Chunk chunk = reader.next(); chunk != null; chunk = reader.next()) {
				states.add(chunk.state());
			}
		}
		return states;
	}

	private static List<String> chunkNames(Path manifest, int number) throws IOException {
		try (ManifestReader reader = ManifestReader.open(manifest)) {
			for (Chunk chunk = reader.next(); chunk != null; chunk = reader.next()) {
				if (chunk.number() == number) {
					return chunk.refs().stream().map((saved) -> saved.ref().name()).toList();
				}
			}
		}
		throw new AssertionError("no chunk " + number);
	}

}
