package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.io.Directories;
import io.refstore.core.testing.TempRepo;

/**
 * {@link StoreFiles#since}: a walk that lists again only the directories changed since an
 * earlier snapshot sees every file the full walk sees, as long as directories' times
 * tell.
 */
class StoreFilesIT {

	private static final FileTime HOUR_AGO = FileTime.from(Instant.now().minusSeconds(3600));

	private TempRepo repo;

	private List<String> commits;

	@BeforeEach
	void aRepositoryNobodyWroteToForAnHour(@TempDir Path dir) throws IOException {
		this.repo = TempRepo.init(MigrationRepos.NEWEST, dir.resolve("repo"));
		this.repo.git("config", "core.logAllRefUpdates", "always");
		this.commits = this.repo.commits(2, "c");
		this.repo.git("update-ref", "refs/heads/a", this.commits.get(0));
		this.repo.git("update-ref", "refs/heads/b", this.commits.get(0));
		this.repo.git("update-ref", "refs/pull/1/head", this.commits.get(0));
		age(this.repo.gitDir());
	}

	@Test
	void writesSinceAreSeenAsTheFullWalkSeesThem() throws IOException {
		StoreFiles earlier = StoreFiles.of(this.repo.gitDir());
		this.repo.git("update-ref", "refs/heads/a", this.commits.get(1));
		this.repo.git("update-ref", "refs/pull/2/head", this.commits.get(1));
		this.repo.git("update-ref", "-d", "refs/heads/b");

		StoreFiles since = StoreFiles.since(this.repo.gitDir(), earlier);

		assertThat(since.identities()).isEqualTo(StoreFiles.of(this.repo.gitDir()).identities())
			.containsKeys("refs/heads/a", "logs/refs/heads/a", "refs/pull/2/head", "logs/refs/pull/2/head")
			.doesNotContainKeys("refs/heads/b", "logs/refs/heads/b");
		assertThat(since.identities().get("logs/refs/heads/a"))
			.isNotEqualTo(earlier.identities().get("logs/refs/heads/a"));
		assertThat(earlier.unchangedIn(since)).isFalse();
	}

	@Test
	void logsAreLookedAtByNameAndALogMadeThroughASymbolicRefIsSeen() throws IOException {
		this.repo.git("-c", "core.logAllRefUpdates=false", "symbolic-ref", "refs/remotes/origin/HEAD", "refs/heads/a");
		StoreFiles earlier = StoreFiles.of(this.repo.gitDir());
		// git logs an update through a symbolic ref in the symbolic ref's log too: made
		// now, and the symbolic ref's own file is as it was
		this.repo.git("update-ref", "-m", "through", "refs/remotes/origin/HEAD", this.commits.get(1));
		// a file below logs/ that no write of a ref made: only a listing would find it
		Files.createDirectories(this.repo.gitDir().resolve("logs/refs/stray"));
		Files.writeString(this.repo.gitDir().resolve("logs/refs/stray/log"), "");
		// a log whose path is below a ref's log now
		this.repo.git("update-ref", "-d", "refs/pull/1/head");
		this.repo.git("update-ref", "refs/pull/1/head/deeper", this.commits.get(1));

		StoreFiles since = StoreFiles.since(this.repo.gitDir(), earlier);

		assertThat(earlier.identities()).doesNotContainKey("logs/refs/remotes/origin/HEAD");
		assertThat(since.identities())
			.containsKeys("logs/refs/remotes/origin/HEAD", "logs/refs/heads/a", "logs/refs/pull/1/head/deeper")
			.doesNotContainKeys("logs/refs/stray/log", "logs/refs/pull/1/head");
		assertThat(since.directories().keySet()).noneMatch((dir) -> dir.startsWith("logs"));
		assertThat(StoreFiles.of(this.repo.gitDir()).identities()).containsKey("logs/refs/stray/log");
	}

	@Test
	void logsReachedThroughALinkAreLookedAtByNeitherWalk(@TempDir Path elsewhere) throws IOException {
		Path logs = this.repo.gitDir().resolve("logs");
		Files.move(logs, elsewhere.resolve("logs"));
		Files.createSymbolicLink(logs, elsewhere.resolve("logs"));
		StoreFiles earlier = StoreFiles.of(this.repo.gitDir());

		StoreFiles since = StoreFiles.since(this.repo.gitDir(), earlier);

		assertThat(earlier.identities()).containsKey("refs/heads/a").doesNotContainKey("logs/refs/heads/a");
		assertThat(since.identities()).isEqualTo(earlier.identities());
		assertThat(earlier.unchangedIn(since)).isTrue();
	}

	@Test
	void aDirectoryWhoseTimeIsAsBeforeIsNotListedAgain() throws IOException {
		StoreFiles earlier = StoreFiles.of(this.repo.gitDir());
		assertThat(earlier.directories()).containsKeys("refs", "refs/heads", "logs/refs/pull/1");
		// a rename that keeps the directory's size, its time set back: only a listing
		// sees it
		Path heads = this.repo.gitDir().resolve("refs/heads");
		Files.move(heads.resolve("a"), heads.resolve("c"));
		Files.setLastModifiedTime(heads, HOUR_AGO);

		StoreFiles since = StoreFiles.since(this.repo.gitDir(), earlier);

		assertThat(Directories.isLocal(heads)).isTrue();
		assertThat(since.identities()).containsKey("refs/heads/b").doesNotContainKeys("refs/heads/a", "refs/heads/c");
		assertThat(StoreFiles.of(this.repo.gitDir()).identities()).containsKey("refs/heads/c");
	}

	@Test
	void aDirectoryModifiedTooRecentlyIsListedAgain() throws IOException {
		Path heads = this.repo.gitDir().resolve("refs/heads");
		Files.setLastModifiedTime(heads, FileTime.from(Instant.now()));
		StoreFiles earlier = StoreFiles.of(this.repo.gitDir());
		FileTime recorded = Files.getLastModifiedTime(heads);
		Files.move(heads.resolve("a"), heads.resolve("c"));
		Files.setLastModifiedTime(heads, recorded);

		StoreFiles since = StoreFiles.since(this.repo.gitDir(), earlier);

		assertThat(earlier.directories()).doesNotContainKey("refs/heads").containsKey("refs");
		assertThat(since.identities()).containsKeys("refs/heads/b", "refs/heads/c");
	}

	@Test
	void aStoreWrittenMomentsAgoOnALocalFileSystemIsTrustedOnceAFewTicksHavePassed() throws Exception {
		this.repo.git("update-ref", "refs/heads/a", this.commits.get(1));
		Path written = this.repo.gitDir().resolve("refs/heads/a");
		assertThat(Directories.isLocal(written)).isTrue();
		assertThat(Files.getLastModifiedTime(written).toInstant().getNano() % 1_000_000).as("a time finer than 1 ms")
			.isNotZero();
		Thread.sleep(300);

		StoreFiles earlier = StoreFiles.of(this.repo.gitDir());

		assertThat(earlier.unchangedIn(StoreFiles.since(this.repo.gitDir(), earlier))).isTrue();
	}

	@Test
	void aFileModifiedWithinATickIsRacy() throws IOException {
		Instant now = Instant.now();
		Files.setLastModifiedTime(this.repo.gitDir().resolve("refs/heads/a"),
				FileTime.from((now.getNano() % 1_000_000 == 0) ? now.plusNanos(1000) : now));

		StoreFiles earlier = StoreFiles.of(this.repo.gitDir());

		assertThat(earlier.unchangedIn(StoreFiles.since(this.repo.gitDir(), earlier))).isFalse();
	}

	@Test
	void aRecentTimeOfWholeMillisecondsIsTakenAsACoarseClocksAndIsRacyForTwoSeconds() throws IOException {
		// as a file system that keeps coarser times would give it
		Files.setLastModifiedTime(this.repo.gitDir().resolve("refs/heads/a"),
				FileTime.fromMillis(System.currentTimeMillis() - 500));

		StoreFiles earlier = StoreFiles.of(this.repo.gitDir());

		assertThat(earlier.unchangedIn(StoreFiles.since(this.repo.gitDir(), earlier))).isFalse();
	}

	/** Moves the time of every file and directory of {@code dir} an hour back. */
	static void age(Path dir) throws IOException {
		try (Stream<Path> files = Files.walk(dir)) {
			for (Path file : (Iterable<Path>) files::iterator) {
				Files.setLastModifiedTime(file, HOUR_AGO);
			}
		}
	}

}
