package io.refstore.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@code GIT_TRACE2_EVENT}: the fsync counter refstore reports for a ref update and a
 * {@code pack-refs} with {@code core.fsync=reference} is git 2.55's for the same command
 * on an identical repository, in both formats, and the events are JSON lines as git
 * writes them.
 */
class Trace2IT {

	@TempDir
	Path temp;

	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void countsFileSyncsAsGitDoes(String format) throws Exception {
		GitCli git = GitCli.reftable().withEnv("GIT_TEST_FSYNC", "true");
		for (String[] command : new String[][] { { "update-ref", "refs/heads/branch", "HEAD" },
				{ "pack-refs", "--all" }, { "update-ref", "-d", "refs/heads/side" } }) {
			String name = String.join("-", command);
			TempRepo byGit = setUp(git, this.temp.resolve(name + "-git"), format);
			TempRepo byRefstore = setUp(git, this.temp.resolve(name + "-refstore"), format);
			List<String> args = new ArrayList<>(List.of("-c", "core.fsync=reference", "-c", "core.fsyncMethod=fsync"));
			args.addAll(List.of(command));
			Path gitTrace = this.temp.resolve(name + "-git.trace");
			git.withEnv("GIT_TRACE2_EVENT", gitTrace.toString())
				.run(byGit.dir(), new byte[0], args.toArray(String[]::new))
				.requireOk();
			Path refstoreTrace = this.temp.resolve(name + "-refstore.trace");
			Map<String, String> env = new HashMap<>(git.env());
			env.put("GIT_TRACE2_EVENT", refstoreTrace.toString());
			int code = Refstore.run(byRefstore.dir(), env, new ByteArrayInputStream(new byte[0]),
					new ByteArrayOutputStream(), new ByteArrayOutputStream(), args.toArray(String[]::new));
			assertThat(code).isZero();
			if (!command[1].equals("-d") || format.equals("reftable")) {
				// a write forces its files in both formats: the comparison is not of two
				// empty lists
				assertThat(fsyncCounters(gitTrace)).as(format + " " + name).isNotEmpty();
			}
			assertThat(fsyncCounters(refstoreTrace)).as(format + " " + name).isEqualTo(fsyncCounters(gitTrace));
			List<String> events = Files.readAllLines(refstoreTrace);
			assertThat(events.get(0)).startsWith("{\"event\":\"version\",\"sid\":\"");
			assertThat(events.get(events.size() - 1)).startsWith("{\"event\":\"atexit\"").endsWith(",\"code\":0}");
		}
	}

	/** What git's own test compares: the fsync counter events, after the category. */
	private static List<String> fsyncCounters(Path trace) throws Exception {
		List<String> counters = new ArrayList<>();
		for (String line : Files.readAllLines(trace)) {
			int at = line.indexOf("\"category\":\"fsync\",");
			if (line.startsWith("{\"event\":\"counter\",") && at >= 0) {
				counters.add(line.substring(at + "\"category\":\"fsync\",".length(), line.length() - 1));
			}
		}
		return counters;
	}

	/**
	 * A repository with two branches; in reftable one table per write, so that every
	 * command has tables to compact.
	 */
	private static TempRepo setUp(GitCli git, Path dir, String format) {
		TempRepo repo = TempRepo.init(git.withEnv("GIT_TEST_REFTABLE_AUTOCOMPACTION", "false"), dir,
				"--ref-format=" + format);
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		repo.git("update-ref", "refs/heads/side", c1);
		repo.git("symbolic-ref", "HEAD", "refs/heads/main");
		return repo;
	}

}
