package io.refstore.core.cli.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * The recorded-zone date formats against git 2.55's own output for the same commits:
 * zones east and west, with and without minutes, a leap day, and the last second of year
 * 9999 in UTC and in a zone that makes it year 10000 (a year before 1000 is not needed:
 * git dates start in 1970).
 */
class GitDateFormatTest {

	@Test
	void formatsAsGitDoes(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
		GitCli git = GitCli.reftable();
		TempRepo repo = TempRepo.init(git, dir);
		List<String> modes = List.of("default", "short", "iso", "iso-strict", "rfc", "raw", "unix",
				"format:%a %d %b %Y %H:%M:%S");
		for (String when : List.of("1151968723 +0200", "1151968723 -0730", "86400 +0000", "1700000000 +1345",
				"4102444799 -1200", "951782400 +0000", "253402300799 +0000", "253402300799 +0100", "1151968723 +2500",
				"1151968723 -9959")) {
			String body = "tree " + repo.git("hash-object", "-t", "tree", "-w", "--stdin").strip() + "\n"
					+ "author A U Thor <author@example.com> " + when + "\n" + "committer C O Mitter <c@example.com> "
					+ when + "\n\nat " + when + "\n";
			String commit = repo
				.run(body.getBytes(java.nio.charset.StandardCharsets.UTF_8), "hash-object", "-t", "commit", "-w",
						"--stdin")
				.requireOk()
				.stdout()
				.strip();
			String[] parts = when.split(" ");
			int zone = Integer.parseInt(parts[1].substring(1, 3)) * 60 + Integer.parseInt(parts[1].substring(3));
			zone = parts[1].startsWith("-") ? -zone : zone;
			for (String mode : modes) {
				String expected = repo.git("log", "-1", "--format=%cd", "--date=" + mode, commit).strip();
				assertThat(GitDateFormat.parse(mode).format(Long.parseLong(parts[0]), zone)).as(mode + " " + when)
					.isEqualTo(expected);
			}
		}
	}

}
