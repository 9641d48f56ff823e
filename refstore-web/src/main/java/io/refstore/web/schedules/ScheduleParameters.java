package io.refstore.web.schedules;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.refstore.batch.api.InvalidJobParameterException;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.RefJobParameters;
import io.refstore.batch.api.RefJobType;

/**
 * The job parameters a schedule keeps, as typed fields: which fields each job type takes
 * (the launch forms' set and labels), and every refused field at once with a reason
 * worded for people ("Chunk size must be a whole number from 1 to 100,000"), so that the
 * form marks all of them and the API names the first. Each field is judged alone by the
 * batch module's own parsing ({@link RefJobParameters#parse}), then the whole set, so
 * nothing is accepted that a launch would refuse. Stateless.
 */
public final class ScheduleParameters {

	/** What a field holds, for the form's input and the words of a refusal. */
	public enum Kind {

		/** A checkbox: {@code true} or {@code false}. */
		FLAG,
		/** A whole number in a range. */
		NUMBER,
		/** One of a few words. */
		CHOICE,
		/** Free text: a list, a pattern, an age, a path under the repository. */
		TEXT

	}

	/**
	 * One typed field.
	 *
	 * @param key the job parameter ({@link JobParameterNames}), also the form's field
	 * @param label its label, as the launch forms have it
	 * @param hint what it takes, shown beside the label
	 * @param kind what it holds
	 * @param min the least number ({@link Kind#NUMBER})
	 * @param max the greatest number ({@link Kind#NUMBER})
	 * @param fallback what the job takes when it is left out: a flag's {@code true} or
	 * {@code false}, a number's default, a choice's first word; {@code ""} for none
	 */
	public record Field(String key, String label, String hint, Kind kind, long min, long max, String fallback) {

		static Field flag(String key, String label, boolean fallback) {
			return new Field(key, label, "", Kind.FLAG, 0, 0, Boolean.toString(fallback));
		}

		static Field number(String key, String label, String hint, long min, long max, long fallback) {
			return new Field(key, label, hint, Kind.NUMBER, min, max, Long.toString(fallback));
		}

		static Field text(String key, String label, String hint) {
			return new Field(key, label, hint, Kind.TEXT, 0, 0, "");
		}

		/** The range of a number in words, digits grouped: {@code from 1 to 100,000}. */
		public String range() {
			return String.format(Locale.ROOT, "from %,d to %,d", this.min, this.max);
		}

	}

	/** The targets a migration's format may be. */
	public static final List<String> FORMATS = List.of("reftable", "files");

	private static final Field THROTTLE = Field.number(JobParameterNames.THROTTLE_MILLIS, "Pause between chunks (ms)",
			"spares a busy server", 0, 60_000, 0);

	private static final Map<RefJobType, List<Field>> FIELDS = Map.of(RefJobType.MAINTAIN,
			List.of(Field
				.flag(JobParameterNames.FORCE, "Pack or compact even when git's heuristics say it is not due", false)),
			RefJobType.MIGRATE,
			List.of(new Field(JobParameterNames.TARGET_FORMAT, "Target format", "", Kind.CHOICE, 0, 0, FORMATS.get(0)),
					Field.number(JobParameterNames.CHUNK_SIZE, "Refs per chunk",
							"each chunk is one step of the progress and of a restart", 1, 1_000_000, 100_000),
					THROTTLE, Field.flag(JobParameterNames.REFLOGS, "Carry reflogs over", true)),
			RefJobType.DELETE,
			List.of(Field.flag(JobParameterNames.PLAN_ONLY,
					"Plan only (dry run): count what would go and keep a manifest, delete nothing", false),
					Field.text(JobParameterNames.PREFIXES, "Prefixes", "comma-separated, e.g. refs/pull/"),
					Field.text(JobParameterNames.GLOBS, "Globs",
							"comma-separated, over whole names, e.g. refs/tags/rc-*"),
					Field.text(JobParameterNames.NAMES, "Names", "comma-separated full ref names"),
					Field.text(JobParameterNames.EXCLUDES, "Exclusions", "comma-separated patterns to keep"),
					Field.text(JobParameterNames.NAMESPACES, "Namespaces",
							"comma-separated, e.g. refs/heads/; alone they select their refs"),
					Field.text(JobParameterNames.MERGED_INTO, "Merged into",
							"a branch, or HEAD for the branch HEAD names"),
					Field.text(JobParameterNames.OLDER_THAN, "Tip older than",
							"an age (90d, 12w, 6m, 1y) or a date (2026-01-31)"),
					Field.text(JobParameterNames.NOT_UPDATED_SINCE, "Not updated since",
							"newest reflog entry, else the tip's date; an age or a date"),
					Field.number(JobParameterNames.CHUNK_SIZE, "Refs per chunk", "each chunk is one transaction", 1,
							100_000, 1000),
					THROTTLE,
					Field.text(JobParameterNames.PLAN, "Plan to execute",
							"instead of planning anew: a plan under refstore-plans; leave blank to plan")),
			RefJobType.RESTORE,
			List.of(Field.text(JobParameterNames.MANIFEST, "Manifest",
					"the deletion's directory under refstore-plans, in each repository"),
					Field.text(JobParameterNames.NAMES, "Only these refs",
							"comma-separated full names; blank restores every ref of the manifest")),
			RefJobType.ROLLBACK, List.of(Field.text(JobParameterNames.BACKUP, "Backup",
					"the directory a migration kept, in each repository")));

	private ScheduleParameters() {
	}

	/** The typed fields of a job type, in the form's order; none for some. */
	public static List<Field> fields(RefJobType type) {
		return (type == null) ? List.of() : FIELDS.getOrDefault(type, List.of());
	}

	/** The keys of {@link #fields}. */
	static Set<String> keys(RefJobType type) {
		Set<String> keys = new java.util.LinkedHashSet<>();
		fields(type).forEach((field) -> keys.add(field.key()));
		return keys;
	}

	/** The field of {@code type} for {@code key}, or {@code null}. */
	static Field field(RefJobType type, String key) {
		return fields(type).stream().filter((field) -> field.key().equals(key)).findFirst().orElse(null);
	}

	/**
	 * A refused parameter.
	 *
	 * @param key the parameter ({@link JobParameterNames}), or {@code null} for the set
	 * as a whole
	 * @param value the refused value
	 * @param message why, a sentence for people naming the field by its label
	 */
	public record Problem(String key, String value, String message) {
	}

	/**
	 * Every refused parameter of {@code parameters} for a job of {@code type}: each field
	 * alone, then, if none is refused, the set as a launch takes it (a deletion that
	 * selects nothing, an override without reason).
	 * @return the problems, in the form's order; empty if a launch would take them
	 */
	public static List<Problem> check(RefJobType type, Map<String, String> parameters) {
		List<Problem> problems = new ArrayList<>();
		Set<String> keys = keys(type);
		for (Map.Entry<String, String> given : parameters.entrySet()) {
			if (!keys.contains(given.getKey()) && !given.getKey().equals(JobParameterNames.OVERRIDE_PROTECTION)
					&& !given.getKey().equals(JobParameterNames.OVERRIDE_REASON)) {
				problems
					.add(new Problem(given.getKey(), given.getValue(), "'" + given.getKey() + "' is not a parameter of "
							+ type.jobName() + (keys.isEmpty() ? ", which takes none" : " (it takes " + keys + ")")));
			}
		}
		for (Field field : fields(type)) {
			String value = parameters.get(field.key());
			if (value == null) {
				continue;
			}
			Problem problem = alone(type, field, value);
			if (problem != null) {
				problems.add(problem);
			}
		}
		if (problems.isEmpty()) {
			try {
				RefJobParameters.parse(type, parameters);
			}
			catch (InvalidJobParameterException ex) {
				problems.add(problem(type, ex));
			}
		}
		return problems;
	}

	/** The problem of one field given alone, or {@code null}. */
	private static Problem alone(RefJobType type, Field field, String value) {
		Map<String, String> given = new LinkedHashMap<>();
		if (type == RefJobType.MIGRATE) {
			// a migration reads its target first: any, for another field to be judged
			given.put(JobParameterNames.TARGET_FORMAT, FORMATS.get(0));
		}
		given.put(field.key(), value);
		try {
			RefJobParameters.parse(type, given);
			return null;
		}
		catch (InvalidJobParameterException ex) {
			// alone, a field may leave the set incomplete (a deletion selecting nothing):
			// only its own refusal counts here
			return field.key().equals(ex.parameter()) ? problem(type, ex) : null;
		}
	}

	/** A refusal of the batch module in the words of the form. */
	static Problem problem(RefJobType type, InvalidJobParameterException ex) {
		Field field = field(type, ex.parameter());
		if (field == null) {
			return new Problem(ex.parameter(), ex.value(), sentence(ex.parameter(), ex.reason()));
		}
		String message = switch (field.kind()) {
			case FLAG -> "'" + field.label() + "' must be on or off (true or false)";
			case NUMBER -> field.label().replaceFirst(" \\(ms\\)$", "") + " must be a whole number " + field.range()
					+ (field.key().equals(JobParameterNames.THROTTLE_MILLIS) ? " milliseconds" : "");
			case CHOICE -> field.label() + " must be one of " + String.join(", ", FORMATS);
			case TEXT -> sentence(field.label(), ex.reason());
		};
		return new Problem(field.key(), ex.value(), message);
	}

	/** {@code Label: reason}, the reason without a leading "it". */
	private static String sentence(String label, String reason) {
		String why = (reason == null) ? "refused" : reason.strip();
		return label + ": " + why;
	}

}
