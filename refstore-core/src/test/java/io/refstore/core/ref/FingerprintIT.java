package io.refstore.core.ref;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@link RefStore#fingerprint()}: equal while nothing is written, different after every
 * kind of write git makes (a same-length value, a new ref, a deletion, a reflog entry,
 * packing a files store), in both formats. Files stores are aged first (their times set
 * an hour back), as a store nobody wrote to lately is; a freshly written files store must
 * never give the same token twice.
 */
class FingerprintIT {

	private static final GitCli GIT = GitCli.reftable();

	@TempDir
	Path temp;

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "files", "reftable" })
	void changesWithEveryWriteAndOnlyThen(String format) throws IOException {
		TempRepo repo = TempRepo.init(GIT, this.temp.resolve("repo"), "--ref-format=" + format);
		String one = repo.commit("one", null);
		String two = repo.commit("two", one);
		repo.git("update-ref", "refs/heads/main", one);
		repo.git("update-ref", "refs/tags/v1", one);
		repo.git("pack-refs", "--all");
		repo.git("update-ref", "refs/heads/topic", one);

		String start = aged(repo);
		assertThat(fingerprint(repo)).isEqualTo(start);
		assertThat(fingerprint(repo)).isEqualTo(start);

		String previous = start;
		for (String[] write : new String[][] { { "update-ref", "refs/heads/topic", two },
				{ "update-ref", "refs/heads/new", one }, { "update-ref", "-d", "refs/tags/v1" },
				{ "update-ref", "-m", "log", "refs/heads/main", two } }) {
			repo.git(write);
			String now = aged(repo);
			assertThat(now).as("after git %s", String.join(" ", write)).isNotEqualTo(previous).isNotEqualTo(start);
			assertThat(fingerprint(repo)).isEqualTo(now);
			previous = now;
		}

		// packing rewrites the files of a files store; git compacts a reftable stack
		// after every write, so
		// there it finds one table and writes nothing
		String tables = format.equals("reftable") ? Files.readString(repo.gitDir().resolve("reftable/tables.list"))
				: "";
		repo.git("pack-refs", "--all");
		if (format.equals("files")) {
			assertThat(aged(repo)).isNotEqualTo(previous);
		}
		else {
			assertThat(Files.readString(repo.gitDir().resolve("reftable/tables.list"))).isEqualTo(tables);
			assertThat(aged(repo)).isEqualTo(previous);
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "files" })
	void aFreshlyWrittenStoreNeverMatches(String format) throws IOException {
		TempRepo repo = TempRepo.init(GIT, this.temp.resolve("fresh"), "--ref-format=" + format);
		repo.git("update-ref", "refs/heads/main", repo.commit("one", null));
		assertThat(fingerprint(repo)).isNotEqualTo(fingerprint(repo));
	}

	/**
	 * Moves the time of every file written in the last minute an hour back (files format;
	 * reftable ignores times), as if the writes had happened then, then fingerprints.
	 * Each call picks a new time, as real writes happen at different times.
	 */
	private static String aged(TempRepo repo) throws IOException {
		Instant now = Instant.now();
		FileTime hourAgo = FileTime.from(now.minus(1, ChronoUnit.HOURS));
		try (Stream<Path> files = Files.walk(repo.gitDir())) {
			files.filter(Files::isRegularFile).forEach((file) -> {
				try {
					if (Files.getLastModifiedTime(file).toInstant().isAfter(now.minus(1, ChronoUnit.MINUTES))) {
						Files.setLastModifiedTime(file, hourAgo);
					}
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
		}
		return fingerprint(repo);
	}

	private static String fingerprint(TempRepo repo) throws IOException {
		try (Repository repository = Repository.open(repo.gitDir()); RefStore store = RefStores.open(repository)) {
			return store.fingerprint();
		}
	}

}
