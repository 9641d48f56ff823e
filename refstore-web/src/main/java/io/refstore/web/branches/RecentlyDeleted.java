package io.refstore.web.branches;

import java.io.IOException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

import org.springframework.stereotype.Component;

import io.refstore.batch.api.JobFilter;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.jobs.JobDescription;
import io.refstore.web.jobs.JobRelations;
import io.refstore.web.jobs.JobService;
import io.refstore.web.journal.DeletedRefView;
import io.refstore.web.journal.JournalService;
import io.refstore.web.journal.JournalStatus;

/**
 * The Branches view's "Recently deleted": where a deleted branch is found again to be
 * restored. Two sources, since either may be all a repository has: the branches its
 * journal saw deleted and that do not exist now (each restored alone, at the last value
 * the journal knows), and its newest deletion jobs (each restored whole from the manifest
 * it wrote, on the job's page, where the repository's name is typed). Reads a bounded
 * number of each: {@value #REFS} branches, {@value #JOBS} jobs. Thread-safe.
 */
@Component
class RecentlyDeleted {

	/** How many deleted branches of the journal the view lists. */
	static final int REFS = 20;

	/** How many deletion jobs the view lists. */
	static final int JOBS = 5;

	/** How many executions of a type are looked through for them. */
	private static final int LOOKED_AT = 100;

	private final JournalService journal;

	private final JobService jobs;

	RecentlyDeleted(JournalService journal, JobService jobs) {
		this.journal = journal;
		this.jobs = jobs;
	}

	/** What was recently deleted of {@code repo}'s branches. */
	View of(String repo) throws IOException {
		JournalStatus status = this.journal.status(repo);
		boolean journaled = status.installed() || status.entries() > 0;
		List<DeletedRefView> refs = journaled ? this.journal.deleted(repo, "refs/heads/", 0, REFS).items() : List.of();
		List<JobSummary> restores = this.jobs
			.list(new JobFilter(null, RefJobType.RESTORE, repo, null, null, null, 0, LOOKED_AT));
		List<DeletionJob> deletions = new ArrayList<>();
		for (JobSummary job : this.jobs
			.list(new JobFilter(null, RefJobType.DELETE, repo, null, null, null, 0, LOOKED_AT))) {
			if (deletions.size() == JOBS) {
				break;
			}
			JobDescription description = new JobDescription(job);
			if (!job.repository().equals(repo) || description.planOnly() || job.running()) {
				continue;
			}
			Long restoredBy = JobRelations.of(job, restores, List.of())
				.restores()
				.stream()
				.findFirst()
				.map(JobSummary::executionId)
				.orElse(null);
			deletions
				.add(new DeletionJob(job.executionId(), job.ended(), job.actor(), description.summary(), restoredBy));
		}
		return new View(status.installed(), refs, deletions);
	}

	/**
	 * What the view lists.
	 *
	 * @param journal whether the repository's journal hook is installed (deletions by git
	 * are then listed too)
	 * @param refs the branches the journal saw deleted, newest deletion first
	 * @param jobs the newest ended deletion jobs, newest first
	 */
	public record View(boolean journal, List<DeletedRefView> refs, List<DeletionJob> jobs) {

		/** Whether there is nothing to list. */
		public boolean isEmpty() {
			return this.refs.isEmpty() && this.jobs.isEmpty();
		}

	}

	/**
	 * One deletion job.
	 *
	 * @param id its execution
	 * @param ended when it ended (the server's zone, as Spring Batch keeps it)
	 * @param actor who launched it
	 * @param summary what it did, in words
	 * @param restoredBy the restore that put its refs back, or {@code null}
	 */
	public record DeletionJob(long id, LocalDateTime ended, String actor, String summary, Long restoredBy) {
	}

}
