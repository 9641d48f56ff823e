package io.refstore.web.schedules;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.schedules.ScheduleParameters.Field;

/**
 * What the console's schedule and campaign forms share: the job to launch, the
 * repositories it targets and the job's parameters as typed fields
 * ({@link ScheduleParameters}), bound as {@code values[key]} and shown by the fragment
 * {@code fragments/jobParameters :: parameters} ({@link TypedParameters} judges them). A
 * schedule stored with parameters (by the API, or by the former {@code key=value} form)
 * comes into them as stored, and its parameters' text rides along in a hidden field
 * ({@code parameters}, with the job type they were stored for), so that saving writes
 * back unchanged what the fields did not change the meaning of ({@code chunkSize=0500}
 * stays so, an absent {@code reflogs} stays absent while its box shows the default) and
 * keeps stored parameters no field shows, for the service to judge. A form with nothing
 * stored (a new schedule, any campaign) takes its parameters from the fields alone.
 */
public abstract class JobTargetForm {

	private String jobType;

	private String targetKind;

	private String target;

	/** The stored parameters as {@code key=value} lines ({@link #storedType}'s). */
	private String parameters = "";

	/** The typed fields' values as text, by parameter key. */
	private Map<String, String> values = new LinkedHashMap<>();

	/** The job type the typed fields were shown for ({@code null}: not shown yet). */
	private String parametersFor;

	/** The job type the stored parameters are for ({@code null}: none stored). */
	private String storedType;

	protected JobTargetForm(String jobType, String targetKind, String target) {
		this.jobType = jobType;
		this.targetKind = targetKind;
		this.target = target;
	}

	/** The job type the form names, or {@code null} for none it knows. */
	public RefJobType type() {
		return RefJobType.find(this.jobType).orElse(null);
	}

	/**
	 * Shows stored parameters of a job of {@code type}: each typed field as stored (a
	 * flag or choice not stored at its default, a text or number blank), and their text
	 * along, to be written back unchanged.
	 */
	protected void showStored(RefJobType type, Map<String, String> stored) {
		this.jobType = type.name();
		this.parameters = ParameterLines.format(stored);
		this.storedType = type.name();
		this.parametersFor = type.name();
		for (Field field : ScheduleParameters.fields(type)) {
			String value = stored.get(field.key());
			this.values.put(field.key(), (value != null) ? value : switch (field.kind()) {
				case FLAG, CHOICE -> field.fallback();
				case NUMBER, TEXT -> "";
			});
		}
	}

	/**
	 * Fills the typed fields of the form's job type that have no value with a new form's:
	 * a flag's default (a deletion plans only, the safe choice), a migration to reftable,
	 * numbers blank for the job's default.
	 */
	public void fillDefaults() {
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
	protected Map<String, String> parameterMap() {
		RefJobType type = type();
		Map<String, String> stored = (type != null && type.name().equals(this.storedType))
				? ParameterLines.parse(this.parameters) : Map.of();
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
		Map<String, String> others = new LinkedHashMap<>(ParameterLines.parse(this.parameters));
		others.keySet().removeAll(ScheduleParameters.keys(type));
		return others;
	}

	public String getJobType() {
		return this.jobType;
	}

	public void setJobType(String jobType) {
		this.jobType = jobType;
	}

	public String getTargetKind() {
		return this.targetKind;
	}

	public void setTargetKind(String targetKind) {
		this.targetKind = targetKind;
	}

	public String getTarget() {
		return this.target;
	}

	public void setTarget(String target) {
		this.target = target;
	}

	public String getParameters() {
		return this.parameters;
	}

	public void setParameters(String parameters) {
		this.parameters = parameters;
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

}
