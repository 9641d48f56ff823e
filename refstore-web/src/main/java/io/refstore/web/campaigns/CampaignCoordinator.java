package io.refstore.web.campaigns;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;

import io.refstore.batch.api.ExclusiveWork;
import io.refstore.batch.api.JobConflictException;
import io.refstore.batch.api.JobFilter;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobEvent;
import io.refstore.batch.api.RefJobs;
import io.refstore.web.fleet.FleetJobs;
import io.refstore.web.fleet.FleetProperties;
import io.refstore.web.schedules.ScheduleService;
import io.refstore.web.system.Notification;
import io.refstore.web.system.Passes;
import io.refstore.web.system.Redaction;
import io.refstore.web.system.RefWebProperties;

/**
 * Drives the running campaigns from the database alone, so that an instance started again
 * continues where the campaign stood. Each pass, for every running campaign:
 * <ol>
 * <li>every RUNNING target is re-read from its execution ({@link RefJobs#find}):
 * completed is DONE, failed or stopped is FAILED with the exit description, except an
 * execution an instance's death interrupted (marked by {@code StartupRecovery}): the
 * target follows the execution that restarted it (its node does so when it returns to the
 * fleet), waits while that node is down, or else restarts it once from its last
 * chunk;</li>
 * <li>PENDING targets are launched in order while fewer than {@code concurrency} run; a
 * busy repository ({@link JobConflictException}) is SKIPPED_BUSY, a refused launch
 * FAILED;</li>
 * <li>a campaign with nothing pending or running ends.</li>
 * </ol>
 * Passes never overlap; they run every {@code refstore.campaigns.poll-millis} (default
 * 1s) and at each job's end. A target is marked RUNNING before its job is launched; one
 * found RUNNING without an execution (the instance died in between) is attached to the
 * execution launched for it, or made PENDING again if there is none.
 */
@Component
class CampaignCoordinator implements SmartLifecycle {

	private final CampaignStore store;

	private final RefJobs jobs;

	private final Passes passes;

	private final FleetJobs fleet;

	private final int perNode;

	private final ExclusiveWork work;

	private final ApplicationEventPublisher events;

	CampaignCoordinator(CampaignStore store, RefJobs jobs, FleetJobs fleet, RefWebProperties settings,
			FleetProperties fleetSettings, ExclusiveWork work, TaskScheduler scheduler,
			ApplicationEventPublisher events) {
		this.work = work;
		this.events = events;
		this.store = store;
		this.jobs = jobs;
		this.fleet = fleet;
		this.perNode = fleetSettings.jobsPerNode();
		this.passes = new Passes("campaigns", settings.campaigns().pollMillis(), this::pass, scheduler);
	}

	@Override
	public void start() {
		this.passes.start();
	}

	@Override
	public void stop() {
		this.passes.stop();
	}

	@Override
	public boolean isRunning() {
		return this.passes.isRunning();
	}

	/** Asks for a pass soon, off the caller's thread; does nothing while stopped. */
	void nudge() {
		this.passes.nudge();
	}

	@EventListener
	void onJobEvent(RefJobEvent event) {
		if (event.action() == RefJobEvent.Action.FINISH) {
			nudge();
		}
	}

	/** One pass over every running campaign. */
	void pass() {
		for (long id : this.store.running()) {
			// one node at a time advances a campaign: the per-node limit counts what runs
			this.work.runAlone("campaign-" + id, Duration.ZERO, () -> this.store.find(id).ifPresent(this::advance));
		}
	}

	private void advance(Campaign campaign) {
		int running = 0;
		boolean pending = false;
		Map<String, Integer> perNode = new HashMap<>();
		Map<String, Optional<String>> nodes = new HashMap<>();
		for (CampaignTarget target : this.store.targets(campaign.id())) {
			if (target.state() == CampaignTarget.State.RUNNING && refresh(campaign, target)) {
				running++;
				node(target, nodes).ifPresent((node) -> perNode.merge(node, 1, Integer::sum));
			}
		}
		for (CampaignTarget target : this.store.targets(campaign.id())) {
			if (target.state() != CampaignTarget.State.PENDING || campaign.cancelRequested()) {
				continue;
			}
			if (running >= campaign.concurrency()) {
				pending = true;
				break;
			}
			Optional<String> node = node(target, nodes);
			if (node.isPresent() && perNode.getOrDefault(node.get(), 0) >= this.perNode) {
				// its node runs as many of this campaign's jobs as a node may: a later
				// pass launches it
				pending = true;
				continue;
			}
			if (launch(campaign, target)) {
				running++;
				node.ifPresent((name) -> perNode.merge(name, 1, Integer::sum));
			}
		}
		if (running == 0 && !pending
				&& this.store.targets(campaign.id()).stream().allMatch((target) -> target.state().ended())) {
			// read again: a cancel that came during this pass cancelled the targets it
			// found pending, and its
			// mark (written before them) is newer than the campaign this pass began with
			boolean cancelled = this.store.find(campaign.id()).map(Campaign::cancelRequested).orElse(false);
			if (this.store.end(campaign.id(), cancelled ? Campaign.State.CANCELLED : Campaign.State.FINISHED)) {
				this.store.find(campaign.id()).ifPresent((ended) -> this.events.publishEvent(notification(ended)));
			}
		}
	}

	/**
	 * The webhooks' notification of a campaign's end: {@code campaign.stopped} if it was
	 * cancelled, {@code campaign.failed} if a repository failed, else
	 * {@code campaign.finished}.
	 */
	static Notification notification(Campaign ended) {
		String event = (ended.state() == Campaign.State.CANCELLED) ? "campaign.stopped"
				: (ended.counts().getOrDefault(CampaignTarget.State.FAILED, 0) > 0) ? "campaign.failed"
						: "campaign.finished";
		return Notification.of(event, null, "system", details(ended));
	}

	/** What the webhooks' payload says of a campaign. */
	static Map<String, Object> details(Campaign campaign) {
		Map<String, Object> counts = new LinkedHashMap<>();
		campaign.counts().forEach((state, n) -> counts.put(state.name().toLowerCase(Locale.ROOT), n));
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("id", campaign.id());
		details.put("jobType", campaign.jobType().jobName());
		details.put("target", campaign.target());
		details.put("state", campaign.state().name());
		details.put("repositories", counts);
		details.put("url", "/campaigns/" + campaign.id());
		return Map.of("campaign", details);
	}

	/**
	 * Brings a RUNNING target up to date with its execution; returns whether it still
	 * runs.
	 */
	private boolean refresh(Campaign campaign, CampaignTarget target) {
		if (target.executionId() == null) {
			return reattach(campaign, target);
		}
		Optional<JobSummary> found = this.jobs.find(target.executionId());
		if (found.isEmpty()) {
			this.store.move(target, CampaignTarget.State.RUNNING, CampaignTarget.State.FAILED, target.executionId(),
					"execution " + target.executionId() + " no longer exists");
			return false;
		}
		JobSummary job = found.get();
		if (job.running()) {
			return true;
		}
		if (job.status() == JobStatus.COMPLETED) {
			this.store.move(target, CampaignTarget.State.RUNNING, CampaignTarget.State.DONE, job.executionId(),
					message(job).isBlank() ? null : message(job));
			return false;
		}
		if (job.interrupted() && !campaign.cancelRequested()) {
			Optional<Long> newer = newerExecution(job);
			if (newer.isPresent()) {
				// restarted by its node on its return (or by an operator): followed
				this.store.restarted(target, newer.get());
				return true;
			}
			if (this.fleet.nodeDown(target.repository())) {
				// its node restarts it when it returns
				return true;
			}
			if (target.restarts() == 0) {
				return restart(campaign, target, job);
			}
		}
		this.store.move(target, CampaignTarget.State.RUNNING, CampaignTarget.State.FAILED, job.executionId(),
				"execution " + job.executionId() + " " + job.status() + ": " + message(job));
		return false;
	}

	private static String message(JobSummary job) {
		return (job.exitMessage() == null) ? "" : Redaction.message(job.exitMessage());
	}

	/** The execution that restarted {@code job}'s job instance since, if any. */
	private Optional<Long> newerExecution(JobSummary job) {
		List<Long> executions = this.jobs.executionIds(job.instanceId());
		long last = executions.get(executions.size() - 1);
		return (last > job.executionId()) ? Optional.of(last) : Optional.empty();
	}

	private boolean restart(Campaign campaign, CampaignTarget target, JobSummary job) {
		try {
			JobSummary restarted = this.fleet.restart(target.executionId(), target.repository(),
					Campaign.actor(campaign.id()));
			this.store.restarted(target, restarted.executionId());
			return true;
		}
		catch (RuntimeException ex) {
			Optional<Long> newer = newerExecution(job);
			if (newer.isPresent()) {
				// its node restarted it at the same moment
				this.store.restarted(target, newer.get());
				return true;
			}
			this.store.move(target, CampaignTarget.State.RUNNING, CampaignTarget.State.FAILED, target.executionId(),
					"execution " + target.executionId() + " was interrupted and could not be restarted: "
							+ ex.getMessage());
			return false;
		}
	}

	/**
	 * A target marked RUNNING whose launch was not recorded: finds the execution launched
	 * for it, if any.
	 */
	private boolean reattach(Campaign campaign, CampaignTarget target) {
		List<JobSummary> launched = this.jobs.list(new JobFilter(null, campaign.jobType(), target.repository(),
				Campaign.actor(campaign.id()), null, null, 0, 1));
		if (launched.isEmpty()) {
			this.store.move(target, CampaignTarget.State.RUNNING, CampaignTarget.State.PENDING, null, null);
			return false;
		}
		this.store.move(target, CampaignTarget.State.RUNNING, CampaignTarget.State.RUNNING,
				launched.get(0).executionId(), null);
		return true;
	}

	/**
	 * The node that runs a target's jobs, looked up once per pass; empty if the fleet
	 * cannot tell now (its node is down: the launch then fails the target, saying so).
	 */
	private Optional<String> node(CampaignTarget target, Map<String, Optional<String>> known) {
		return known.computeIfAbsent(target.repository(), (repository) -> {
			try {
				return Optional.of(this.fleet.nodeOf(repository));
			}
			catch (RuntimeException ex) {
				return Optional.empty();
			}
		});
	}

	/** Launches a PENDING target's job; returns whether it now runs. */
	private boolean launch(Campaign campaign, CampaignTarget target) {
		if (!this.store.move(target, CampaignTarget.State.PENDING, CampaignTarget.State.RUNNING, null, null)) {
			return false;
		}
		CampaignTarget claimed = this.store.targets(campaign.id()).get(target.position());
		Map<String, String> parameters = new LinkedHashMap<>(campaign.parameters());
		parameters.put(JobParameterNames.REPOSITORY, target.repository());
		try {
			// checked when the campaign was created too; a row written by other means
			// must not slip through
			ScheduleService.refuseProtectionOverride(parameters, "a campaign");
			JobSummary job = this.fleet.launch(campaign.jobType(), parameters, Campaign.actor(campaign.id()));
			this.store.move(claimed, CampaignTarget.State.RUNNING, CampaignTarget.State.RUNNING, job.executionId(),
					null);
			return true;
		}
		catch (JobConflictException ex) {
			this.store.move(claimed, CampaignTarget.State.RUNNING, CampaignTarget.State.SKIPPED_BUSY, null,
					ex.getMessage());
		}
		catch (RuntimeException ex) {
			this.store.move(claimed, CampaignTarget.State.RUNNING, CampaignTarget.State.FAILED, null, ex.getMessage());
		}
		return false;
	}

}
