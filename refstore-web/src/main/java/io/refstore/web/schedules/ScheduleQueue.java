package io.refstore.web.schedules;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;

import io.refstore.batch.api.ExclusiveWork;
import io.refstore.batch.api.JobConflictException;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobEvent;
import io.refstore.web.fleet.FleetJobs;
import io.refstore.web.fleet.FleetProperties;
import io.refstore.web.system.Passes;

/**
 * Launches the runs a fire queued ({@link ScheduleRun.Outcome#QUEUED}), each on the node
 * holding its repository ({@link FleetJobs}), while that node runs fewer than
 * {@code refstore.fleet.jobs-per-node} of the same fire's jobs: a fire over many
 * repositories of one node runs them a few at a time, as a campaign does, and the other
 * nodes' at the same time. The queue is rows of {@code refstore_schedule_run}, each with
 * the node its repository was on when it fired, so a node that dies leaves it to the
 * others; one node at a time works it (a lock of the fleet), right after each fire, every
 * second and at each job's end, reading only the runs it launches and one count per fire
 * and node. Each run's row ends as the launch did: LAUNCHED with its execution, BUSY or
 * FAILED with why. Thread-safe.
 */
@Component
class ScheduleQueue implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(ScheduleQueue.class);

	/** How long a fire waits for a pass under way before leaving its runs to the next. */
	private static final long FIRE_WAIT_MILLIS = 5000;

	/** The most fires and nodes, and runs of one, one pass looks at. */
	private static final int PAGE = 1000;

	private final ScheduleStore store;

	private final FleetJobs fleet;

	private final ExclusiveWork work;

	private final int perNode;

	private final Passes passes;

	ScheduleQueue(ScheduleStore store, FleetJobs fleet, ExclusiveWork work, FleetProperties fleetSettings,
			TaskScheduler scheduler) {
		this.passes = new Passes("schedule-queue", Duration.ofSeconds(1), () -> dispatch(0), scheduler);
		this.store = store;
		this.fleet = fleet;
		this.work = work;
		this.perNode = fleetSettings.jobsPerNode();
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

	@EventListener
	void onJobEvent(RefJobEvent event) {
		if (event.action() == RefJobEvent.Action.FINISH) {
			this.passes.nudge();
		}
	}

	/**
	 * Launches what the queue may launch now, as a fire does right after queuing its
	 * runs: waits a moment for another pass (of this node or another) to end.
	 */
	void dispatchNow() {
		dispatch(FIRE_WAIT_MILLIS);
	}

	/**
	 * Launches what the queue may launch now; nothing if a pass (of this node or another)
	 * does not end within {@code waitMillis}: the next look does it.
	 */
	private void dispatch(long waitMillis) {
		try {
			this.work.runAlone("schedule-queue", Duration.ofMillis(waitMillis), this::pass);
		}
		catch (RuntimeException ex) {
			log.warn("a pass over the schedule queue failed; the next one retries: {}", ex.getMessage(), ex);
		}
	}

	private void pass() {
		Map<String, Optional<Schedule>> schedules = new HashMap<>();
		for (ScheduleStore.QueuedGroup group : this.store.queuedGroups(PAGE)) {
			// runs whose node was not known when they fired launch at once: the launch
			// says why it cannot run
			int room = (group.node() == null) ? PAGE : this.perNode - this.store.running(group);
			if (room <= 0) {
				continue;
			}
			Optional<Schedule> schedule = schedules.computeIfAbsent(group.schedule(), this.store::find);
			for (ScheduleStore.QueuedRun run : this.store.queued(group, room)) {
				if (!this.store.take(run.id())) {
					continue;
				}
				if (schedule.isEmpty()) {
					this.store.settle(run.id(), null, ScheduleRun.Outcome.FAILED, "the schedule was deleted");
				}
				else {
					launch(schedule.get(), run);
				}
			}
		}
	}

	/**
	 * The node that runs {@code repository}'s jobs, for a run queued now; {@code null} if
	 * that cannot be told (its node is down, or no node holds it).
	 */
	String nodeOf(String repository) {
		try {
			return this.fleet.nodeOf(repository);
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/** Launches a run taken from the queue. */
	private void launch(Schedule schedule, ScheduleStore.QueuedRun run) {
		Map<String, String> parameters = new LinkedHashMap<>(schedule.parameters());
		parameters.put(JobParameterNames.REPOSITORY, run.repository());
		try {
			// checked when the schedule was saved too; a row written by other means must
			// not slip through
			ScheduleService.refuseProtectionOverride(parameters, "a schedule");
			JobSummary launched = this.fleet.launch(schedule.jobType(), parameters, "schedule:" + schedule.name());
			this.store.settle(run.id(), launched.executionId(), ScheduleRun.Outcome.LAUNCHED, null);
		}
		catch (JobConflictException ex) {
			this.store.settle(run.id(), null, ScheduleRun.Outcome.BUSY, ex.getMessage());
		}
		catch (RuntimeException ex) {
			log.warn("schedule {} could not launch on {}: {}", schedule.name(), run.repository(), ex.getMessage());
			this.store.settle(run.id(), null, ScheduleRun.Outcome.FAILED, ex.getMessage());
		}
	}

}
