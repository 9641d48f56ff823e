package io.refstore.web.fleet;

import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Profile;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobs;
import io.refstore.web.repos.RepoRegistry;

/**
 * A node of the fleet that comes back restarts the jobs its stop interrupted, each from
 * its last committed chunk, as an operator's restart would: the executions it ran since
 * its previous start that were marked FAILED for its death (at this start, or by a
 * survivor once their leases expired) and that nobody restarted meanwhile. Only on a
 * fleet's database (the {@code postgres} profile): a single node on H2 leaves them to an
 * operator, as before. An execution interrupted in an earlier life, a repository this
 * node no longer holds, or a restart refused (another job holds the repository) is left
 * as it is, and the refusal is audited.
 */
@Component
@Profile("postgres")
class NodeReturn {

	private static final Logger logger = LoggerFactory.getLogger(NodeReturn.class);

	private final FleetMembership membership;

	private final RefJobs jobs;

	private final RepoRegistry registry;

	NodeReturn(FleetMembership membership, RefJobs jobs, RepoRegistry registry) {
		this.membership = membership;
		this.jobs = jobs;
		this.registry = registry;
	}

	/**
	 * Once the application is ready: after {@code StartupRecovery} failed this node's
	 * dead executions, and with the node registered and heartbeating.
	 */
	@EventListener(ApplicationReadyEvent.class)
	void restartInterrupted() {
		Optional<Instant> previousStart = this.membership.previousStart();
		if (previousStart.isEmpty()) {
			return;
		}
		String node = this.membership.node();
		List<JobSummary> interrupted = this.jobs.interrupted(node,
				LocalDateTime.ofInstant(previousStart.get(), ZoneId.systemDefault()));
		for (JobSummary job : interrupted) {
			if (!holds(job.repository())) {
				logger.warn("Execution {} was interrupted on node '{}', which no longer holds its repository:"
						+ " left for an operator", job.executionId(), node);
				continue;
			}
			try {
				JobSummary restarted = this.jobs.restart(job.executionId(), "node:" + node);
				logger.info("Node '{}' restarted execution {} its stop interrupted, as execution {}", node,
						job.executionId(), restarted.executionId());
			}
			catch (RuntimeException ex) {
				logger.warn("Node '{}' could not restart execution {} its stop interrupted: {}", node,
						job.executionId(), ex.getMessage());
			}
		}
	}

	private boolean holds(String repository) {
		try {
			return repository != null && this.registry.holds(repository);
		}
		catch (IOException | IllegalArgumentException ex) {
			return false;
		}
	}

}
