package io.refstore.core.migrate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.refstore.core.io.FileMoves;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Repositories made by a real git with every kind of ref a migration must carry: branches
 * with reflogs (several time zones, odd whitespace in messages), lightweight and
 * annotated tags (a tag of a tag, a tag of a tree, an annotated tag outside
 * {@code refs/tags}), symbolic refs ({@code HEAD}, {@code refs/remotes/origin/HEAD}, one
 * below {@code refs/heads}), root refs, the pseudoref {@code FETCH_HEAD}, names sharing a
 * long prefix (and bytes above 0x7f), a mix of packed and loose refs, and refs deleted
 * after packing.
 */
final class MigrationRepos {

	/**
	 * The git that judges every format: the reftable git (2.46 or newer lists root refs).
	 */
	static final GitCli NEWEST = GitCli.reftable();

	/**
	 * A prefix long enough to make reftable's prefix compression and packed-refs' sorting
	 * work hard.
	 */
	static final String LONG_PREFIX = "refs/heads/shared/" + "prefix-".repeat(26);

	private MigrationRepos() {
	}

	/** Which git makes the repository, in which format. */
	enum Maker {

		/** The system git (2.39): files only. */
		GIT_2_39_FILES(GitCli.system(), RefFormat.FILES),

		/** The reftable git in the files format. */
		NEWEST_FILES(NEWEST, RefFormat.FILES),

		/** The reftable git in the reftable format. */
		NEWEST_REFTABLE(NEWEST, RefFormat.REFTABLE);

		final GitCli git;

		final RefFormat format;

		Maker(GitCli git, RefFormat format) {
			this.git = git;
			this.format = format;
		}

	}

	/**
	 * Makes and fills a repository.
	 * @param sha256 {@code --object-format=sha256} instead of SHA-1
	 * @param bare a bare repository with {@code core.logAllRefUpdates=always}, its
	 * commits made with {@code commit-tree} and {@code update-ref -m}
	 */
	static TempRepo create(Maker maker, Path dir, boolean sha256, boolean bare) {
		List<String> options = new ArrayList<>();
		if (maker.format == RefFormat.REFTABLE) {
			options.add("--ref-format=reftable");
		}
		if (sha256) {
			options.add("--object-format=sha256");
		}
		if (bare) {
			options.add("--bare");
		}
		TempRepo repo = TempRepo.init(maker.git, dir, options.toArray(String[]::new));
		// no automatic maintenance in the background: it would pack refs behind the
		// tests' backs
		repo.git("config", "maintenance.auto", "false");
		repo.git("config", "gc.auto", "0");
		populate(repo, bare);
		return repo;
	}

	private static void populate(TempRepo repo, boolean bare) {
		List<String> commits = commitOnMain(repo, bare);
		String c1 = commits.get(0);
		String c2 = commits.get(1);
		String c3 = commits.get(2);
		GitCli pacific = repo.git().withEnv("GIT_COMMITTER_DATE", "@1700000123 -0800");
		GitCli india = repo.git().withEnv("GIT_COMMITTER_DATE", "@1700000456 +0530");
		repo.git("update-ref", "-m", "feature: created", "refs/heads/feature", c1);
		pacific.ok(repo.dir(), "update-ref", "-m", "feature:  moved\tby  hand", "refs/heads/feature", c2);
		india.ok(repo.dir(), "update-ref", "-m", "fetch origin", "refs/remotes/origin/main", c2);
		repo.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main");
		repo.git("symbolic-ref", "-m", "alias of main", "refs/heads/alias", "refs/heads/main");
		tags(repo, c1, c2, c3);
		bulk(repo, c1, c2);
		repo.git("pack-refs", "--all");
		afterPacking(repo, c1, c3);
		repo.git("update-ref", "ORIG_HEAD", c1);
		repo.git("update-ref", "CHERRY_PICK_HEAD", c2);
		repo.git("fetch", "-q", ".", "main");
	}

	/**
	 * Makes a larger files repository with the reftable git, for crash trials:
	 * {@code refs} refs, of which a twelfth are branches with reflogs and a third
	 * annotated tags; most of them packed, some loose over packed ones, some new and
	 * loose, some deleted after packing; plus the refs of {@link #create} ({@code HEAD}
	 * and its log, symbolic refs, root refs, {@code FETCH_HEAD}). Few files besides (no
	 * sample hooks), so that copies are quick.
	 */
	static TempRepo createLarge(Path dir, int refs) {
		TempRepo repo = create(Maker.NEWEST_FILES, dir, false, false);
		List<String> commits = repo.commits(50, "large");
		StringBuilder tags = new StringBuilder();
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < refs; i++) {
			String commit = commits.get(i % commits.size());
			if (i % 12 == 0) {
				updates.append(String.format("create refs/heads/topic/%05d %s\n", i, commit));
			}
			else if (i % 12 <= 4) {
				tags.append(String.format("tag a-%05d\nfrom %s\n", i, commit))
					.append("tagger C O Mitter <committer@example.com> 1700000000 +0000\ndata 3\nann\n");
			}
			else {
				updates.append(String.format("create refs/tags/l-%05d %s\n", i, commit));
			}
		}
		repo.run(tags.toString().getBytes(StandardCharsets.UTF_8), "fast-import", "--quiet").requireOk();
		repo.run(updates.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "-m", "bulk", "--stdin")
			.requireOk();
		repo.git("pack-refs", "--all");
		StringBuilder loose = new StringBuilder();
		for (int i = 0; i < refs; i += 12) {
			String branch = String.format("refs/heads/topic/%05d", i);
			switch ((i / 12) % 4) {
				case 0 -> loose.append("update ").append(branch).append(' ').append(commits.get(7)).append('\n');
				case 1 -> loose.append("create ").append(branch).append("-new ").append(commits.get(8)).append('\n');
				case 2 -> loose.append((i % 5 == 0) ? "delete " + branch + "\n" : "");
				default -> {
				}
			}
		}
		repo.run(loose.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "-m", "after packing", "--stdin")
			.requireOk();
		try {
			FileMoves.deleteTree(repo.gitDir().resolve("hooks"));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return repo;
	}

	/**
	 * Three commits on main, moving HEAD's log too: {@code git commit} in a working tree,
	 * else update-ref.
	 */
	private static List<String> commitOnMain(TempRepo repo, boolean bare) {
		if (bare) {
			repo.git("config", "core.logAllRefUpdates", "always");
			String parent = null;
			for (String message : List.of("one", "two", "three")) {
				String commit = repo.commit(message, parent);
				repo.git("update-ref", "-m", "commit: " + message, "refs/heads/main", commit);
				parent = commit;
			}
		}
		else {
			for (String message : List.of("one", "two", "three")) {
				repo.git("commit", "-q", "--allow-empty", "-m", message);
			}
		}
		return List.of(repo.git("rev-parse", "main~2").strip(), repo.git("rev-parse", "main~1").strip(),
				repo.git("rev-parse", "main").strip());
	}

	private static void tags(TempRepo repo, String c1, String c2, String c3) {
		repo.git("tag", "light", c1);
		repo.git("tag", "-a", "-m", "annotated v1", "v1", c2);
		String v1 = repo.git("rev-parse", "refs/tags/v1").strip();
		repo.git("update-ref", "refs/tags/v1-outer", repo.tagObject("v1-outer", v1, "tag"));
		String tree = repo.git("rev-parse", c2 + "^{tree}").strip();
		repo.git("update-ref", "refs/tags/tree-tag", repo.tagObject("tree-tag", tree, "tree"));
		repo.git("update-ref", "-m", "annotated outside refs/tags", "refs/custom/annotated",
				repo.tagObject("outside", c3, "commit"));
	}

	/**
	 * Refs made in one transaction: a shared long prefix, neighbours in byte order,
	 * non-ASCII names.
	 */
	private static void bulk(TempRepo repo, String c1, String c2) {
		List<String> names = new ArrayList<>();
		for (String suffix : List.of("/a", "/b", "-a", ".a", "a", "_z", "\u00e9", "/\u00fcber/x")) {
			names.add(LONG_PREFIX + suffix);
		}
		for (int i = 0; i < 30; i++) {
			names.add(String.format("refs/heads/bulk/%03d", i));
			names.add(String.format("refs/tags/bulk-%03d", i));
		}
		StringBuilder stdin = new StringBuilder();
		for (int i = 0; i < names.size(); i++) {
			stdin.append("create ").append(names.get(i)).append(' ').append((i % 2 == 0) ? c1 : c2).append('\n');
		}
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "-m", "bulk", "--stdin").requireOk();
	}

	/**
	 * Loose refs over packed ones, a packed ref deleted, new loose refs and a loose
	 * annotated tag.
	 */
	private static void afterPacking(TempRepo repo, String c1, String c3) {
		repo.git("update-ref", "-m", "after packing", "refs/heads/bulk/001", c3);
		repo.git("update-ref", "-m", "gone", "-d", "refs/heads/bulk/002");
		repo.git("update-ref", "-d", "refs/tags/bulk-003");
		repo.git("update-ref", "-m", "loose after packing", "refs/heads/loose-after", c1);
		repo.git("tag", "-a", "-m", "late tag", "late", c3);
	}

}
