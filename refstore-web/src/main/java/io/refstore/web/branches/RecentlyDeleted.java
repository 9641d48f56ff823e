package io.refstore.web.branches;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.stereotype.Component;

import io.refstore.batch.api.InvalidJobParameterException;
import io.refstore.batch.api.JobFilter;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RestoreParameters;
import io.refstore.core.delete.RefRestorer;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.web.jobs.JobDescription;
import io.refstore.web.jobs.JobRelations;
import io.refstore.web.jobs.JobService;
import io.refstore.web.journal.DeletedRefView;
import io.refstore.web.journal.JournalService;
import io.refstore.web.journal.JournalStatus;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoRegistry;

/**
 * The Branches view's "Recently deleted": where a deleted branch is found again to be
 * restored. Two sources, since either may be all a repository has: the branches its
 * journal saw deleted and that do not exist now (each restored alone, at the last value
 * the journal knows), and its newest deletion jobs (each restored whole from the manifest
 * it wrote, on the job's page, where the repository's name is typed), each with the
 * branches its manifest holds, where a branch is restored alone: a {@code restoreRefsJob}
 * of that name ({@link #restoreBranch}), refused here if the branch exists again and by
 * the job if it comes back before the job writes it. Reads a bounded number of each:
 * {@value #REFS} branches, {@value #JOBS} jobs, {@value #BRANCHES} branches of each job's
 * manifest. Thread-safe.
 */
@Component
class RecentlyDeleted {

	/** How many deleted branches of the journal the view lists. */
	static final int REFS = 20;

	/** How many deletion jobs the view lists. */
	static final int JOBS = 5;

	/** How many branches of a deletion job's manifest the view lists. */
	static final int BRANCHES = 10;

	/** How many executions of a type are looked through for them. */
	private static final int LOOKED_AT = 100;

	private static final String HEADS = "refs/heads/";

	private final JournalService journal;

	private final JobService jobs;

	private final RepoRegistry repos;

	RecentlyDeleted(JournalService journal, JobService jobs, RepoRegistry repos) {
		this.journal = journal;
		this.jobs = jobs;
		this.repos = repos;
	}

	/** What was recently deleted of {@code repo}'s branches. */
	View of(String repo) throws IOException {
		JournalStatus status = this.journal.status(repo);
		boolean journaled = status.installed() || status.entries() > 0;
		List<DeletedRefView> refs = journaled ? this.journal.deleted(repo, "refs/heads/", 0, REFS).items() : List.of();
		// a restore of some branches alone does not restore the deletion
		List<JobSummary> restores = this.jobs
			.list(new JobFilter(null, RefJobType.RESTORE, repo, null, null, null, 0, LOOKED_AT))
			.stream()
			.filter((restore) -> !restore.parameters().containsKey(JobParameterNames.NAMES))
			.toList();
		List<DeletionJob> deletions = new ArrayList<>();
		Map<Long, String> dirs = new HashMap<>();
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
			deletions.add(new DeletionJob(job.executionId(), job.ended(), job.actor(), description.summary(),
					restoredBy, List.of(), false, true));
			dirs.put(job.executionId(), manifestDir(job));
		}
		return new View(status.installed(), refs, withBranches(repo, deletions, dirs));
	}

	/**
	 * The jobs with the branches their manifests hold (at most {@value #BRANCHES} each),
	 * and what each branch holds now; a job whose manifest is no longer kept says so. The
	 * repository is opened once.
	 */
	private List<DeletionJob> withBranches(String repo, List<DeletionJob> deletions, Map<Long, String> dirs)
			throws IOException {
		if (deletions.isEmpty()) {
			return deletions;
		}
		List<DeletionJob> out = new ArrayList<>();
		try (OpenRepo open = this.repos.open(repo)) {
			for (DeletionJob job : deletions) {
				String dir = dirs.get(job.id());
				List<Ref> saved = (dir != null) ? deleted(open, dir, BRANCHES + 1) : null;
				if (saved == null) {
					out.add(new DeletionJob(job.id(), job.ended(), job.actor(), job.summary(), job.restoredBy(),
							List.of(), false, false));
					continue;
				}
				List<Ref> shown = saved.subList(0, Math.min(BRANCHES, saved.size()));
				Map<String, Ref> now = open.store().exactRefs(shown.stream().map(Ref::name).toList());
				List<DeletedBranch> branches = shown.stream()
					.map((ref) -> new DeletedBranch(ref.name(), value(ref),
							now.containsKey(ref.name()) ? value(now.get(ref.name())) : null))
					.toList();
				out.add(new DeletionJob(job.id(), job.ended(), job.actor(), job.summary(), job.restoredBy(), branches,
						saved.size() > BRANCHES, true));
			}
		}
		return out;
	}

	/**
	 * The branches the manifests of a deletion's directory hold, at most {@code limit};
	 * {@code null} if they are no longer kept (or were never written).
	 */
	private static List<Ref> deleted(OpenRepo open, String dir, int limit) throws IOException {
		List<Path> manifests;
		try {
			manifests = new RestoreParameters(Path.of(dir)).manifests(open.repository());
		}
		catch (InvalidJobParameterException ex) {
			return null;
		}
		RefRestorer restorer = new RefRestorer(open.store());
		List<Ref> refs = new ArrayList<>();
		for (Path manifest : manifests) {
			if (refs.size() < limit) {
				refs.addAll(restorer.deletedRefs(manifest, HEADS, limit - refs.size()));
			}
		}
		return refs;
	}

	/**
	 * The directory under {@code refstore-plans} of an executed (or partly executed)
	 * deletion's manifests; {@code null} for any other job.
	 */
	private static String manifestDir(JobSummary job) {
		String plan = job.parameters().get(JobParameterNames.PLAN);
		if (job.type() != RefJobType.DELETE || plan == null || new JobDescription(job).planOnly()) {
			return null;
		}
		Path parent = Path.of(plan).getParent();
		return (parent != null) ? parent.toString() : null;
	}

	private static String value(Ref ref) {
		return (ref instanceof DirectRef direct) ? direct.id().name()
				: "-> " + ((ref instanceof SymbolicRef symbolic) ? symbolic.target() : "?");
	}

	/**
	 * Restores one branch a deletion job of {@code repo} deleted, from the job's
	 * manifest: launches {@code restoreRefsJob} for that name alone (ADMIN, as every
	 * restore). The job writes the branch only if it is still missing, so a branch
	 * created after this check is refused by the job and left as is.
	 * @return the restore launched
	 * @throws Refused naming why nothing was launched: the job is no executed deletion of
	 * the repository, its manifest is no longer kept or does not hold the branch, or the
	 * branch exists again
	 */
	JobSummary restoreBranch(String repo, long jobId, String branch, String actor) throws IOException {
		JobSummary job = this.jobs.find(jobId).orElse(null);
		String dir = (job != null && repo.equals(job.repository())) ? manifestDir(job) : null;
		if (dir == null) {
			throw new Refused("job " + jobId + " is no executed deletion of " + repo + ".");
		}
		try (OpenRepo open = this.repos.open(repo)) {
			List<Ref> saved;
			try {
				saved = new ArrayList<>();
				RefRestorer restorer = new RefRestorer(open.store(), Set.of(branch));
				for (Path manifest : new RestoreParameters(Path.of(dir)).manifests(open.repository())) {
					saved.addAll(restorer.deletedRefs(manifest, branch, 1));
				}
			}
			catch (InvalidJobParameterException ex) {
				throw new Refused("the manifest of job " + jobId + " is no longer kept.");
			}
			catch (UncheckedIOException ex) {
				throw ex.getCause();
			}
			if (saved.isEmpty()) {
				throw new Refused("job " + jobId + " did not delete " + branch + ".");
			}
			Ref now = open.store().exactRefs(List.of(branch)).get(branch);
			if (now != null) {
				String held = value(now);
				throw new Refused(
						branch + (held.equals(value(saved.get(0))) ? " is back already, at " : " exists again, at ")
								+ abbreviated(held) + "; it was left as is.");
			}
		}
		return this.jobs.restore(repo, dir, List.of(branch), actor);
	}

	private static String abbreviated(String value) {
		return (value.length() > 12 && !value.startsWith("->")) ? value.substring(0, 12) : value;
	}

	/** Why a branch of a deletion's manifest was not restored, in words. */
	static final class Refused extends RuntimeException {

		private static final long serialVersionUID = 1L;

		Refused(String message) {
			super(message);
		}

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
	 * @param branches the first branches its manifest holds
	 * @param moreBranches whether the manifest holds more branches than listed
	 * @param manifestKept whether its manifest is still kept (a restore needs it)
	 */
	public record DeletionJob(long id, LocalDateTime ended, String actor, String summary, Long restoredBy,
			List<DeletedBranch> branches, boolean moreBranches, boolean manifestKept) {
	}

	/**
	 * A branch a deletion job's manifest holds.
	 *
	 * @param ref its full name
	 * @param value the value it had when deleted (an object id, or {@code -> target})
	 * @param now what it holds now, or {@code null} while it is missing
	 */
	public record DeletedBranch(String ref, String value, String now) {

		/** Whether it is back at the value it had. */
		public boolean back() {
			return this.value.equals(this.now);
		}

		/** Whether a branch of its name exists again with another value. */
		public boolean taken() {
			return this.now != null && !back();
		}

	}

}
