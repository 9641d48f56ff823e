package io.refstore.core.delete;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * A repository of some thousands of refs made by a real git, and what git says about it:
 * branches, tags (every tenth annotated), pull refs, remote-tracking refs with a symbolic
 * {@code HEAD}, non-ASCII names, and reflogs with several entries, identities, time zones
 * and messages. With {@code pack}, most refs are packed and some are loose again, some
 * hiding a packed value (files backend).
 */
final class DeletionFixture {

	/**
	 * Branches under {@code refs/heads/tmp/} named {@code t0000}...; the first 100 have
	 * two log entries.
	 */
	static final int TMP_BRANCHES = 600;

	/** Pull requests; each has a {@code head} and a {@code merge} ref. */
	static final int PULLS = 1000;

	private DeletionFixture() {
	}

	/**
	 * Fills {@code repo}.
	 * @param pack whether to pack every ref in the middle ({@code git pack-refs --all}),
	 * so that the result mixes packed and loose refs
	 * @return the commits made
	 */
	static List<String> fill(TempRepo repo, boolean pack) {
		// thousands of ref files: syncing each would make the fixture slow on a shared
		// disk
		repo.git("config", "core.fsync", "none");
		List<String> commits = repo.commits(40, "c");
		StringBuilder stdin = new StringBuilder();
		create(stdin, "refs/heads/main", commits.get(0));
		for (int i = 0; i < 50; i++) {
			create(stdin, String.format("refs/heads/keep/k%03d", i), commits.get(i % 40));
		}
		for (int i = 0; i < TMP_BRANCHES; i++) {
			create(stdin, String.format("refs/heads/tmp/t%04d", i), commits.get(i % 40));
		}
		for (String name : List.of("keep/a", "keep/b/c", "keeper", "caf\u00e9", "na\u00efve/x")) {
			create(stdin, "refs/heads/tmp/" + name, commits.get(3));
		}
		for (int i = 0; i < 400; i++) {
			String target = (i % 10 == 0) ? repo.tagObject(String.format("v0.%03d", i), commits.get(i % 40), "commit")
					: commits.get(i % 40);
			create(stdin, String.format("refs/tags/v0.%03d", i), target);
		}
		for (int i = 10; i < 200; i++) {
			create(stdin, String.format("refs/tags/v1.%03d", i), commits.get(i % 40));
		}
		for (int i = 0; i < PULLS; i++) {
			create(stdin, String.format("refs/pull/%04d/head", i), commits.get(i % 40));
			create(stdin, String.format("refs/pull/%04d/merge", i), commits.get((i + 1) % 40));
		}
		for (int i = 0; i < 300; i++) {
			create(stdin, String.format("refs/remotes/origin/b%03d", i), commits.get(i % 40));
		}
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "-m", "fixture", "--stdin")
			.requireOk();
		repo.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/b001");
		for (int i = 0; i < 10; i++) {
			repo.git("update-ref", "--create-reflog", "-m", "tag log " + i, String.format("refs/tags/v1.%03d", i),
					commits.get(i % 40));
		}
		if (pack) {
			repo.git("pack-refs", "--all");
		}
		GitCli other = repo.git()
			.withEnv("GIT_COMMITTER_NAME", "Ann Other")
			.withEnv("GIT_COMMITTER_EMAIL", "ann@example.com")
			.withEnv("GIT_COMMITTER_DATE", "@1700003600 +0530");
		StringBuilder second = new StringBuilder();
		for (int i = 0; i < 100; i++) {
			second.append(String.format("update refs/heads/tmp/t%04d %s%n", i, commits.get((i + 7) % 40)));
		}
		for (int i = 0; i < 50; i++) {
			create(second, String.format("refs/heads/tmp/late%03d", i), commits.get(i % 40));
			create(second, String.format("refs/pull/%04d/head", PULLS + i), commits.get(i % 40));
		}
		other
			.run(repo.dir(), second.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "-m",
					"rewind  with\tspaces: \u00fc", "--stdin")
			.requireOk();
		return commits;
	}

	private static void create(StringBuilder stdin, String name, String id) {
		stdin.append("create ").append(name).append(' ').append(id).append('\n');
	}

	/** Every ref name, in git's order. */
	static List<String> names(TempRepo repo) {
		return repo.git("for-each-ref", "--format=%(refname)").lines().toList();
	}

	/** Names {@code git for-each-ref} lists for {@code patterns}. */
	static Set<String> forEachRef(TempRepo repo, String... patterns) {
		List<String> args = new ArrayList<>(List.of("for-each-ref", "--format=%(refname)"));
		args.addAll(Arrays.asList(patterns));
		return new TreeSet<>(repo.git(args.toArray(String[]::new)).lines().toList());
	}

	/** Every ref with its value, type and symbolic target, as git prints them. */
	static List<String> refs(TempRepo repo) {
		return repo.git("for-each-ref", "--format=%(refname) %(objectname) %(objecttype) %(symref)").lines().toList();
	}

	/** {@code git show-ref -d}: values and peeled tags. */
	static List<String> showRef(TempRepo repo) {
		GitCli.Result result = repo.run(new byte[0], "show-ref", "-d");
		return (result.exitCode() == 1 && result.out().length == 0) ? List.of()
				: result.requireOk().stdout().lines().toList();
	}

	/**
	 * Every reflog entry of every ref, as {@code git log -g --all} prints them: once with
	 * positions, once with their dates, both with value, identity and message; sorted.
	 */
	static List<String> reflogs(TempRepo repo) {
		List<String> lines = new ArrayList<>();
		lines.addAll(repo.git("log", "-g", "--all", "--format=%gD %H %gn <%ge> %gs").lines().toList());
		lines.addAll(repo.git("log", "-g", "--all", "--date=raw", "--format=%gd %H %gs").lines().toList());
		lines.sort(null);
		return lines;
	}

	/** The bytes of every file under {@code logs/} (files backend), by relative path. */
	static List<String> logFiles(TempRepo repo) {
		Path logs = repo.gitDir().resolve("logs");
		try (Stream<Path> files = Files.walk(logs)) {
			return files.filter(Files::isRegularFile).sorted().map((file) -> {
				try {
					return logs.relativize(file) + "\n" + Files.readString(file);
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			}).toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * {@code lines} without those whose ref (the first field, {@code ^{}} stripped) is in
	 * {@code names}.
	 */
	static List<String> without(List<String> lines, Set<String> names, int nameField) {
		return lines.stream().filter((line) -> {
			String name = line.split(" ")[nameField];
			return !names.contains(name.endsWith("^{}") ? name.substring(0, name.length() - 3) : name);
		}).toList();
	}

}
