package io.refstore.web.schedules;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.schedules.ScheduleParameters.Field;
import io.refstore.web.system.InvalidRequestException;

/**
 * The console's create/edit form of a schedule. The job's parameters are typed fields
 * ({@link ScheduleParameters}), bound as {@code values[key]}; a schedule stored with
 * parameters (by the API, or by the former {@code key=value} form) comes into them as
 * stored, and its parameters' text rides along in a hidden field ({@code parameters},
 * with the job type they were stored for), so that saving writes back unchanged what the
 * fields did not change the meaning of ({@code chunkSize=0500} stays so, an absent
 * {@code reflogs} stays absent while its box shows the default) and keeps stored
 * parameters no field shows, for the service to judge.
 */
public class ScheduleForm extends JobTargetForm {

	/** The typed fields' values as text, by parameter key. */
	private Map<String, String> values = new LinkedHashMap<>();

	/** The job type the typed fields were shown for ({@code null}: not shown yet). */
	private String parametersFor;

	/** The job type the hidden stored parameters are for ({@code null}: a new form). */
	private String storedType;

	private String name;

	private String cron = "0 0 2 * * ?";

	private String onceAt = "";

	private String timeZone = "UTC";

	private String misfire = "SKIP";

	private boolean paused;

	public ScheduleForm() {
		super("MAINTAIN", "REPOSITORY", null);
	}

	static ScheduleForm of(Schedule schedule) {
		ScheduleForm form = new ScheduleForm();
		form.name = schedule.name();
		form.setJobType(schedule.jobType().name());
		form.setTargetKind(schedule.targetKind().name());
		form.setTarget(schedule.target());
		form.setParameters(ParameterLines.format(schedule.parameters()));
		form.storedType = schedule.jobType().name();
		form.parametersFor = schedule.jobType().name();
		for (Field field : ScheduleParameters.fields(schedule.jobType())) {
			String stored = schedule.parameters().get(field.key());
			form.values.put(field.key(), (stored != null) ? stored : (field.kind() == ScheduleParameters.Kind.FLAG)
					? field.fallback() : (field.kind() == ScheduleParameters.Kind.CHOICE) ? field.fallback() : "");
		}
		form.cron = (schedule.cron() != null) ? schedule.cron() : "";
		form.onceAt = (schedule.onceAt() != null) ? schedule.onceAt().toString() : "";
		form.timeZone = schedule.timeZone();
		form.misfire = schedule.misfire().name();
		form.paused = schedule.paused();
		return form;
	}

	/**
	 * The request the form makes: a cron expression, or a one-off time (ISO-8601, such as
	 * {@code 2026-12-24T06:00:00Z}); the service refuses neither or both.
	 * @throws InvalidRequestException naming {@code onceAt} if it is no such time
	 */
	ScheduleRequest toRequest() {
		Instant once = null;
		if (this.onceAt != null && !this.onceAt.isBlank()) {
			try {
				once = Instant.parse(this.onceAt.strip());
			}
			catch (DateTimeParseException ex) {
				throw new InvalidRequestException("onceAt", this.onceAt,
						"not an ISO time in UTC such as 2026-12-24T06:00:00Z");
			}
		}
		String cronExpression = (this.cron == null || this.cron.isBlank()) ? null : this.cron;
		return new ScheduleRequest(this.name, getJobType(), getTargetKind(), getTarget(), parameterMap(),
				cronExpression, this.timeZone, once, this.misfire, this.paused);
	}

	/** The job type the form names, or {@code null} for none it knows. */
	public RefJobType type() {
		return RefJobType.find(getJobType()).orElse(null);
	}

	/**
	 * Fills the typed fields of the form's job type that have no value with a new
	 * schedule's: a flag's default (a deletion plans only, the safe choice), a migration
	 * to reftable, numbers blank for the job's default.
	 */
	void fillDefaults() {
		for (Field field : ScheduleParameters.fields(type())) {
			if (this.values.get(field.key()) == null) {
				String value = switch (field.kind()) {
					case FLAG -> field.key().equals(JobParameterNames.PLAN_ONLY) ? "true" : field.fallback();
					case CHOICE -> field.fallback();
					case NUMBER, TEXT -> "";
				};
				this.values.put(field.key(), value);
			}
		}
	}

	/**
	 * The job parameters the typed fields make, with the stored parameters' text kept
	 * where the field kept its meaning, and stored parameters no field shows kept as they
	 * are, in the stored order. Stored parameters count only for the job type they were
	 * stored for.
	 */
	@Override
	protected Map<String, String> parameterMap() {
		RefJobType type = type();
		Map<String, String> stored = (type != null && type.name().equals(this.storedType)) ? super.parameterMap()
				: Map.of();
		Map<String, String> typed = new LinkedHashMap<>();
		for (Field field : ScheduleParameters.fields(type)) {
			String value = typed(field, stored.get(field.key()));
			if (value != null) {
				typed.put(field.key(), value);
			}
		}
		Map<String, String> parameters = new LinkedHashMap<>();
		Set<String> keys = ScheduleParameters.keys(type);
		stored.forEach((key, value) -> {
			if (!keys.contains(key)) {
				parameters.put(key, value);
			}
			else if (typed.containsKey(key)) {
				parameters.put(key, typed.get(key));
			}
		});
		typed.forEach(parameters::putIfAbsent);
		return parameters;
	}

	/**
	 * The parameter one field makes: {@code stored} if the field kept its meaning;
	 * {@code null} to leave it out (blank, or a flag at the job's default that was not
	 * stored).
	 */
	private String typed(Field field, String stored) {
		String given = this.values.get(field.key());
		if (field.kind() == ScheduleParameters.Kind.FLAG) {
			String on = Boolean.toString("true".equals(given) || "on".equals(given));
			if (stored != null) {
				return stored.equals(on) ? stored : on;
			}
			return on.equals(field.fallback()) ? null : on;
		}
		String text = (given == null) ? "" : given.strip();
		if (text.isEmpty()) {
			return (stored != null && stored.isBlank()) ? stored : null;
		}
		return (stored != null && stored.strip().equals(text)) ? stored : text;
	}

	/**
	 * The stored parameters the typed fields of the form's job type do not show, kept as
	 * they are (the form lists them).
	 */
	public Map<String, String> getOtherParameters() {
		RefJobType type = type();
		if (type == null || !type.name().equals(this.storedType)) {
			return Map.of();
		}
		Map<String, String> others = new LinkedHashMap<>(super.parameterMap());
		others.keySet().removeAll(ScheduleParameters.keys(type));
		return others;
	}

	public Map<String, String> getValues() {
		return this.values;
	}

	public void setValues(Map<String, String> values) {
		this.values = values;
	}

	public String getParametersFor() {
		return this.parametersFor;
	}

	public void setParametersFor(String parametersFor) {
		this.parametersFor = parametersFor;
	}

	public String getStoredType() {
		return this.storedType;
	}

	public void setStoredType(String storedType) {
		this.storedType = storedType;
	}

	public String getOnceAt() {
		return this.onceAt;
	}

	public void setOnceAt(String onceAt) {
		this.onceAt = onceAt;
	}

	public String getName() {
		return this.name;
	}

	public void setName(String name) {
		this.name = name;
	}

	public String getCron() {
		return this.cron;
	}

	public void setCron(String cron) {
		this.cron = cron;
	}

	public String getTimeZone() {
		return this.timeZone;
	}

	public void setTimeZone(String timeZone) {
		this.timeZone = timeZone;
	}

	public String getMisfire() {
		return this.misfire;
	}

	public void setMisfire(String misfire) {
		this.misfire = misfire;
	}

	public boolean isPaused() {
		return this.paused;
	}

	public void setPaused(boolean paused) {
		this.paused = paused;
	}

}
