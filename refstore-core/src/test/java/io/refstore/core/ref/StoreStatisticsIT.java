package io.refstore.core.ref;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@link RefStore#statistics()} against git: a store is "maintenance due" exactly when
 * {@code git pack-refs --auto} (git 2.55) acts on it, and refstore's {@code --auto}
 * packing then does what git did. Each scenario is built twice, once for git and once for
 * refstore.
 */
class StoreStatisticsIT {

	private static final GitCli GIT = GitCli.reftable();

	/**
	 * git's auto-compaction off while a scenario is built, so that the stack keeps every
	 * table written.
	 */
	private static final GitCli GIT_NO_COMPACTION = GIT.withEnv("GIT_TEST_REFTABLE_AUTOCOMPACTION", "false");

	@TempDir
	Path temp;

	@ParameterizedTest(name = "{0} packed tags, loose tags {1} below the limit")
	@CsvSource({ "0, 1", "0, 0", "2000, 1", "2000, 0", "6000, 1", "6000, 0" })
	void filesStoreIsDueWhenGitsAutoPackPacks(int packed, int belowLimit) throws IOException {
		long limit = StoreStatistics.looseRefLimit(filesScenario(this.temp.resolve("probe"), packed, 0));
		int loose = (int) limit - belowLimit;
		filesScenario(this.temp.resolve("git"), packed, loose);
		Path ours = this.temp.resolve("refstore");
		filesScenario(ours, packed, loose);

		StoreStatistics before = statistics(ours);
		assertThat(before.format()).isEqualTo(RefFormat.FILES);
		assertThat(before.looseRefs()).isEqualTo(loose);
		assertThat(before.packedRefs()).isEqualTo(packed);
		assertThat(before.tables()).isZero();
		assertThat(before.bytes()).isEqualTo(size(ours.resolve("packed-refs")) + looseBytes(ours));

		GIT.ok(this.temp.resolve("git"), "pack-refs", "--auto");
		boolean gitPacked = looseFiles(this.temp.resolve("git")) == 0;
		assertThat(gitPacked).isEqualTo(belowLimit == 0);
		assertThat(before.maintenanceDue()).as(before.reason()).isEqualTo(gitPacked);

		pack(ours, new RefStore.PackOptions(false, true, true));
		assertThat(looseFiles(ours)).isEqualTo(looseFiles(this.temp.resolve("git")));
		assertThat(GIT.ok(ours, "for-each-ref")).isEqualTo(GIT.ok(this.temp.resolve("git"), "for-each-ref"));
		assertThat(statistics(ours).maintenanceDue()).isFalse();
	}

	@ParameterizedTest(name = "{0} loose branches beside 20 loose symbolic refs")
	@CsvSource({ "15", "16" })
	void filesStoreIsDueWhenGitsMaintenancePacksCountingOnlyWhatItPacks(int branches) throws IOException {
		for (String side : List.of("git", "refstore")) {
			TempRepo repo = TempRepo.init(GIT, this.temp.resolve(side), "--bare");
			String commit = repo.commit("c", null);
			StringBuilder stdin = new StringBuilder();
			for (int i = 0; i < branches; i++) {
				stdin.append("create refs/heads/b").append(i).append(' ').append(commit).append('\n');
			}
			repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
			for (int i = 0; i < 20; i++) {
				repo.git("symbolic-ref", "refs/heads/alias" + i, "refs/heads/b0");
			}
		}
		Path ours = this.temp.resolve("refstore");
		StoreStatistics before = statistics(ours);
		assertThat(before.looseRefs()).isEqualTo(branches + 20);

		GIT.ok(this.temp.resolve("git"), "pack-refs", "--all", "--auto");
		boolean gitPacked = looseFiles(this.temp.resolve("git")) == 20;
		assertThat(gitPacked).isEqualTo(branches >= 16);
		assertThat(before.maintenanceDue()).as(before.reason()).isEqualTo(gitPacked);

		pack(ours, new RefStore.PackOptions(true, true, true));
		assertThat(looseFiles(ours)).isEqualTo(looseFiles(this.temp.resolve("git")));
		assertThat(GIT.ok(ours, "for-each-ref")).isEqualTo(GIT.ok(this.temp.resolve("git"), "for-each-ref"));
		assertThat(statistics(ours).maintenanceDue()).isFalse();
	}

	@ParameterizedTest(name = "reftable: {0}")
	@CsvSource({ "three equal tables", "one big table then a small one", "one table" })
	void reftableStoreIsDueWhenGitsAutoCompactionCompacts(String scenario) throws IOException {
		reftableScenario(this.temp.resolve("git"), scenario);
		Path ours = this.temp.resolve("refstore");
		reftableScenario(ours, scenario);

		StoreStatistics before = statistics(ours);
		int tablesBefore = tables(ours);
		assertThat(before.format()).isEqualTo(RefFormat.REFTABLE);
		assertThat(before.tables()).isEqualTo(tablesBefore);
		assertThat(before.looseRefs()).isZero();
		assertThat(before.bytes()).isEqualTo(tableBytes(ours));

		GIT.ok(this.temp.resolve("git"), "pack-refs", "--auto");
		boolean gitCompacted = tables(this.temp.resolve("git")) < tablesBefore;
		assertThat(before.maintenanceDue()).as(before.reason()).isEqualTo(gitCompacted);

		pack(ours, new RefStore.PackOptions(false, true, true));
		assertThat(tables(ours)).isEqualTo(tables(this.temp.resolve("git")));
		assertThat(GIT.ok(ours, "for-each-ref")).isEqualTo(GIT.ok(this.temp.resolve("git"), "for-each-ref"));
	}

	@Test
	void autoPackingLeavesAStoreThatIsNotDueAlone() throws IOException {
		Path dir = this.temp.resolve("repo");
		filesScenario(dir, 100, 3);
		long modified = Files.getLastModifiedTime(dir.resolve("packed-refs")).toMillis();
		pack(dir, new RefStore.PackOptions(true, true, true));
		assertThat(looseFiles(dir)).isEqualTo(3);
		assertThat(Files.getLastModifiedTime(dir.resolve("packed-refs")).toMillis()).isEqualTo(modified);
	}

	/**
	 * A bare files repository with {@code packed} tags in {@code packed-refs} and
	 * {@code loose} loose tags, all on one commit.
	 * @return the size of {@code packed-refs}
	 */
	private static long filesScenario(Path dir, int packed, int loose) {
		TempRepo repo = TempRepo.init(GIT, dir, "--bare");
		String commit = repo.commit("c", null);
		if (packed > 0) {
			createTags(repo, "refs/tags/packed/", packed, commit);
			repo.git("pack-refs", "--all");
		}
		createTags(repo, "refs/tags/loose/", loose, commit);
		return size(dir.resolve("packed-refs"));
	}

	private static void reftableScenario(Path dir, String scenario) {
		TempRepo repo = TempRepo.init(GIT_NO_COMPACTION, dir, "--bare", "--ref-format=reftable");
		String commit = repo.commit("c", null);
		switch (scenario) {
			case "three equal tables" -> {
				for (int i = 0; i < 3; i++) {
					repo.git("update-ref", "refs/heads/b" + i, commit);
				}
			}
			case "one big table then a small one" -> {
				createTags(repo, "refs/tags/t", 500, commit);
				repo.git("pack-refs");
				repo.git("update-ref", "refs/heads/small", commit);
			}
			case "one table" -> {
				createTags(repo, "refs/tags/t", 10, commit);
				repo.git("pack-refs");
			}
			default -> throw new IllegalArgumentException(scenario);
		}
	}

	private static void createTags(TempRepo repo, String prefix, int count, String commit) {
		StringBuilder stdin = new StringBuilder();
		for (int i = 0; i < count; i++) {
			stdin.append("create ").append(prefix).append(i).append(' ').append(commit).append('\n');
		}
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
	}

	private static StoreStatistics statistics(Path gitDir) throws IOException {
		try (Repository repository = Repository.open(gitDir); RefStore store = RefStores.open(repository)) {
			return store.statistics();
		}
	}

	private static void pack(Path gitDir, RefStore.PackOptions options) throws IOException {
		try (Repository repository = Repository.open(gitDir); RefStore store = RefStores.open(repository)) {
			store.packRefs(options);
		}
	}

	private static long looseFiles(Path gitDir) throws IOException {
		try (Stream<Path> files = Files.walk(gitDir.resolve("refs"))) {
			return files.filter(Files::isRegularFile).count();
		}
	}

	private static long looseBytes(Path gitDir) throws IOException {
		try (Stream<Path> files = Files.walk(gitDir.resolve("refs"))) {
			return files.filter(Files::isRegularFile).mapToLong(StoreStatisticsIT::size).sum();
		}
	}

	private static int tables(Path gitDir) throws IOException {
		return Files.readAllLines(gitDir.resolve("reftable/tables.list")).size();
	}

	private static long tableBytes(Path gitDir) throws IOException {
		long bytes = 0;
		for (String table : Files.readAllLines(gitDir.resolve("reftable/tables.list"))) {
			bytes += size(gitDir.resolve("reftable").resolve(table));
		}
		return bytes;
	}

	private static long size(Path file) {
		try {
			return Files.exists(file) ? Files.size(file) : 0;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
