package io.refstore.web.system;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What a client may see of a server-side text: Spring Batch's exit descriptions lose
 * their exception classes and stack frames, absolute paths their directories; ref names
 * and relative paths stay.
 */
class RedactionTest {

	@Test
	void aBatchFailureKeepsItsCauseInWordsOnly() {
		String exit = """
				java.lang.IllegalArgumentException: ref refs/heads/x sorts before refs/heads/y in /srv/git/team/a.git/reftable/0x01.ref
					at io.refstore.core.reftable.ReftableWriter.add(ReftableWriter.java:217)
					at org.springframework.batch.core.step.tasklet.TaskletStep.doInTransaction(TaskletStep.java:388)
				""";
		assertThat(Redaction.message(exit)).isEqualTo("ref refs/heads/x sorts before refs/heads/y in 0x01.ref");
	}

	@Test
	void nestedExceptionPrefixesAndCausedByGo() {
		assertThat(Redaction.message("org.springframework.batch.core.JobExecutionException: java.io.IOException:"
				+ " cannot read /home/refstore/data/plans/42.plan"))
			.isEqualTo("cannot read 42.plan");
		assertThat(Redaction.message("Caused by: java.nio.file.NoSuchFileException: /tmp/x/backup/2026"))
			.isEqualTo("2026");
		assertThat(Redaction.message("java.lang.NullPointerException"))
			.isEqualTo("failed; the server log has the details");
	}

	@Test
	void wordsRefNamesAndRelativePathsStay() {
		String text = "deleted 3 of refs/heads/b/01900, refs/tags/v1 (see backups/x); 1/2 done";
		assertThat(Redaction.message(text)).isEqualTo(text);
		assertThat(Redaction.paths("it leads outside the repository root /srv/git/repos through a symbolic link"))
			.isEqualTo("it leads outside the repository root repos through a symbolic link");
		assertThat(Redaction.paths("'/var/lib/refstore/repos/a.git/refs/heads/main.lock' exists"))
			.isEqualTo("'main.lock' exists");
		assertThat(Redaction.message(null)).isNull();
	}

}
