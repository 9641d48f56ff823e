package io.refstore.web.schedules;

import java.text.ParseException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TimeZone;
import java.util.regex.Pattern;

import org.quartz.CronExpression;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.audit.AuditEntry;
import io.refstore.web.audit.AuditLog;
import io.refstore.web.jobs.JobService;
import io.refstore.web.security.JobPolicy;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Notification;

/**
 * Creates, changes, pauses, runs now and deletes schedules: the definition goes to
 * {@code refstore_schedule} and its trigger to Quartz's JDBC store in the same
 * transaction, so every instance sharing the database sees both or neither. Every field
 * is checked before anything is stored; a refusal is an {@link InvalidRequestException}
 * naming the field. OPERATOR manages schedules; only those whose launches the caller may
 * make ({@link JobPolicy}: ADMIN for migrations and other destructive jobs). Thread-safe.
 */
@Service
public class ScheduleService {

	/** The Quartz group of every schedule's job and trigger. */
	static final String GROUP = "refstore-schedules";

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");

	/** How many fires of a cron {@link #refuseShortIntervals} looks at. */
	private static final int FIRES_CHECKED = 500;

	private final ScheduleStore store;

	private final ScheduleTargets targets;

	private final Scheduler scheduler;

	private final JobPolicy policy;

	private final Duration minInterval;

	private final AuditLog audit;

	private final StoredInputs inputs;

	private final ApplicationEventPublisher events;

	private final ScheduleRunner runner;

	ScheduleService(ScheduleStore store, ScheduleTargets targets, Scheduler scheduler, JobPolicy policy,
			ScheduleProperties properties, AuditLog audit, StoredInputs inputs, ApplicationEventPublisher events,
			ScheduleRunner runner) {
		this.runner = runner;
		this.events = events;
		this.audit = audit;
		this.inputs = inputs;
		this.store = store;
		this.targets = targets;
		this.scheduler = scheduler;
		this.policy = policy;
		this.minInterval = properties.minInterval();
	}

	/** Every schedule by name, with its next fire times. */
	@PreAuthorize("hasRole('VIEWER')")
	public List<Schedule> list() {
		return this.store.all().stream().map(ScheduleService::withNextFireTimes).toList();
	}

	/**
	 * At most {@code limit} schedules named after {@code after} ({@code null}: from the
	 * first), by name, with their next fire times.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public List<Schedule> page(String after, int limit) {
		return this.store.page(after, limit).stream().map(ScheduleService::withNextFireTimes).toList();
	}

	/** The schedule, or empty. */
	@PreAuthorize("hasRole('VIEWER')")
	public Optional<Schedule> find(String name) {
		return this.store.find(name).map(ScheduleService::withNextFireTimes);
	}

	/** Its newest runs, newest first. */
	@PreAuthorize("hasRole('VIEWER')")
	public List<ScheduleRun> runs(String name, int limit) {
		return this.store.runs(name, limit);
	}

	/**
	 * The newest run of each schedule that has one, by schedule name, with its job's
	 * status and times.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public Map<String, ScheduleLastRun> lastRuns() {
		return this.store.lastRuns();
	}

	/**
	 * When a schedule with this cron expression (or one-off time) would fire next: at
	 * most {@code count} times, checked as saving the schedule checks them.
	 * @param cron a Quartz cron expression, or {@code null} or blank for a one-off
	 * @param timeZone the zone the cron expression is read in ({@code null} or blank:
	 * UTC)
	 * @param onceAt the one-off's time, or {@code null}
	 * @throws InvalidRequestException naming {@code cron}, {@code onceAt} or
	 * {@code timeZone}
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public List<Instant> nextFires(String cron, String timeZone, Instant onceAt, int count) {
		String zone = checkWhen(cron, timeZone, onceAt);
		boolean hasCron = cron != null && !cron.isBlank();
		return fireTimes(hasCron ? cron.strip() : null, zone, onceAt, count);
	}

	/**
	 * Fires the schedule once, now, as Quartz fires it ({@link ScheduleRunner#fire}): its
	 * repositories are selected and its job queued on each, the runs recorded and the
	 * webhooks told as for any fire; a paused schedule too, since a person asked. The
	 * roles that may are those that may change the schedule ({@link JobPolicy}). The fire
	 * is named by the time it was asked for, which is never a whole second (Quartz's fire
	 * times are), so it never shares its runs with a fire of the cron.
	 * @return the fire's runs as they stand once the queue had its first look: launched,
	 * or still queued for their turn, or why not
	 * @throws ScheduleNotFoundException if there is none
	 */
	@PreAuthorize("hasRole('OPERATOR')")
	public ScheduleFire runNow(String name, Authentication actor) {
		Schedule schedule = existing(name);
		authorize(schedule.jobType(), schedule.parameters(), actor);
		Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
		if (at.getNano() == 0) {
			at = at.plusMillis(1);
		}
		this.runner.fire(name, at);
		ScheduleFire fire = new ScheduleFire(name, at, this.store.runsOf(name, at));
		String target = (schedule.targetKind() == Schedule.TargetKind.REPOSITORY) ? schedule.target() : null;
		this.audit.record(AuditEntry.of(actor.getName(), "schedule.run", target, schedule.name(), schedule.parameters(),
				AuditEntry.Outcome.SUCCESS, "run now: " + schedule.jobType() + " of " + schedule.targetKind() + " "
						+ schedule.target() + ", " + fire.summary()));
		return fire;
	}

	/**
	 * Creates a schedule.
	 * @throws InvalidRequestException naming the refused field
	 * @throws ScheduleConflictException if the name is taken
	 */
	@PreAuthorize("hasRole('OPERATOR')")
	@Transactional
	public Schedule create(ScheduleRequest request, Authentication actor) {
		Schedule schedule = check(request, request.name(), actor);
		if (this.store.find(schedule.name()).isPresent()) {
			throw new ScheduleConflictException("a schedule named '" + schedule.name() + "' exists");
		}
		this.store.insert(schedule, Instant.now());
		register(schedule);
		record(actor, "schedule.create", schedule);
		return find(schedule.name()).orElseThrow();
	}

	/**
	 * Replaces the schedule {@code name}; its overrun record and runs stay.
	 * @throws ScheduleNotFoundException if there is none
	 */
	@PreAuthorize("hasRole('OPERATOR')")
	@Transactional
	public Schedule replace(String name, ScheduleRequest request, Authentication actor) {
		Schedule old = existing(name);
		authorize(old.jobType(), old.parameters(), actor);
		Schedule schedule = check(request, name, actor);
		this.store.update(schedule, Instant.now());
		register(schedule);
		record(actor, "schedule.update", schedule);
		return find(name).orElseThrow();
	}

	/** Pauses or resumes; a resumed schedule's missed fires follow its misfire policy. */
	@PreAuthorize("hasRole('OPERATOR')")
	@Transactional
	public Schedule setPaused(String name, boolean paused, Authentication actor) {
		Schedule schedule = existing(name);
		authorize(schedule.jobType(), schedule.parameters(), actor);
		this.store.setPaused(name, paused, Instant.now());
		try {
			if (paused) {
				this.scheduler.pauseJob(new JobKey(name, GROUP));
			}
			else {
				this.scheduler.resumeJob(new JobKey(name, GROUP));
			}
		}
		catch (SchedulerException ex) {
			throw new IllegalStateException("Quartz refused to " + (paused ? "pause" : "resume") + " " + name, ex);
		}
		Schedule changed = find(name).orElseThrow();
		record(actor, paused ? "schedule.pause" : "schedule.resume", changed);
		notify(paused ? "schedule.paused" : "schedule.resumed", changed, actor);
		return changed;
	}

	/** Deletes the schedule, its trigger and its run history; running jobs go on. */
	@PreAuthorize("hasRole('OPERATOR')")
	@Transactional
	public void delete(String name, Authentication actor) {
		Schedule schedule = existing(name);
		authorize(schedule.jobType(), schedule.parameters(), actor);
		this.store.delete(name);
		try {
			this.scheduler.deleteJob(new JobKey(name, GROUP));
		}
		catch (SchedulerException ex) {
			throw new IllegalStateException("Quartz refused to delete " + name, ex);
		}
		record(actor, "schedule.delete", schedule);
		notify("schedule.deleted", schedule, actor);
	}

	/** Tells the webhooks that {@code schedule} stopped or started firing. */
	private void notify(String event, Schedule schedule, Authentication actor) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("name", schedule.name());
		details.put("jobType", schedule.jobType().jobName());
		details.put("target", schedule.target());
		this.events.publishEvent(Notification.of(event, null, actor.getName(), Map.of("schedule", details)));
	}

	/** An audit entry for a change of {@code schedule} by {@code actor}. */
	private void record(Authentication actor, String action, Schedule schedule) {
		String target = (schedule.targetKind() == Schedule.TargetKind.REPOSITORY) ? schedule.target() : null;
		String when = (schedule.cron() != null) ? schedule.cron() + " (" + schedule.timeZone() + ")"
				: "once at " + schedule.onceAt();
		this.audit.record(AuditEntry.of(actor.getName(), action, target, schedule.name(), schedule.parameters(),
				AuditEntry.Outcome.SUCCESS, schedule.jobType() + " of " + schedule.targetKind() + " "
						+ schedule.target() + ", " + when + (schedule.paused() ? ", paused" : "")));
	}

	private Schedule existing(String name) {
		return this.store.find(name).orElseThrow(() -> new ScheduleNotFoundException(name));
	}

	/**
	 * Refuses parameters that would override the protected refs of a deletion: an
	 * override needs a person who gives a reason at the moment of the launch, and a
	 * schedule or campaign launches later, unattended, on repositories nobody has looked
	 * at.
	 * @throws InvalidRequestException naming {@code parameters.overrideProtection} or
	 * {@code parameters.overrideReason}
	 */
	public static void refuseProtectionOverride(Map<String, String> parameters, String launcher) {
		for (String key : List.of(JobParameterNames.OVERRIDE_PROTECTION, JobParameterNames.OVERRIDE_REASON)) {
			if (parameters.containsKey(key)) {
				throw new InvalidRequestException("parameters." + key, parameters.get(key), launcher
						+ " cannot override the protected refs: plan such a deletion yourself (ADMIN, with a reason)");
			}
		}
	}

	/**
	 * Checks the job parameters a schedule or campaign keeps for its launches as a launch
	 * checks them, all but what only the repository decides: the target selects the
	 * repositories, and the protected refs stay. A refused parameter is named with the
	 * words the console's form shows beside its field ({@link ScheduleParameters}).
	 * @param launcher {@code a schedule} or {@code a campaign}
	 * @throws InvalidRequestException naming {@code parameters.<key>}
	 */
	public static void checkStored(RefJobType type, Map<String, String> parameters, String launcher) {
		if (parameters.containsKey(JobParameterNames.REPOSITORY)) {
			throw new InvalidRequestException("parameters." + JobParameterNames.REPOSITORY,
					parameters.get(JobParameterNames.REPOSITORY), "the target selects the repositories");
		}
		refuseProtectionOverride(parameters, launcher);
		if (!type.schedulable()) {
			throw new InvalidRequestException("jobType", type.jobName(),
					launcher + " cannot run a point-in-time restore: a person previews it and confirms it (ADMIN)");
		}
		// the console's form judges the same fields alike, and shows every refusal
		List<ScheduleParameters.Problem> problems = ScheduleParameters.check(type, parameters);
		if (!problems.isEmpty()) {
			ScheduleParameters.Problem first = problems.get(0);
			throw new InvalidRequestException("parameters." + first.key(), first.value(), first.message());
		}
	}

	/** A schedule needs the role its launches need ({@link JobPolicy}). */
	private void authorize(RefJobType type, Map<String, String> parameters, Authentication actor) {
		this.policy.check(actor, type, (parameters == null) ? Map.of() : parameters, "schedules");
	}

	/**
	 * Checks a schedule's name: 1 to 100 letters, digits, '.', '_' and '-'.
	 * @throws InvalidRequestException naming {@code name}
	 */
	static void checkName(String name) {
		if (name == null || !NAME.matcher(name).matches()) {
			throw new InvalidRequestException("name", name, "1 to 100 of A-Z a-z 0-9 . _ -");
		}
	}

	private Schedule check(ScheduleRequest request, String name, Authentication actor) {
		checkName(name);
		RefJobType type = JobService.jobType("jobType", request.jobType());
		authorize(type, request.parameters(), actor);
		Schedule.TargetKind kind = parseEnum(Schedule.TargetKind.class, "targetKind",
				(request.targetKind() == null) ? "REPOSITORY" : request.targetKind());
		String target = this.targets.check(kind, request.target());
		String zone = checkWhen(request.cron(), request.timeZone(), request.onceAt());
		boolean hasCron = request.cron() != null && !request.cron().isBlank();
		Schedule.Misfire misfire = parseEnum(Schedule.Misfire.class, "misfire",
				(request.misfire() == null) ? "SKIP" : request.misfire());
		Map<String, String> parameters = new LinkedHashMap<>(
				(request.parameters() == null) ? Map.of() : request.parameters());
		checkStored(type, parameters, "a schedule");
		this.inputs.check(type, parameters, this.targets.select(kind, target));
		return new Schedule(name, type, kind, target, parameters, hasCron ? request.cron().trim() : null, zone,
				request.onceAt(), misfire, Boolean.TRUE.equals(request.paused()), actor.getName(), null, 0, null,
				List.of());
	}

	/**
	 * Checks when a schedule fires: a time zone, and either a cron expression that fires
	 * no more often than the minimum interval or a one-off time.
	 * @return the zone ({@code UTC} when none is given)
	 * @throws InvalidRequestException naming {@code timeZone} or {@code cron}
	 */
	private String checkWhen(String cron, String timeZone, Instant onceAt) {
		String zone = (timeZone == null || timeZone.isBlank()) ? "UTC" : timeZone;
		try {
			ZoneId.of(zone);
		}
		catch (DateTimeException ex) {
			throw new InvalidRequestException("timeZone", zone, "not a time zone id (such as Europe/Paris)");
		}
		boolean hasCron = cron != null && !cron.isBlank();
		if (hasCron == (onceAt != null)) {
			throw new InvalidRequestException("cron", cron, "give either cron or onceAt");
		}
		if (hasCron) {
			try {
				CronExpression.validateExpression(cron);
			}
			catch (ParseException ex) {
				throw new InvalidRequestException("cron", cron, "not a Quartz cron expression (" + reason(ex)
						+ "); seconds come first: '0 0 2 * * ?' is 02:00 daily");
			}
			refuseShortIntervals(cron, zone);
		}
		return zone;
	}

	/**
	 * Why Quartz refused a cron expression, in its words; where its words are an
	 * exception of its own parser ({@code Illegal cron expression format
	 * (java.lang.NumberFormatException: ...)}), which names a class, in ours.
	 */
	private static String reason(ParseException ex) {
		String why = ex.getMessage();
		if (why == null || why.startsWith("Illegal cron expression format") || why.contains("Exception")) {
			return "a field is not a number, name, range, list or step that Quartz reads";
		}
		return why;
	}

	/**
	 * Refuses a cron whose fires come closer than the minimum interval. Fires come in
	 * bursts (every second of one hour, two fires a minute apart each night), so the
	 * first {@value #FIRES_CHECKED} fires from now show the shortest gap of any burst
	 * they reach, the first one included.
	 * @throws InvalidRequestException naming {@code cron}
	 */
	private void refuseShortIntervals(String text, String zone) {
		CronExpression cron;
		try {
			cron = new CronExpression(text);
		}
		catch (ParseException ex) {
			throw new IllegalStateException("validated above", ex);
		}
		cron.setTimeZone(TimeZone.getTimeZone(ZoneId.of(zone)));
		Date previous = cron.getNextValidTimeAfter(new Date());
		for (int i = 0; previous != null && i < FIRES_CHECKED; i++) {
			Date next = cron.getNextValidTimeAfter(previous);
			if (next != null && next.getTime() - previous.getTime() < this.minInterval.toMillis()) {
				throw new InvalidRequestException("cron", text,
						"it fires " + Duration.ofMillis(next.getTime() - previous.getTime()).toSeconds()
								+ "s apart at times; schedules fire at most once every " + this.minInterval.toSeconds()
								+ "s (refstore.schedules.min-interval)");
			}
			previous = next;
		}
	}

	private static <E extends Enum<E>> E parseEnum(Class<E> type, String field, String text) {
		for (E constant : type.getEnumConstants()) {
			if (constant.name().equalsIgnoreCase(text.replace('-', '_'))) {
				return constant;
			}
		}
		throw new InvalidRequestException(field, text, "not one of " + List.of(type.getEnumConstants()));
	}

	/** Writes the schedule's Quartz job and trigger, replacing the old ones. */
	private void register(Schedule schedule) {
		JobDetail job = JobBuilder.newJob(ScheduleFireJob.class)
			.withIdentity(schedule.name(), GROUP)
			.usingJobData(ScheduleFireJob.SCHEDULE, schedule.name())
			.storeDurably()
			.build();
		TriggerBuilder<Trigger> builder = TriggerBuilder.newTrigger().withIdentity(schedule.name(), GROUP).forJob(job);
		Trigger trigger;
		if (schedule.cron() != null) {
			CronScheduleBuilder cron = CronScheduleBuilder.cronSchedule(schedule.cron())
				.inTimeZone(TimeZone.getTimeZone(ZoneId.of(schedule.timeZone())));
			cron = (schedule.misfire() == Schedule.Misfire.SKIP) ? cron.withMisfireHandlingInstructionDoNothing()
					: cron.withMisfireHandlingInstructionFireAndProceed();
			trigger = builder.withSchedule(cron).build();
		}
		else {
			SimpleScheduleBuilder once = SimpleScheduleBuilder.simpleSchedule();
			once = (schedule.misfire() == Schedule.Misfire.SKIP)
					? once.withMisfireHandlingInstructionNextWithRemainingCount()
					: once.withMisfireHandlingInstructionFireNow();
			trigger = builder.startAt(Date.from(schedule.onceAt())).withSchedule(once).build();
		}
		try {
			this.scheduler.scheduleJob(job, java.util.Set.of(trigger), true);
			if (schedule.paused()) {
				this.scheduler.pauseJob(job.getKey());
			}
		}
		catch (SchedulerException ex) {
			throw new IllegalStateException("Quartz refused schedule " + schedule.name() + ": " + ex.getMessage(), ex);
		}
	}

	/** The schedule with its next five fire times after now (none while paused). */
	static Schedule withNextFireTimes(Schedule s) {
		List<Instant> next = s.paused() ? List.of() : fireTimes(s.cron(), s.timeZone(), s.onceAt(), 5);
		return new Schedule(s.name(), s.jobType(), s.targetKind(), s.target(), s.parameters(), s.cron(), s.timeZone(),
				s.onceAt(), s.misfire(), s.paused(), s.createdBy(), s.lastFireAt(), s.overruns(), s.lastOverrunAt(),
				List.copyOf(next));
	}

	/**
	 * The next {@code count} fire times after now of a valid cron expression read in
	 * {@code zone}, or the one-off time {@code onceAt} while it is ahead.
	 */
	private static List<Instant> fireTimes(String text, String zone, Instant onceAt, int count) {
		List<Instant> next = new ArrayList<>();
		if (text != null) {
			try {
				CronExpression cron = new CronExpression(text);
				cron.setTimeZone(TimeZone.getTimeZone(ZoneId.of(zone)));
				Date at = new Date();
				for (int i = 0; i < count && (at = cron.getNextValidTimeAfter(at)) != null; i++) {
					next.add(at.toInstant());
				}
			}
			catch (ParseException ex) {
				throw new IllegalStateException("a stored or checked cron is invalid: " + text, ex);
			}
		}
		else if (onceAt != null && onceAt.isAfter(Instant.now())) {
			next.add(onceAt);
		}
		return next;
	}

}
