package io.refstore.batch.support;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.springframework.batch.core.job.JobExecution;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.core.journal.WriterKind;
import io.refstore.core.repo.GitHooks;
import io.refstore.core.repo.Repository;

/**
 * A job's repository, opened so that the ref journal's hook records the job's writes as
 * the job's ({@code job}), by the user who launched it ({@code REMOTE_USER}): every
 * transaction of a store opened on it runs the hook with both
 * ({@link GitHooks#referenceTransaction(Repository)}).
 */
public final class JobWriters {

	private JobWriters() {
	}

	/** Opens the repository at {@code path} for {@code execution}'s writes. */
	public static Repository open(Path path, JobExecution execution) throws IOException {
		Map<String, String> env = new HashMap<>(System.getenv());
		env.put(GitHooks.WRITER_KIND, WriterKind.JOB.word());
		String actor = execution.getJobParameters().getString(JobParameterNames.ACTOR);
		if (actor != null && !actor.isEmpty()) {
			env.put(GitHooks.WRITER_USER, actor);
		}
		return Repository.open(path, env);
	}

}
