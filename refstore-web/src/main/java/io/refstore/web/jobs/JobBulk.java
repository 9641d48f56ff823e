package io.refstore.web.jobs;

import java.io.Serializable;
import java.util.Locale;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponseException;

import io.refstore.batch.api.JobConflictException;
import io.refstore.batch.api.JobSummary;
import io.refstore.web.console.ConsoleFormat;
import io.refstore.web.system.InvalidRequestException;

/**
 * Stopping and restarting jobs from the console, one at a time or several selected in the
 * list: what the action would do to each job (the confirmation lists it), and what it did
 * (the list then says it per job: stopped, restarted as job N, or left alone and why).
 * The service ({@link JobService}) checks the role and audits each stop and restart, as
 * for a single job; a restart of a job restarted already is left alone, as the job's page
 * does, since a job goes on from its latest run.
 */
@Component
class JobBulk {

	/** An action on selected jobs. */
	enum Action {

		/** Ask running jobs to stop after their current chunk (OPERATOR). */
		STOP,

		/**
		 * Restart stopped or failed jobs that were not restarted yet (the role each job's
		 * type needs).
		 */
		RESTART;

		/** Its name in addresses: {@code stop}, {@code restart}. */
		public String path() {
			return name().toLowerCase(Locale.ROOT);
		}

		/** Its verb: {@code Stop}, {@code Restart}. */
		public String verb() {
			return ConsoleFormat.inWords(name());
		}

		/**
		 * @throws InvalidRequestException naming {@code action} for another word
		 */
		static Action of(String path) {
			for (Action action : values()) {
				if (action.path().equals(path)) {
					return action;
				}
			}
			throw new InvalidRequestException("action", path, "not one of stop, restart");
		}

	}

	/**
	 * A selected job and what the action does (or did) to it.
	 *
	 * @param id the job's execution
	 * @param title the job in words ({@code Migration}), {@code null} if it is gone
	 * @param repository its repository
	 * @param status its status in words when it was read
	 * @param acts whether the action does (did) something to it
	 * @param sentence what, or why not, in words
	 * @param job a job the sentence names (the restart, the job holding the repository),
	 * or {@code null}
	 */
	record Item(long id, String title, String repository, String status, boolean acts, String sentence,
			Long job) implements Serializable {

	}

	private final JobService jobs;

	JobBulk(JobService jobs) {
		this.jobs = jobs;
	}

	/**
	 * What {@code action} would do to {@code job}.
	 * @param restartedAs the job's restart, or {@code null}
	 * @param allowed whether the caller's role may restart a job of its type
	 */
	static Item preview(Action action, JobSummary job, Long restartedAs, boolean allowed) {
		if (action == Action.STOP) {
			return job.running() ? item(job, true, "Asked to stop: it stops after its current chunk.", null)
					: item(job, false, "Left alone: it is not running.", null);
		}
		if (!allowed) {
			return item(job, false, "Not allowed: only an administrator can restart a "
					+ new JobDescription(job).title().toLowerCase(Locale.ROOT) + ".", null);
		}
		if (!job.status().restartable()) {
			return item(job, false, notRestartable(job), null);
		}
		if (restartedAs != null) {
			return item(job, false, "Left alone: " + restartedAlready(restartedAs), restartedAs);
		}
		return item(job, true, "Restarted as a new job that goes on from where this one stopped.", null);
	}

	/** A selected job that is gone (retention deleted it meanwhile). */
	static Item missing(long id) {
		return new Item(id, null, null, null, false, "Left alone: there is no such job any more.", null);
	}

	/** Asks {@code job} to stop; says how that went. */
	Item stop(JobSummary job, String actor) {
		try {
			this.jobs.stop(job.executionId(), actor);
		}
		catch (ErrorResponseException ex) {
			if (ex.getStatusCode().value() != HttpStatus.CONFLICT.value()) {
				throw ex;
			}
			return item(job, false, "Not stopped: it is not running any more.", null);
		}
		return item(job, true, "Stop requested: it stops after its current chunk.", null);
	}

	/** Restarts {@code job} unless it was restarted already; says how that went. */
	Item restart(JobSummary job, String actor) {
		Long later = this.jobs.restartedAs(job);
		if (later != null) {
			return item(job, false, "Not restarted: " + restartedAlready(later), later);
		}
		try {
			JobSummary restarted = this.jobs.restart(job.executionId(), actor);
			return item(job, true, "Restarted as job " + restarted.executionId() + ".", restarted.executionId());
		}
		catch (JobConflictException ex) {
			BusyRepository busy = BusyRepository.of(ex, job.repository(), this.jobs);
			return item(job, false, "Not restarted: " + busy.sentence(), busy.runningJob());
		}
		catch (InvalidRequestException ex) {
			return item(job, false, "Not restarted: " + ex.reason() + ".", null);
		}
		catch (ErrorResponseException ex) {
			if (ex.getStatusCode().value() != HttpStatus.CONFLICT.value()) {
				throw ex;
			}
			return item(job, false, "Not restarted: " + notRestartable(job).substring("Left alone: ".length()), null);
		}
	}

	private static String restartedAlready(long later) {
		return "it was restarted already, as job " + later + ": a job goes on from its latest run.";
	}

	private static String notRestartable(JobSummary job) {
		return "Left alone: only a stopped or failed job restarts, and this one is "
				+ ConsoleFormat.jobStatusInWords(job.status().name()).toLowerCase(Locale.ROOT) + ".";
	}

	private static Item item(JobSummary job, boolean acts, String sentence, Long other) {
		return new Item(job.executionId(), new JobDescription(job).title(), job.repository(),
				ConsoleFormat.jobStatusInWords(job.status().name()), acts, sentence, other);
	}

}
