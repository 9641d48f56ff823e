package io.refstore.web.jobs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponseException;

import io.refstore.batch.api.JobResults;
import io.refstore.batch.api.JobSummary;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoRegistry;

/**
 * Where a completed deletion plan's file is on this node, for the pages that read the
 * plan's whole list (its CSV download, and the ref browser's view of it): inside the
 * repository's {@value JobResults#PLANS_DIR}, never a link. A plan kept on another node
 * of the fleet, or gone, is a 404 saying so.
 */
@Component
public class PlanFiles {

	private final JobService jobs;

	private final RepoRegistry repos;

	PlanFiles(JobService jobs, RepoRegistry repos) {
		this.jobs = jobs;
		this.repos = repos;
	}

	/**
	 * The completed plan {@code id} and its file.
	 * @throws io.refstore.web.system.InvalidRequestException naming {@code plan} if
	 * {@code id} is no completed deletion plan
	 * @throws ErrorResponseException 404 if this node does not hold its file
	 */
	public KeptPlan of(long id) throws IOException {
		JobSummary plan = this.jobs.completedPlan(id);
		Path file = Path.of(plan.results().get(JobResults.PLAN_PATH));
		if (this.repos.holds(plan.repository())) {
			try (OpenRepo open = this.repos.open(plan.repository())) {
				Path plans = open.repository().gitDir().resolve(JobResults.PLANS_DIR);
				if (file.normalize().startsWith(plans) && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
					return new KeptPlan(plan, file);
				}
			}
		}
		throw new ErrorResponseException(HttpStatus.NOT_FOUND,
				ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND,
						"The plan of job " + plan.executionId() + " is not kept on this node: it was removed, or its"
								+ " repository is on another node of the fleet."),
				null);
	}

	/**
	 * A completed plan and its file.
	 *
	 * @param job the plan's execution
	 * @param file its file, in its repository
	 */
	public record KeptPlan(JobSummary job, Path file) {

		/** How many refs the plan selected. */
		public long count() {
			return Long.parseLong(this.job.results().get(JobResults.PLAN_COUNT));
		}

	}

}
