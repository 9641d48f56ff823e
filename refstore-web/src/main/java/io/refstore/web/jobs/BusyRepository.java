package io.refstore.web.jobs;

import org.springframework.web.ErrorResponseException;

import io.refstore.batch.api.JobConflictException;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.console.ConsoleFormat;

/**
 * A launch or restart the console could not make because another job is changing the
 * repository, as the console says it: the running job by id and type, with a link to it
 * (see {@link ConsoleFormat#busyRepository}). The batch module's own message names the
 * lease, the instance holding it and the repository's path, which are not the user's
 * business.
 *
 * @param sentence what to show
 * @param runningJob the execution to link to, or {@code null} while it is being launched
 */
record BusyRepository(String sentence, Long runningJob) {

	/**
	 * The refusal {@code ex} for {@code repository}'s name, the running job's type read
	 * from {@code jobs} when it can be.
	 */
	static BusyRepository of(JobConflictException ex, String repository, JobService jobs) {
		Long running = ex.executionId();
		RefJobType type = null;
		if (running != null) {
			try {
				type = jobs.get(running).type();
			}
			catch (ErrorResponseException gone) {
				// ended and cleaned up meanwhile: the sentence goes without its type
			}
		}
		return new BusyRepository(ConsoleFormat.busyRepository(repository, running, type), running);
	}

}
