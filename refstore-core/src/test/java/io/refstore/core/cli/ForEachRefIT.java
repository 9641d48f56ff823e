package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.assertFails;
import static io.refstore.core.cli.CliHarness.assertSameOutput;
import static io.refstore.core.cli.CliHarness.refstore;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.cli.format.FormatTemplate;
import io.refstore.core.cli.format.FormatThresholds;
import io.refstore.core.cli.format.SharedLines;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@code refstore for-each-ref} against {@code git for-each-ref}: every supported atom,
 * pattern kind and option, same bytes and exit codes. {@code --start-after} is newer than
 * the git on this machine, so it is checked against refstore's own full listing.
 */
class ForEachRefIT {

	@TempDir
	static Path temp;

	private static TempRepo rich;

	private static TempRepo globs;

	@BeforeAll
	static void makeRepositories() {
		rich = CliFixtures.rich(temp.resolve("rich"));
		globs = TempRepo.init(CliHarness.GIT, temp.resolve("globs"));
		String commit = globs.commit("c", null);
		StringBuilder stdin = new StringBuilder();
		for (String name : List.of("a", "ab", "abc", "a-b", "a.b", "b/x", "b/a/c", "b/b/c/d", "x{y}", "x@y", "x+y",
				"\u00e9x", "\u00e8x", "A", "_u", "d/e/f/g", "d/f", "v1.0", "v1.10", "v2.0-rc1", "k/a/a/a/a/b",
				"aaaaaaaab", "aaaaaaaa", "m/n/o/x/q/x")) {
			stdin.append("create refs/heads/").append(name).append(' ').append(commit).append('\n');
		}
		globs.run(CliHarness.bytes(stdin.toString()), "update-ref", "--stdin").requireOk();
	}

	static Stream<String> formats() {
		return Stream.of(FormatTemplate.DEFAULT, "%(refname)", "%(refname:short)", "%(objectname)",
				"%(objectname:short)", "%(objectname:short=12) %(objectname:short=1)", "%(objecttype)",
				"%(*objectname) %(*objecttype)", "%(*objectname:short)", "[%(symref)] [%(symref:short)]",
				"%(refname:lstrip=1)|%(refname:lstrip=2)|%(refname:lstrip=-1)|%(refname:lstrip=-2)|%(refname:lstrip=9)",
				"%(refname:strip=2)|%(refname:rstrip=1)|%(refname:rstrip=-1)|%(refname:rstrip=-2)|%(refname:rstrip=9)",
				"%(symref:lstrip=-1)|%(symref:rstrip=1)", "%%%41%zz%(refname)%", "%00%0a%09%", "", "x)%(refname))",
				"%(objectname) %(objecttype) %(refname) %(symref) %(*objectname) %(*objecttype)");
	}

	@ParameterizedTest(name = "--format={0}")
	@MethodSource("formats")
	void formatsAsGitDoes(String format) {
		// %(*...) peels a tag of a tag to the first non-tag in git 2.55, one level in
		// 2.39; 2.55 shortens refs/remotes/origin/HEAD to origin, 2.39 to origin/HEAD
		boolean newer = format.contains("%(*") || format.contains("%(refname:short)");
		assertSameOutput(newer ? GitCli.reftable() : CliHarness.GIT, rich.dir(), "for-each-ref", "--format=" + format);
	}

	static Stream<String> richPatterns() {
		return Stream.of("refs/tags", "refs/tags/", "refs/ta", "refs/tags/t*", "refs/*/t1", "refs/**/main",
				"refs/remotes", "refs/heads/a", "refs/heads/a/", "refs/heads/\u00fcber", "refs/heads/*",
				"refs/heads/**", "refs/tags/[a-l]*", "refs", "refs/", "main", "*", "**", "refs/heads refs/tags",
				"refs/tags refs/heads", "refs/custom refs/remotes/origin/H*", "refs/tags/t* refs/tags/tt",
				"refs/heads/dangling", "refs/heads/chain");
	}

	@ParameterizedTest(name = "patterns {0}")
	@MethodSource("richPatterns")
	void matchesPatternsAsGitDoes(String patterns) {
		assertSameOutput(rich.dir(), args("for-each-ref", patterns));
		assertSameOutput(rich.dir(), args("for-each-ref --format=%(refname)", patterns));
	}

	static Stream<String> globPatterns() {
		return Stream.of("refs/heads/a*", "refs/heads/a?", "refs/heads/a?*", "refs/heads/[ab]*", "refs/heads/[!a]*",
				"refs/heads/[^a]*", "refs/heads/[a-b]", "refs/heads/[[:upper:]]", "refs/heads/[[:punct:]]*",
				"refs/heads/[[:alpha:][:digit:]]", "refs/heads/\\[x]", "refs/heads/x\\*y", "refs/heads/x\\?y",
				"refs/heads/x\\\\y", "refs/heads/x[*]y", "refs/heads/b/*", "refs/heads/b/**", "refs/heads/b/**/c",
				"refs/heads/**/c", "refs/heads/**/d", "refs/**/a", "refs/heads/*/*", "refs/heads/*/*/*",
				"refs/heads/[\u00e9]x", "refs/heads/?x", "refs/heads/??x", "refs/heads/*x", "refs/heads/d/**/g",
				"refs/heads/v1.*", "refs/heads/v[12].[0-9]", "refs/heads/[", "refs/heads/[]", "refs/heads/[!]",
				"refs/heads/[[:bogus:]]", "refs/heads/a**", "refs/heads/**b", "refs/heads/***", "**/c",
				"refs/heads/a\\", "**/**/**/**/**/**/**/**/x", "refs/**/**/**/**/**/**/**/**/b",
				"refs/heads/*a*a*a*a*a*a*a*a*b", "refs/heads/*a*a*a*a*a*a*a*a*a*b", "**/a/**/a/**/b",
				"**/a/**/a/**/a/**/x", "refs/**/*a*/**/*a*/b", "refs/heads/**\\/x", "refs/heads/**/*/**/x",
				"refs/**/*/**/*/*/**/x");
	}

	@ParameterizedTest(name = "glob {0}")
	@MethodSource("globPatterns")
	void matchesGlobsAsGitDoes(String pattern) {
		assertSameOutput(globs.dir(), "for-each-ref", "--format=%(refname)", pattern);
	}

	static Stream<Arguments> options() {
		return Stream.of(Arguments.of("--count=2"), Arguments.of("--count=0"), Arguments.of("--count=100"),
				Arguments.of("--count=3 refs/tags"), Arguments.of("--sort=refname"), Arguments.of("--sort=-refname"),
				Arguments.of("--sort=-refname --count=3"), Arguments.of("--sort=-refname refs/heads"),
				Arguments.of("--sort=refname --sort=-refname"), Arguments.of("--sort=-refname --sort=refname"),
				Arguments.of("--count 2 --format %(refname)"), Arguments.of("--count=-1"), Arguments.of("--count=x"),
				Arguments.of("--format=%(refname"), Arguments.of("--format=%(bogus)"), Arguments.of("--bogus"),
				Arguments.of("--format"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("options")
	void optionsBehaveAsInGit(String options) {
		assertSameOutput(rich.dir(), args("for-each-ref", options));
	}

	@Test
	void errorsNameTheCulprit() {
		assertFails(refstore(rich.dir(), "for-each-ref", "--format=%(bogus)"), 128, "fatal: unknown field name: bogus");
		assertFails(refstore(rich.dir(), "for-each-ref", "--format=x%(refname"), 129,
				"error: malformed format string %(refname", "usage: refstore for-each-ref");
		assertFails(refstore(rich.dir(), "for-each-ref", "--count=-1"), 129, "invalid --count argument: `-1'");
		assertSameOutput(rich.dir(), "for-each-ref", "--sort=objectname");
	}

	@Test
	void startAfterListsTheRefsAfterTheMarker() {
		List<String> all = lines(refstore(rich.dir(), "for-each-ref", "--format=%(refname)"));
		assertThat(all).hasSizeGreaterThan(20);
		for (int i = 0; i < all.size(); i++) {
			List<String> after = lines(
					refstore(rich.dir(), "for-each-ref", "--format=%(refname)", "--start-after=" + all.get(i)));
			assertThat(after).as("after " + all.get(i)).isEqualTo(all.subList(i + 1, all.size()));
		}
	}

	@Test
	void startAfterMarkerNeedNotExist() {
		List<String> all = lines(refstore(rich.dir(), "for-each-ref", "--format=%(refname)"));
		List<String> after = lines(
				refstore(rich.dir(), "for-each-ref", "--format=%(refname)", "--start-after=refs/heads/a.b~"));
		assertThat(after).isEqualTo(all.subList(all.indexOf("refs/heads/a/b"), all.size()));
		assertThat(lines(refstore(rich.dir(), "for-each-ref", "--start-after=refs/zzz"))).isEmpty();
		assertThat(lines(refstore(rich.dir(), "for-each-ref", "--format=%(refname)", "--start-after="))).isEqualTo(all);
	}

	@Test
	void startAfterPagesThroughEveryRefExactlyOnce() {
		GitCli.Result full = refstore(rich.dir(), "for-each-ref");
		StringBuilder paged = new StringBuilder();
		String marker = "";
		for (int pages = 0; pages < 100; pages++) {
			String page = refstore(rich.dir(), "for-each-ref", "--count=4", "--start-after=" + marker).stdout();
			if (page.isEmpty()) {
				break;
			}
			paged.append(page);
			List<String> lines = page.lines().toList();
			String last = lines.get(lines.size() - 1);
			marker = last.substring(last.indexOf('\t') + 1);
		}
		assertThat(paged.toString()).isEqualTo(full.stdout());
	}

	@Test
	void startAfterRefusesPatternsAndCustomSorting() {
		assertFails(refstore(rich.dir(), "for-each-ref", "--start-after=refs/heads/a", "refs/heads"), 128,
				"fatal: cannot use --start-after with patterns");
		assertFails(refstore(rich.dir(), "for-each-ref", "--start-after=refs/heads/a", "--sort=-refname"), 128,
				"fatal: cannot use --start-after with custom sort options");
		assertThat(refstore(rich.dir(), "for-each-ref", "--start-after=refs/heads/a", "--sort=refname").exitCode())
			.isZero();
	}

	@Test
	void missingObjectIsFatalOnlyWhenAnAtomNeedsIt() throws Exception {
		Path dir = temp.resolve("missing");
		TempRepo repo = CliFixtures.simple(dir);
		java.nio.file.Files.writeString(repo.gitDir().resolve("refs/heads/missing"),
				"1234567890123456789012345678901234567890\n");
		assertSameOutput(dir, "for-each-ref", "--format=%(refname) %(objectname)");
		// git computes every value before printing any; refstore streams, so it may print
		// the refs before the
		// damaged one: only the exit code and the message are git's
		assertThat(CliHarness.git(dir, new byte[0], "for-each-ref").exitCode()).isEqualTo(128);
		assertFails(refstore(dir, "for-each-ref"), 128,
				"fatal: missing object 1234567890123456789012345678901234567890 for refs/heads/missing");
	}

	/**
	 * Enough refs for two threads to share the date keys
	 * ({@link FormatThresholds#SORTING_SHARED_MIN}): commits of scattered dates, many
	 * equal, half of them behind annotated tags of their own dates; then a ref to a
	 * missing object in the second half of the list, which fails the sort with git's
	 * message.
	 */
	@Test
	void sortsManyRefsByDateAsGitDoes() throws Exception {
		Path dir = temp.resolve("dates");
		TempRepo repo = TempRepo.init(CliHarness.GIT, dir);
		int count = FormatThresholds.SORTING_SHARED_MIN + 1000;
		StringBuilder stream = new StringBuilder();
		for (int i = 0; i < count; i++) {
			long when = 1_500_000_000L + (i * 7919L) % 3001 * 600;
			stream.append("commit refs/heads/b").append(i).append("\nmark :").append(i + 1).append('\n');
			stream.append("committer C <c@example.com> ").append(when).append(" +0100\ndata 2\nm\n\n");
			if (i % 2 == 0) {
				stream.append("tag t").append(i).append("\nfrom :").append(i + 1).append('\n');
				stream.append("tagger T <t@example.com> ").append(when + (i % 5) * 60).append(" -0200\ndata 2\nt\n\n");
			}
		}
		repo.run(CliHarness.bytes(stream.toString()), "fast-import", "--quiet").requireOk();
		for (String sort : List.of("-committerdate", "committerdate", "creatordate", "-taggerdate", "*committerdate",
				"authordate")) {
			assertSameOutput(dir, "for-each-ref", "--sort=" + sort, "--format=%(refname) %(creatordate:unix)");
		}
		assertSameOutput(dir, "for-each-ref", "--sort=-creatordate", "--sort=committerdate", "--count=50");
		java.nio.file.Files.writeString(repo.gitDir().resolve("refs/tags/zz-missing"),
				"1234567890123456789012345678901234567890\n");
		assertThat(CliHarness.git(dir, new byte[0], "for-each-ref", "--sort=-committerdate").exitCode()).isEqualTo(128);
		assertFails(refstore(dir, "for-each-ref", "--sort=-committerdate"), 128,
				"fatal: missing object 1234567890123456789012345678901234567890 for refs/tags/zz-missing");
	}

	/**
	 * Enough refs for two threads to share the lines of a format that reads objects
	 * ({@link SharedLines}): branches and annotated tags with messages of one and many
	 * paragraphs, and a symbolic ref, printed as git prints them in every path that
	 * shares (the store's order, a count, descending names, a filter); then a ref to a
	 * missing object early in the list and another late in it: the lines before it are
	 * printed, in order, then git's error.
	 */
	@Test
	void sharesTheLinesOfManyRefsBetweenTwoThreadsAsOneWouldPrintThem() throws Exception {
		Path dir = temp.resolve("shared");
		TempRepo repo = TempRepo.init(CliHarness.GIT, dir);
		int count = FormatThresholds.LINES_CHUNK * 9 + 17;
		StringBuilder stream = new StringBuilder();
		for (int i = 0; i < count; i++) {
			String name = String.format("b%05d", i);
			String message = (i % 3 == 0) ? "subject " + i + "\n\nbody " + i + "\n\nSigned-off-by: A <a@example.com>\n"
					: "subject " + i + "\n";
			stream.append("commit refs/heads/").append(name).append("\nmark :").append(i + 1).append('\n');
			stream.append("committer C <c@example.com> ").append(1_500_000_000L + i * 3_600L).append(" +0130\n");
			stream.append("data ").append(message.length()).append('\n').append(message).append('\n');
			if (i % 4 == 0) {
				String tag = "tag of " + i + "\n";
				stream.append("tag t").append(name).append("\nfrom :").append(i + 1).append('\n');
				stream.append("tagger T <t@example.com> ").append(1_600_000_000L - i).append(" -0700\n");
				stream.append("data ").append(tag.length()).append('\n').append(tag).append('\n');
			}
		}
		repo.run(CliHarness.bytes(stream.toString()), "fast-import", "--quiet").requireOk();
		repo.run(new byte[0], "symbolic-ref", "refs/heads/link", "refs/heads/b00007").requireOk();
		String format = "--format=%(refname) %(committerdate:iso) %(subject) %(*subject)|%(contents:body)|%(*objectname)";
		GitCli.Result full = assertSameOutput(dir, "for-each-ref", format);
		assertThat(full.stdout().lines()).hasSizeGreaterThan(count);
		assertSameOutput(dir, "for-each-ref", format, "refs/heads/");
		String line = "--format=%(refname) %(committerdate:iso) %(subject)";
		List<String> branches = assertSameOutput(dir, "for-each-ref", line, "refs/heads/").stdout().lines().toList();
		assertSameOutput(dir, "for-each-ref", "--count=" + (FormatThresholds.LINES_CHUNK * 3 + 5), format);
		assertSameOutput(dir, "for-each-ref", "--sort=-refname", format);
		assertSameOutput(dir, "for-each-ref", "--merged=refs/heads/b01000", "--format=%(refname) %(authordate:unix)");
		assertSameOutput(GitCli.reftable(), dir, "for-each-ref", "--omit-empty",
				"--format=%(if)%(*objectname)%(then)%(refname)%(end)");
		for (int before : List.of(100, FormatThresholds.LINES_CHUNK * 7 + 3)) {
			String missing = String.format("refs/heads/b%05dx", before - 1);
			java.nio.file.Files.writeString(repo.gitDir().resolve(missing),
					"1234567890123456789012345678901234567890\n");
			GitCli.Result failed = refstore(dir, "for-each-ref", line, "refs/heads/");
			assertThat(CliHarness.git(dir, new byte[0], "for-each-ref", line, "refs/heads/").exitCode()).isEqualTo(128);
			assertThat(failed.exitCode()).isEqualTo(128);
			assertThat(failed.stderr())
				.isEqualTo("fatal: missing object 1234567890123456789012345678901234567890 for " + missing + "\n");
			assertThat(failed.stdout().lines()).containsExactlyElementsOf(branches.subList(0, before));
			java.nio.file.Files.delete(repo.gitDir().resolve(missing));
		}
	}

	private static List<String> lines(GitCli.Result result) {
		assertThat(result.exitCode()).as(result.stderr()).isZero();
		return new ArrayList<>(result.stdout().lines().toList());
	}

	private static String[] args(String command, String rest) {
		List<String> args = new ArrayList<>(List.of(command.split(" ")));
		if (!rest.isEmpty()) {
			args.addAll(List.of(rest.split(" ")));
		}
		return args.toArray(String[]::new);
	}

}
