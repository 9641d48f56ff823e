package io.refstore.core.cli;

import java.nio.file.Path;

import io.refstore.core.testing.TempRepo;

/**
 * Repositories made by a real git for the command tests.
 */
final class CliFixtures {

	private CliFixtures() {
	}

	/**
	 * A repository with most kinds of refs, part packed and part loose:
	 * <ul>
	 * <li>branches {@code main} (checked out), {@code topic}, {@code feature/x},
	 * {@code a-b}, {@code a.b}, {@code a/b}, {@code über} (a non-ASCII name), {@code v1}
	 * (also a tag: ambiguous short names);</li>
	 * <li>a lightweight tag, annotated tags on a commit, on a tag (tag of a tag), on a
	 * tree and on a blob, and an annotated tag outside {@code refs/tags/};</li>
	 * <li>a tag named {@code main} (so {@code refs/heads/main} shortens to
	 * {@code heads/main});</li>
	 * <li>a remote-tracking branch with a symbolic {@code origin/HEAD}, a symbolic ref to
	 * a symbolic ref, and a dangling symbolic ref;</li>
	 * <li>packed refs, a loose ref overriding its packed value, and
	 * {@code ORIG_HEAD}.</li>
	 * </ul>
	 * @param dir an empty or missing directory
	 * @return the repository (with a working tree)
	 */
	static TempRepo rich(Path dir) {
		TempRepo repo = TempRepo.init(CliHarness.GIT, dir);
		String c1 = repo.commit("one", null);
		String c2 = repo.commit("two", c1);
		String c3 = repo.commit("three", c2);
		String tree = repo.git("rev-parse", c1 + "^{tree}").trim();
		String blob = repo.run(CliHarness.bytes("blob\n"), "hash-object", "-w", "--stdin").requireOk().stdout().trim();
		String t1 = repo.tagObject("t1", c1, "commit");
		String tt = repo.tagObject("tt", t1, "tag");
		String treetag = repo.tagObject("treetag", tree, "tree");
		String blobtag = repo.tagObject("blobtag", blob, "blob");
		String custom = repo.tagObject("custom", c2, "commit");
		String[][] refs = { { "refs/heads/main", c2 }, { "refs/heads/topic", c1 }, { "refs/heads/feature/x", c1 },
				{ "refs/heads/a-b", c1 }, { "refs/heads/a.b", c2 }, { "refs/heads/a/b", c3 },
				{ "refs/heads/\u00fcber", c1 }, { "refs/heads/v1", c1 }, { "refs/tags/v1", c2 },
				{ "refs/tags/light", c1 }, { "refs/tags/t1", t1 }, { "refs/tags/tt", tt },
				{ "refs/tags/treetag", treetag }, { "refs/tags/blobtag", blobtag }, { "refs/custom/annot", custom },
				{ "refs/tags/main", c1 }, { "refs/remotes/origin/main", c2 }, { "refs/remotes/origin/topic", c3 } };
		for (String[] ref : refs) {
			repo.git("update-ref", ref[0], ref[1]);
		}
		repo.git("pack-refs", "--all");
		repo.git("update-ref", "refs/heads/topic", c3);
		repo.git("update-ref", "refs/heads/late", c3);
		repo.git("update-ref", "refs/tags/late-annotated", repo.tagObject("late-annotated", c3, "commit"));
		repo.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main");
		repo.git("symbolic-ref", "refs/heads/chain", "refs/remotes/origin/HEAD");
		repo.git("symbolic-ref", "refs/heads/dangling", "refs/heads/nothere");
		repo.git("update-ref", "ORIG_HEAD", c1);
		return repo;
	}

	/**
	 * A repository just made by {@code git init}: {@code HEAD} points to the unborn
	 * {@code main}.
	 */
	static TempRepo unborn(Path dir) {
		return TempRepo.init(CliHarness.GIT, dir);
	}

	/**
	 * A repository with {@code main} at one commit and nothing else, and that commit's
	 * id.
	 */
	static TempRepo simple(Path dir) {
		TempRepo repo = TempRepo.init(CliHarness.GIT, dir);
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		return repo;
	}

}
