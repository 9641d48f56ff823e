package io.refstore.core.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.ref.RefFormat;
import io.refstore.core.testing.GitCli;

/**
 * The demo repositories, judged by real git: {@code git fsck} finds every object,
 * {@code for-each-ref} lists the thousands of refs in every namespace with annotated tags
 * peeling to commits, {@code HEAD} is the symbolic ref to main, and branches have
 * reflogs. The files one by the system git, the reftable one by a reftable git.
 */
class DemoRepositoriesIT {

	@Test
	void filesDemoPassesGitsChecks(@TempDir Path tmp) throws Exception {
		judge(GitCli.system(), tmp.resolve("demo-files.git"), RefFormat.FILES);
		assertThat(GitCli.system().ok(tmp.resolve("demo-files.git"), "pack-refs", "--all")).isEmpty();
		assertThat(GitCli.system().ok(tmp.resolve("demo-files.git"), "for-each-ref").lines()).hasSizeGreaterThan(3000);
	}

	@Test
	void reftableDemoPassesGitsChecks(@TempDir Path tmp) throws Exception {
		judge(GitCli.reftable(), tmp.resolve("demo-reftable.git"), RefFormat.REFTABLE);
		assertThat(GitCli.reftable().ok(tmp.resolve("demo-reftable.git"), "rev-parse", "--show-ref-format").trim())
			.isEqualTo("reftable");
		assertThat(GitCli.reftable().run(tmp.resolve("demo-reftable.git"), "refs", "verify").exitCode()).isZero();
	}

	@Test
	void theSameOptionsGiveTheSameRefs(@TempDir Path tmp) throws Exception {
		DemoRepositories.Options small = new DemoRepositories.Options(30, 5, 10, 4);
		DemoRepositories.create(tmp.resolve("a"), RefFormat.FILES, small);
		DemoRepositories.create(tmp.resolve("b"), RefFormat.FILES, small);
		GitCli git = GitCli.system();
		assertThat(git.ok(tmp.resolve("a"), "for-each-ref")).isEqualTo(git.ok(tmp.resolve("b"), "for-each-ref"));
	}

	private static void judge(GitCli git, Path dir, RefFormat format) throws Exception {
		int written = DemoRepositories.create(dir, format, DemoRepositories.Options.DEFAULT);
		GitCli.Result fsck = git.run(dir, "fsck", "--full", "--no-dangling");
		assertThat(fsck.exitCode()).as(fsck.stderr() + fsck.stdout()).isZero();
		assertThat(fsck.stderr() + fsck.stdout()).doesNotContain("error").doesNotContain("missing");
		List<String> lines = Arrays
			.asList(git.ok(dir, "for-each-ref", "--format=%(refname) %(objecttype) %(*objecttype)").split("\n"));
		assertThat(lines).hasSize(written).hasSizeGreaterThan(3000);
		Map<String, Integer> namespaces = new TreeMap<>();
		for (String line : lines) {
			String name = line.substring(0, line.indexOf(' '));
			String[] parts = name.split("/");
			namespaces.merge(parts[0] + "/" + parts[1], 1, Integer::sum);
		}
		assertThat(namespaces).containsOnlyKeys("refs/heads", "refs/tags", "refs/pull", "refs/changes");
		assertThat(lines).contains("refs/tags/v1.0.0 tag commit", "refs/tags/build-00000 commit ",
				"refs/pull/1/head commit ", "refs/changes/00/1000/1 commit ", "refs/heads/main commit ");
		assertThat(git.ok(dir, "symbolic-ref", "HEAD").trim()).isEqualTo("refs/heads/main");
		assertThat(git.ok(dir, "rev-parse", "HEAD").trim())
			.isEqualTo(git.ok(dir, "rev-parse", "refs/heads/main").trim());
		String log = git.ok(dir, "reflog", "show", "--format=%H %gs", "refs/heads/main");
		assertThat(log.split("\n")).hasSizeGreaterThan(5);
		assertThat(log.lines().findFirst().orElseThrow()).startsWith(git.ok(dir, "rev-parse", "main").trim())
			.endsWith("push: fast-forward");
		assertThat(git.ok(dir, "reflog", "show", "--format=%gs", "refs/heads/feature/topic-0001").trim())
			.isEqualTo("branch: Created from main");
		assertThat(git.ok(dir, "log", "--oneline", "main").split("\n")).hasSize(400);
	}

}
