package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Peeled values are never lost or invented, whoever wrote the store: git 2.55's
 * {@code refs migrate} writes annotated tags into reftable without their peeled value
 * (value type 1) and, migrating back to files, a {@code packed-refs} whose header says
 * {@code fully-peeled} but which holds no peeled line; an older {@code packed-refs} may
 * carry only the {@code peeled} trait. refstore reads such a tag's peeled value from the
 * objects, as git does, and writes it into the store it migrates to, so that git 2.39,
 * which trusts a {@code fully-peeled} header, sees it too. Judged by git 2.55 and git
 * 2.39 on their {@code show-ref -d} and {@code for-each-ref %(*objectname)}.
 */
class PeeledValuesIT {

	private static final GitCli NEWEST = GitCli.reftable();

	private static final GitCli SYSTEM = GitCli.system();

	private static final String[] SHOW = { "show-ref", "-d" };

	private static final String[] DEREF = { "for-each-ref", "--format=%(refname) %(objectname) %(*objectname)" };

	@Test
	void aReftableWrittenByGitsMigrationKeepsItsPeeledValuesThroughRefstore(@TempDir Path dir) throws IOException {
		TempRepo repo = tags(dir.resolve("repo"));
		String shown = repo.git(SHOW);
		String derefs = repo.git(DEREF);
		repo.git("refs", "migrate", "--ref-format=reftable");
		assertThat(repo.git(SHOW)).as("git 2.55 peels the tags its migration stored without peeled values")
			.isEqualTo(shown);

		assertRefstoreShows(repo.dir(), shown, derefs);
		MigrationRunner.refs(repo.dir(), "verify", "--deep").requireOk();

		// to files: every tag's line followed by its peeled value, as the header says
		MigrationRunner.refs(repo.dir(), "migrate", "--ref-format=files").requireOk();
		assertFullyPeeled(repo.gitDir().resolve("packed-refs"));
		assertThat(SYSTEM.ok(repo.dir(), SHOW)).as("git 2.39 on the packed-refs refstore wrote").isEqualTo(shown);
		assertThat(repo.git(SHOW)).isEqualTo(shown);
		assertRefstoreShows(repo.dir(), shown, derefs);

		// and back to reftable: every tag with its peeled value
		MigrationRunner.refs(repo.dir(), "migrate", "--ref-format=reftable").requireOk();
		assertThat(repo.git(SHOW)).isEqualTo(shown);
		assertThat(repo.git(DEREF)).isEqualTo(derefs);
		assertRefstoreShows(repo.dir(), shown, derefs);
		MigrationRunner.refs(repo.dir(), "verify", "--deep").requireOk();
	}

	@Test
	void aPackedRefsWithOnlyThePeeledTraitIsPeeledFromTheObjects(@TempDir Path dir) throws IOException {
		TempRepo repo = tags(dir.resolve("repo"));
		String shown = repo.git(SHOW);
		String derefs = repo.git(DEREF);
		repo.git("pack-refs", "--all");
		// as an older writer leaves it: the "peeled" trait only (tags under refs/tags/
		// peeled, nothing known of the others) and no peeled line for the tag outside
		// refs/tags/
		Path packed = repo.gitDir().resolve("packed-refs");
		List<String> lines = Files.readAllLines(packed);
		assertThat(lines.get(0)).startsWith("# pack-refs with: peeled fully-peeled");
		StringBuilder older = new StringBuilder("# pack-refs with: peeled \n");
		for (int i = 1; i < lines.size(); i++) {
			boolean peelOfOutsider = lines.get(i).startsWith("^") && lines.get(i - 1).endsWith(" refs/keep/tagged");
			if (!peelOfOutsider) {
				older.append(lines.get(i)).append('\n');
			}
		}
		Files.writeString(packed, older);
		assertThat(repo.git(SHOW)).as("git peels what the file does not say").isEqualTo(shown);

		assertRefstoreShows(repo.dir(), shown, derefs);
		MigrationRunner.refs(repo.dir(), "migrate", "--ref-format=reftable").requireOk();
		assertThat(repo.git(SHOW)).isEqualTo(shown);
		assertRefstoreShows(repo.dir(), shown, derefs);
		MigrationRunner.refs(repo.dir(), "migrate", "--ref-format=files").requireOk();
		assertFullyPeeled(packed);
		assertThat(SYSTEM.ok(repo.dir(), SHOW)).isEqualTo(shown);
	}

	@Test
	void aFullyPeeledPackedRefsWithoutPeeledLinesIsPeeledFromTheObjects(@TempDir Path dir) throws IOException {
		TempRepo repo = tags(dir.resolve("repo"));
		String shown = repo.git(SHOW);
		String derefs = repo.git(DEREF);
		// git 2.55's migration from reftable to files leaves this: the header says
		// fully-peeled, and no tag has its peeled line
		repo.git("refs", "migrate", "--ref-format=reftable");
		repo.git("refs", "migrate", "--ref-format=files");
		Path packed = repo.gitDir().resolve("packed-refs");
		List<String> lines = Files.readAllLines(packed);
		assertThat(lines.get(0)).startsWith("# pack-refs with: peeled fully-peeled");
		assertThat(lines).as("git's migration wrote no peeled line").noneMatch((line) -> line.startsWith("^"));
		assertThat(repo.git(SHOW)).as("git 2.55 peels from the objects what the file does not store").isEqualTo(shown);

		assertRefstoreShows(repo.dir(), shown, derefs);
		MigrationRunner.refs(repo.dir(), "migrate", "--ref-format=reftable").requireOk();
		assertThat(repo.git(SHOW)).isEqualTo(shown);
		assertRefstoreShows(repo.dir(), shown, derefs);
		MigrationRunner.refs(repo.dir(), "migrate", "--ref-format=files").requireOk();
		assertFullyPeeled(packed);
		assertThat(SYSTEM.ok(repo.dir(), SHOW)).as("git 2.39 on the packed-refs refstore wrote").isEqualTo(shown);
	}

	@Test
	void aReftableWrittenByJGitKeepsItsPeeledValuesThroughRefstore(@TempDir Path dir) throws IOException {
		TempRepo repo = tags(dir.resolve("repo"));
		String shown = repo.git(SHOW);
		String derefs = repo.git(DEREF);
		try (FileRepository jgit = (FileRepository) new FileRepositoryBuilder().setGitDir(repo.gitDir().toFile())
			.setMustExist(true)
			.build()) {
			jgit.convertRefStorage("reftable", true, false);
		}
		assertThat(repo.git("rev-parse", "--show-ref-format").trim()).isEqualTo("reftable");
		assertThat(repo.git(SHOW)).as("git 2.55 on the stack JGit wrote").isEqualTo(shown);

		assertRefstoreShows(repo.dir(), shown, derefs);
		MigrationRunner.refs(repo.dir(), "verify", "--deep").requireOk();
		MigrationRunner.refs(repo.dir(), "migrate", "--ref-format=files").requireOk();
		assertFullyPeeled(repo.gitDir().resolve("packed-refs"));
		assertThat(SYSTEM.ok(repo.dir(), SHOW)).as("git 2.39 on the packed-refs refstore wrote").isEqualTo(shown);
		assertRefstoreShows(repo.dir(), shown, derefs);
	}

	/**
	 * A files repository with branches, a lightweight tag, an annotated tag, a tag of
	 * that tag, an annotated tag of a tree and one outside {@code refs/tags/}.
	 */
	private static TempRepo tags(Path dir) {
		TempRepo repo = TempRepo.init(NEWEST, dir);
		String one = repo.commit("one", null);
		String two = repo.commit("two", one);
		repo.git("update-ref", "refs/heads/main", two);
		repo.git("update-ref", "refs/heads/side", one);
		repo.git("tag", "light", one);
		repo.git("tag", "-a", "-m", "annotated", "ann", two);
		repo.git("tag", "-a", "-m", "a tag of a tag", "nested", "ann");
		repo.git("tag", "-a", "-m", "a tree", "tree", two + "^{tree}");
		repo.git("update-ref", "refs/keep/tagged", repo.git("rev-parse", "refs/tags/ann").trim());
		return repo;
	}

	private static void assertRefstoreShows(Path dir, String shown, String derefs) {
		assertThat(GitCli.refstore().ok(dir, SHOW)).as("refstore show-ref -d").isEqualTo(shown);
		assertThat(GitCli.refstore().ok(dir, DEREF)).as("refstore for-each-ref %(*objectname)").isEqualTo(derefs);
	}

	/** Every line naming an annotated tag is followed by its peeled value. */
	private static void assertFullyPeeled(Path packed) throws IOException {
		List<String> lines = Files.readAllLines(packed);
		assertThat(lines.get(0)).startsWith("# pack-refs with: peeled fully-peeled sorted");
		long tags = lines.stream()
			.filter((line) -> line.endsWith(" refs/tags/ann") || line.endsWith(" refs/tags/nested")
					|| line.endsWith(" refs/tags/tree") || line.endsWith(" refs/keep/tagged"))
			.count();
		assertThat(tags).isEqualTo(4);
		assertThat(lines.stream().filter((line) -> line.startsWith("^")).count()).as("peeled lines in\n%s", lines)
			.isEqualTo(4);
	}

}
