package io.refstore.core.ref;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import io.refstore.core.ref.RefName.Rule;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RefName} against the git on the PATH, over a few thousand generated names. One
 * git process per name and question, all run from one shell loop that reads the names
 * NUL-separated, so every byte reaches git as it is (Java would re-encode command-line
 * arguments).
 */
class RefNameIT {

	private static final long SEED = 20240601L;

	private static final int RANDOM_NAMES = 1000;

	/** Prints "strict one-level" exit codes of check-ref-format per name. */
	private static final String CHECK_LOOP = """
			while IFS= read -r -u 3 -d '' name; do
				git check-ref-format "$name"; strict=$?
				git check-ref-format --allow-onelevel "$name"; onelevel=$?
				echo "$strict $onelevel"
			done 3< "$1"
			""";

	/**
	 * Prints "unsafe|safe exit-code" per name. Deleting a ref is the one write git allows
	 * for any safe name and refuses with this message for any other; the names do not
	 * exist, so nothing is removed. The message is looked for by bash itself
	 * ({@code read} and a pattern), not by a grep process per name.
	 */
	private static final String DELETE_LOOP = """
			while IFS= read -r -u 3 -d '' name; do
				git update-ref -d -- "$name" 2> "$2"; code=$?
				err=
				IFS= read -r -d '' err < "$2"
				if [[ $err == *'refusing to update ref with bad name'* ]]; then
					echo "unsafe $code"
				else
					echo "safe $code"
				fi
			done 3< "$1"
			""";

	@TempDir
	Path tmp;

	@Test
	void violationAgreesWithGitCheckRefFormat() throws IOException {
		List<byte[]> names = new ArrayList<>();
		for (byte[] name : RefNameCorpus.names(SEED, RANDOM_NAMES)) {
			// git's command line takes a leading '-' for an option: such names cannot be
			// asked this way
			if (name.length == 0 || name[0] != '-') {
				names.add(name);
			}
		}
		List<String> verdicts = runLoop(CHECK_LOOP, names, this.tmp);
		List<String> disagreements = new ArrayList<>();
		Map<Rule, Integer> hits = new EnumMap<>(Rule.class);
		int valid = 0;
		for (int i = 0; i < names.size(); i++) {
			byte[] name = names.get(i);
			String[] codes = verdicts.get(i).split(" ");
			Rule strict = RefName.violation(name, 0, name.length, false);
			Rule oneLevel = RefName.violation(name, 0, name.length, true);
			compare(name, "check-ref-format", codes[0], strict, disagreements);
			compare(name, "check-ref-format --allow-onelevel", codes[1], oneLevel, disagreements);
			String text = RefNameCorpus.utf8OrNull(name);
			if (text != null && RefName.violation(text, false) != strict) {
				disagreements.add(RefNameCorpus.printable(name) + ": the String and byte[] checks differ");
			}
			if (strict == null) {
				valid++;
			}
			else {
				hits.merge(strict, 1, Integer::sum);
			}
		}
		assertThat(disagreements).as("names where refstore and git disagree").isEmpty();
		// the corpus must reach every rule and hold enough valid names to catch false
		// rejections
		assertThat(hits).as("rules hit by the corpus")
			.containsOnlyKeys(Arrays.stream(Rule.values()).filter(Rule::isCheckRefFormat).toList());
		assertThat(valid).as("valid names in the corpus").isGreaterThan(names.size() / 10);
		assertThat(names).hasSizeGreaterThan(RANDOM_NAMES);
	}

	@Test
	void isSafeAgreesWithGitUpdateRefDelete() throws IOException {
		List<byte[]> names = safetyCorpus();
		TempRepo repo = TempRepo.init(GitCli.system(), this.tmp.resolve("repo.git"), "--bare");
		List<String> verdicts = runLoop(DELETE_LOOP, names, repo.dir());
		List<String> disagreements = new ArrayList<>();
		int safe = 0;
		for (int i = 0; i < names.size(); i++) {
			String name = new String(names.get(i), StandardCharsets.UTF_8);
			String[] verdict = verdicts.get(i).split(" ");
			boolean gitSafe = verdict[0].equals("safe");
			assertThat(gitSafe || !verdict[1].equals("0")).as("git refused '%s' but exited 0", name).isTrue();
			if (RefName.isSafe(name) != gitSafe) {
				disagreements.add(RefName.printable(name) + ": git says " + verdict[0]);
			}
			safe += gitSafe ? 1 : 0;
		}
		assertThat(disagreements).as("names where refstore and git disagree on safety").isEmpty();
		assertThat(safe).as("safe names").isBetween(names.size() / 5, names.size() * 4 / 5);
		assertThat(repo.git("for-each-ref")).as("refs left behind").isEmpty();
		assertThat(repo.git("symbolic-ref", "HEAD")).isEqualTo("refs/heads/main\n");
	}

	/**
	 * UTF-8 names from the check corpus, and names made of the pieces path normalisation
	 * reacts to.
	 */
	private static List<byte[]> safetyCorpus() {
		Set<String> names = new LinkedHashSet<>();
		for (byte[] name : RefNameCorpus.names(SEED, 500)) {
			String text = RefNameCorpus.utf8OrNull(name);
			if (text != null) {
				names.add(text);
			}
		}
		List<String> pieces = List.of("refs/", "refs", "/", "//", ".", "..", "./", "../", "/.", "/..", "a", "b", "B",
				"_", "-", "HEAD", "X_Y", "x.y", "...", " ");
		Random rnd = new Random(SEED);
		while (names.size() < 2000) {
			StringBuilder name = new StringBuilder(rnd.nextInt(3) == 0 ? "" : "refs/");
			int count = 1 + rnd.nextInt(5);
			for (int j = 0; j < count; j++) {
				name.append(pieces.get(rnd.nextInt(pieces.size())));
			}
			names.add(name.toString());
		}
		return names.stream().map((name) -> name.getBytes(StandardCharsets.UTF_8)).toList();
	}

	private static void compare(byte[] name, String command, String exitCode, Rule rule, List<String> out) {
		if (!exitCode.equals("0") && !exitCode.equals("1")) {
			throw new AssertionError("git " + command + " '" + RefNameCorpus.printable(name) + "' exited with "
					+ exitCode + " (not a verdict)");
		}
		boolean gitValid = exitCode.equals("0");
		if (gitValid != (rule == null)) {
			out.add(RefNameCorpus.printable(name) + ": git " + command + (gitValid ? " accepts" : " rejects")
					+ ", refstore says " + ((rule != null) ? rule : "valid"));
		}
	}

	/**
	 * Writes the names NUL-separated and runs {@code loop} over them with bash in
	 * {@code dir}; returns one output line per name.
	 */
	private List<String> runLoop(String loop, List<byte[]> names, Path dir) throws IOException {
		Path script = Files.writeString(Files.createTempFile(this.tmp, "loop", ".sh"), loop);
		Path input = Files.createTempFile(this.tmp, "names", ".bin");
		try (OutputStream out = Files.newOutputStream(input)) {
			for (byte[] name : names) {
				out.write(name);
				out.write(0);
			}
		}
		Path scratch = Files.createTempFile(this.tmp, "stderr", ".txt");
		ProcessBuilder builder = new ProcessBuilder("bash", script.toString(), input.toString(), scratch.toString())
			.directory(dir.toFile())
			.redirectErrorStream(false)
			.redirectError(ProcessBuilder.Redirect.DISCARD);
		builder.environment().put("GIT_CONFIG_NOSYSTEM", "1");
		builder.environment().put("GIT_CONFIG_GLOBAL", "/dev/null");
		builder.environment().put("LC_ALL", "C");
		Process process = builder.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
		try {
			assertThat(process.waitFor()).as("exit code of the bash loop").isZero();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while git checked names", ex);
		}
		List<String> lines = output.lines().toList();
		assertThat(lines).as("one verdict per name").hasSize(names.size());
		return lines;
	}

}
