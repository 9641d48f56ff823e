package io.refstore.web.campaigns;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.refstore.batch.api.RefJobType;
import io.refstore.web.audit.AuditEntry;
import io.refstore.web.audit.AuditLog;
import io.refstore.web.jobs.JobService;
import io.refstore.web.schedules.Schedule;
import io.refstore.web.schedules.ScheduleService;
import io.refstore.web.schedules.ScheduleTargets;
import io.refstore.web.schedules.StoredInputs;
import io.refstore.web.security.JobPolicy;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Notification;

/**
 * Creates, reads and cancels campaigns. A campaign's repositories are selected once, at
 * creation, by the schedules' selection ({@link ScheduleTargets}); the
 * {@link CampaignCoordinator} runs them. Every field is checked before anything is
 * stored, and a refusal is an {@link InvalidRequestException} naming the field. VIEWER
 * reads; OPERATOR creates and cancels; only campaigns whose launches the caller may make
 * ({@link JobPolicy}: ADMIN for migrations and other destructive jobs). Creations and
 * cancels are audited. Thread-safe.
 */
@Service
public class CampaignService {

	/** The most jobs one campaign may run at once. */
	public static final int MAX_CONCURRENCY = 64;

	private final CampaignStore store;

	private final ScheduleTargets targets;

	private final CampaignCoordinator coordinator;

	private final AuditLog audit;

	private final JobPolicy policy;

	private final StoredInputs inputs;

	private final ApplicationEventPublisher events;

	CampaignService(CampaignStore store, ScheduleTargets targets, CampaignCoordinator coordinator, AuditLog audit,
			JobPolicy policy, StoredInputs inputs, ApplicationEventPublisher events) {
		this.inputs = inputs;
		this.events = events;
		this.store = store;
		this.targets = targets;
		this.coordinator = coordinator;
		this.audit = audit;
		this.policy = policy;
	}

	/** The newest campaigns first, at most {@code limit}. */
	@PreAuthorize("hasRole('VIEWER')")
	public List<Campaign> list(int limit) {
		return this.store.all(limit);
	}

	/** The campaign, or empty. */
	@PreAuthorize("hasRole('VIEWER')")
	public Optional<Campaign> find(long id) {
		return this.store.find(id);
	}

	/**
	 * Its repositories and their results, in order.
	 * @throws CampaignNotFoundException if there is no such campaign
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public List<CampaignTarget> targets(long id) {
		existing(id);
		return this.store.targets(id);
	}

	/**
	 * Creates a campaign over the repositories its target selects now; the coordinator
	 * starts it at once.
	 * @throws InvalidRequestException naming the refused field
	 */
	@PreAuthorize("hasRole('OPERATOR')")
	@Transactional
	public Campaign create(CampaignRequest request, Authentication actor) {
		RefJobType type = JobService.jobType("jobType", request.jobType());
		authorize(type, request.parameters(), actor);
		Schedule.TargetKind kind = targetKind(request.targetKind());
		String target = this.targets.check(kind, request.target());
		int concurrency = (request.concurrency() == null) ? 1 : request.concurrency();
		if (concurrency < 1 || concurrency > MAX_CONCURRENCY) {
			throw new InvalidRequestException("concurrency", Integer.toString(concurrency),
					"must be 1 to " + MAX_CONCURRENCY);
		}
		Map<String, String> parameters = new LinkedHashMap<>(
				(request.parameters() == null) ? Map.of() : request.parameters());
		ScheduleService.checkStored(type, parameters, "a campaign");
		List<String> repositories = this.targets.select(kind, target);
		if (repositories.isEmpty()) {
			throw new InvalidRequestException("target", target, "selects no repository");
		}
		this.inputs.check(type, parameters, repositories);
		long id = this.store.insert(type, kind, target, parameters, concurrency, actor.getName(), repositories);
		this.audit.record(AuditEntry.of(actor.getName(), "campaign.create", null, Long.toString(id), parameters,
				AuditEntry.Outcome.SUCCESS, type.name() + " over " + repositories.size() + " repositories (" + kind
						+ " " + target + "), " + concurrency + " at once"));
		this.coordinator.nudge();
		Campaign created = this.store.find(id).orElseThrow();
		this.events.publishEvent(
				Notification.of("campaign.started", null, actor.getName(), CampaignCoordinator.details(created)));
		return created;
	}

	/**
	 * Creates a campaign over {@code repositories} as listed (the dashboard's "Maintain
	 * all due"), {@code description} saying how they were chosen; the coordinator starts
	 * it at once. Audited and announced as {@link #create} is.
	 * @throws InvalidRequestException naming the field if the list is empty or the
	 * concurrency is out of bounds
	 */
	@PreAuthorize("hasRole('OPERATOR')")
	@Transactional
	public Campaign createListed(RefJobType type, String description, List<String> repositories, int concurrency,
			Authentication actor) {
		authorize(type, Map.of(), actor);
		if (concurrency < 1 || concurrency > MAX_CONCURRENCY) {
			throw new InvalidRequestException("concurrency", Integer.toString(concurrency),
					"must be 1 to " + MAX_CONCURRENCY);
		}
		if (repositories.isEmpty()) {
			throw new InvalidRequestException("target", description, "selects no repository");
		}
		Map<String, String> parameters = Map.of();
		this.inputs.check(type, parameters, repositories);
		long id = this.store.insert(type, Schedule.TargetKind.LISTED, description, parameters, concurrency,
				actor.getName(), repositories);
		this.audit.record(AuditEntry.of(actor.getName(), "campaign.create", null, Long.toString(id), parameters,
				AuditEntry.Outcome.SUCCESS, type.name() + " over " + repositories.size() + " repositories ("
						+ description + "), " + concurrency + " at once"));
		this.coordinator.nudge();
		Campaign created = this.store.find(id).orElseThrow();
		this.events.publishEvent(
				Notification.of("campaign.started", null, actor.getName(), CampaignCoordinator.details(created)));
		return created;
	}

	/**
	 * Cancels the repositories still pending; running jobs finish. Cancelling an ended
	 * campaign changes nothing.
	 * @throws CampaignNotFoundException if there is no such campaign
	 */
	@PreAuthorize("hasRole('OPERATOR')")
	@Transactional
	public Campaign cancel(long id, Authentication actor) {
		Campaign campaign = existing(id);
		authorize(campaign.jobType(), campaign.parameters(), actor);
		int cancelled = (campaign.state() == Campaign.State.RUNNING)
				? this.store.cancel(id, "cancelled by " + actor.getName()) : 0;
		this.audit.record(AuditEntry.of(actor.getName(), "campaign.cancel", null, Long.toString(id), Map.of(),
				AuditEntry.Outcome.SUCCESS, cancelled + " pending repositories cancelled"));
		this.coordinator.nudge();
		return this.store.find(id).orElseThrow();
	}

	private Campaign existing(long id) {
		return this.store.find(id).orElseThrow(() -> new CampaignNotFoundException(id));
	}

	/** A campaign needs the role its launches need ({@link JobPolicy}). */
	private void authorize(RefJobType type, Map<String, String> parameters, Authentication actor) {
		this.policy.check(actor, type, (parameters == null) ? Map.of() : parameters, "campaigns");
	}

	private static Schedule.TargetKind targetKind(String text) {
		String given = (text == null || text.isBlank()) ? "GLOB" : text.trim();
		for (Schedule.TargetKind kind : Schedule.TargetKind.values()) {
			if (kind.name().equalsIgnoreCase(given.replace('-', '_'))) {
				return kind;
			}
		}
		throw new InvalidRequestException("targetKind", given, "not one of " + List.of(Schedule.TargetKind.values()));
	}

}
