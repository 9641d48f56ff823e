package io.refstore.web.jobs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobResults;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.console.ConsoleFormat;

/**
 * A job as the console's pages put it in words: its title ("Migration", "Deletion plan"),
 * its steps' names ("Copy refs"), its status, a one-line summary of what it did ("Copied
 * 3,546 refs and 326 reflog entries from files to reftable; digests match"), and its
 * parameters split into those a person chose and the internal ones (the launch id, the
 * server instance), which the page keeps under a collapsed section.
 *
 * @param job the job, already redacted ({@code JobRedaction})
 */
public record JobDescription(JobSummary job) {

	private static final ConsoleFormat FORMAT = new ConsoleFormat();

	/**
	 * The parameters a person chooses, in words, in the order a job's page lists them:
	 * the launch forms' fields, by the names the jobs keep them under.
	 */
	private static final Map<String, String> LABELS = labels(JobParameterNames.TARGET_FORMAT, "Target format",
			JobParameterNames.REFLOGS, "Reflogs", JobParameterNames.PLAN_ONLY, "Plan only", JobParameterNames.PLAN,
			"Plan", JobParameterNames.PREFIXES, "Prefixes", JobParameterNames.GLOBS, "Globs", JobParameterNames.NAMES,
			"Names", JobParameterNames.EXCLUDES, "Exclusions", JobParameterNames.NAMESPACES, "Namespaces",
			JobParameterNames.MERGED_INTO, "Merged into", JobParameterNames.OLDER_THAN, "Tip older than",
			JobParameterNames.NOT_UPDATED_SINCE, "Not updated since", JobParameterNames.PROTECTED_REFS,
			"Protected refs", JobParameterNames.OVERRIDE_PROTECTION, "Protection overridden",
			JobParameterNames.OVERRIDE_REASON, "Reason for the override", JobParameterNames.MANIFEST, "Manifest",
			JobParameterNames.BACKUP, "Backup", JobParameterNames.FORCE, "Forced", JobParameterNames.CHUNK_SIZE,
			"Chunk size", JobParameterNames.THROTTLE_MILLIS, "Throttle (ms)");

	/** The parameters that are lists, separated by commas. */
	private static final Set<String> LISTS = Set.of(JobParameterNames.PREFIXES, JobParameterNames.GLOBS,
			JobParameterNames.NAMES, JobParameterNames.EXCLUDES, JobParameterNames.NAMESPACES,
			JobParameterNames.PROTECTED_REFS);

	/** The parameters whose values are names, patterns or paths. */
	private static final Set<String> CODE = Set.of(JobParameterNames.PREFIXES, JobParameterNames.GLOBS,
			JobParameterNames.NAMES, JobParameterNames.EXCLUDES, JobParameterNames.NAMESPACES,
			JobParameterNames.PROTECTED_REFS, JobParameterNames.MERGED_INTO, JobParameterNames.PLAN,
			JobParameterNames.MANIFEST, JobParameterNames.BACKUP);

	/** Parameters the launcher adds, not the person who launched. */
	private static final Set<String> INTERNAL = Set.of(JobParameterNames.LAUNCH_ID, JobParameterNames.ACTOR,
			JobParameterNames.REPOSITORY, JobParameterNames.REPOSITORY_PATH, "refstore.instance", "run.id");

	/** The job's kind in words: {@code Migration}, {@code Deletion plan}. */
	public String title() {
		RefJobType type = this.job.type();
		if (type == null) {
			return ConsoleFormat.inWords(this.job.job());
		}
		String words = ConsoleFormat.jobTypeInWords(type);
		return (type == RefJobType.DELETE && planOnly()) ? words + " plan" : words;
	}

	/** Whether this is a deletion that only plans. */
	public boolean planOnly() {
		return "true".equals(this.job.parameters().get(JobParameterNames.PLAN_ONLY));
	}

	/**
	 * The status in words, as every page says it: {@code Running}, {@code Completed},
	 * {@code Stopped}.
	 */
	public String status() {
		return ConsoleFormat.jobStatusInWords(this.job.status().name());
	}

	/**
	 * What the job did, in one line, once it ended; {@code null} while it runs or when
	 * there is nothing to say.
	 */
	public String summary() {
		JobStatus status = this.job.status();
		if (this.job.running()) {
			return null;
		}
		if (status == JobStatus.STOPPED) {
			return "Stopped on request. Restarting continues where it stopped.";
		}
		if (status.unsuccessful()) {
			String message = this.job.exitMessage();
			return "Failed" + ((message == null || message.isBlank()) ? "." : ": " + message);
		}
		if (status != JobStatus.COMPLETED || this.job.type() == null) {
			return null;
		}
		return switch (this.job.type()) {
			case MIGRATE -> migration();
			case VERIFY -> verification();
			case MAINTAIN -> maintenance();
			case INVENTORY -> inventory();
			case JOURNAL_RETENTION -> journalRetention();
			case ROLLBACK ->
				"Rolled back from " + result(JobResults.ROLLBACK_FROM) + " to " + result(JobResults.ROLLBACK_TO) + ": "
						+ refs(JobResults.ROLLBACK_REFS) + kept(JobResults.ROLLBACK_KEPT);
			case RESTORE ->
				"Restored " + refs(JobResults.RESTORE_RESTORED)
						+ (number(JobResults.RESTORE_PRESENT) > 0 ? "; " + count(JobResults.RESTORE_PRESENT)
								+ ((number(JobResults.RESTORE_PRESENT) == 1) ? " was" : " were") + " already there"
								: "")
						+ ".";
			case REWIND -> "Set " + refs(JobResults.REWIND_APPLIED) + " back"
					+ ((number(JobResults.REWIND_PRESENT) > 0) ? "; " + count(JobResults.REWIND_PRESENT)
							+ ((number(JobResults.REWIND_PRESENT) == 1) ? " held its" : " held their")
							+ " value already" : "")
					+ ((number(JobResults.REWIND_CONFLICTS) > 0) ? "; " + count(JobResults.REWIND_CONFLICTS)
							+ " changed since the preview were left alone: " + result(JobResults.REWIND_CONFLICTING)
							: "")
					+ ".";
			case DELETE -> planOnly() ? "Plans to delete " + refs(JobResults.PLAN_COUNT) + protectedRefs() + "."
					: "Deleted " + FORMAT.plural(stepDone("deleteRefsStep"), "ref", "refs") + protectedRefs()
							+ "; the manifest keeps " + ((stepDone("deleteRefsStep") == 1) ? "it" : "them")
							+ " for a restore.";
		};
	}

	/**
	 * {@link #summary()}, told with what happened since: a plan says whether a deletion
	 * executed it, and how that went, or that it waits for a confirmation.
	 */
	public String summary(JobRelations relations) {
		if (relations == null || !planOnly() || this.job.status() != JobStatus.COMPLETED) {
			return summary();
		}
		JobSummary deletion = relations.deletion().orElse(null);
		if (deletion == null) {
			return summary() + " Nothing is deleted until it is confirmed.";
		}
		String outcome = deletion.running() ? " is deleting them." : (deletion.status() == JobStatus.COMPLETED)
				? " deleted them." : " " + deletion.status().name().toLowerCase(Locale.ROOT) + " before the end.";
		return "Planned " + refs(JobResults.PLAN_COUNT) + " for deletion" + protectedRefs() + "; job "
				+ deletion.executionId() + outcome;
	}

	private String migration() {
		boolean match = result(JobResults.MIGRATION_SOURCE_DIGEST).equals(result(JobResults.MIGRATION_TARGET_DIGEST))
				&& !result(JobResults.MIGRATION_SOURCE_DIGEST).isEmpty();
		return "Copied " + refs(JobResults.MIGRATION_REFS) + " and "
				+ counted(JobResults.MIGRATION_LOG_ENTRIES, "reflog entry", "reflog entries") + " from "
				+ result(JobResults.MIGRATION_FROM) + " to " + result(JobResults.MIGRATION_TO) + "; "
				+ (match ? "digests match" : "digests differ") + kept(JobResults.MIGRATION_CARRIED) + ".";
	}

	private String verification() {
		long errors = number(JobResults.VERIFY_ERRORS);
		long warnings = number(JobResults.VERIFY_WARNINGS);
		String found = (errors == 0 && warnings == 0) ? "no problem found"
				: counted(JobResults.VERIFY_ERRORS, "error", "errors") + " and "
						+ counted(JobResults.VERIFY_WARNINGS, "warning", "warnings");
		return "Read " + refs(JobResults.VERIFY_REFS) + " and "
				+ counted(JobResults.VERIFY_LOG_ENTRIES, "reflog entry", "reflog entries") + " of the "
				+ result(JobResults.VERIFY_FORMAT) + " store: " + found + ". Nothing was changed.";
	}

	private String maintenance() {
		if (!"true".equals(result(JobResults.MAINTAIN_PACKED))) {
			return "Nothing to do: " + result(JobResults.MAINTAIN_BEFORE) + " (" + result(JobResults.MAINTAIN_REASON)
					+ ").";
		}
		String done = result(JobResults.MAINTAIN_DONE);
		// runs recorded before the job said what it did
		String what = done.isEmpty() ? "Packed" : Character.toUpperCase(done.charAt(0)) + done.substring(1);
		return what + ": " + result(JobResults.MAINTAIN_BEFORE) + " before, " + result(JobResults.MAINTAIN_AFTER)
				+ " after.";
	}

	private String inventory() {
		String merged = "none".equals(result(JobResults.INVENTORY_MERGED)) ? "merged not counted (HEAD names no commit)"
				: count(JobResults.INVENTORY_MERGED) + " merged into " + result(JobResults.INVENTORY_BASE);
		return "Counted " + refs(JobResults.INVENTORY_REFS) + " in "
				+ FORMAT.plural(result(JobResults.INVENTORY_NAMESPACES).lines().count(), "namespace", "namespaces")
				+ ": " + count(JobResults.INVENTORY_STALE) + " stale, " + merged + ". Nothing was changed.";
	}

	/**
	 * What a journal retention did, as the job worded it (entries deleted, the file set
	 * aside, or "nothing to do" and why), with a capital.
	 */
	private String journalRetention() {
		String outcome = result(JobResults.JOURNAL_OUTCOME);
		return outcome.isEmpty() ? "Applied the journal's retention."
				: Character.toUpperCase(outcome.charAt(0)) + outcome.substring(1) + ".";
	}

	private String kept(String key) {
		long kept = number(key);
		return (kept > 0) ? "; " + refs(key) + " written meanwhile " + ((kept == 1) ? "was" : "were") + " carried over"
				: "";
	}

	private String protectedRefs() {
		long kept = number(JobResults.PLAN_PROTECTED_COUNT);
		return (kept > 0)
				? " (" + counted(JobResults.PLAN_PROTECTED_COUNT, "protected ref", "protected refs") + " kept)" : "";
	}

	/** A result's count of refs: {@code 1 ref}, {@code 3,546 refs}. */
	private String refs(String key) {
		return counted(key, "ref", "refs");
	}

	/**
	 * A result's count with its word, singular for one; a result that is not a number as
	 * it is ({@code ?} if absent).
	 */
	private String counted(String key, String one, String many) {
		try {
			return FORMAT.plural(Long.parseLong(result(key)), one, many);
		}
		catch (NumberFormatException ex) {
			return count(key) + " " + many;
		}
	}

	private String result(String key) {
		String value = this.job.results().get(key);
		return (value != null) ? value : "";
	}

	private long number(String key) {
		try {
			return Long.parseLong(result(key));
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	private String count(String key) {
		String value = result(key);
		try {
			return String.format(Locale.ROOT, "%,d", Long.parseLong(value));
		}
		catch (NumberFormatException ex) {
			return value.isEmpty() ? "?" : value;
		}
	}

	private long stepDone(String step) {
		return this.job.steps()
			.stream()
			.filter((s) -> s.name().equals(step))
			.mapToLong(JobSummary.StepSummary::done)
			.sum();
	}

	/** The parameters a person chose, by name. */
	public Map<String, String> parameters() {
		Map<String, String> chosen = new TreeMap<>(this.job.parameters());
		chosen.keySet().removeAll(INTERNAL);
		return chosen;
	}

	/**
	 * A parameter a person chose, in words.
	 *
	 * @param name its name as the job keeps it ({@code chunkSize})
	 * @param label its name in words ({@code Chunk size})
	 * @param value its value in words: {@code Yes} and {@code No} for a flag, a list's
	 * items separated by a comma and a space
	 * @param job the job it names (a deletion's plan), or {@code null}
	 */
	public record Parameter(String name, String label, String value, Long job) {

		/** Whether the value is written as code: names, patterns, paths. */
		public boolean code() {
			return CODE.contains(this.name);
		}

	}

	/**
	 * The parameters a person chose, in words ({@code Chunk size: 500},
	 * {@code Plan only: Yes}), the launch forms' first, a deletion's plan with the job
	 * that made it when {@code relations} know it.
	 * @param relations the job's relations, or {@code null}
	 */
	public List<Parameter> chosen(JobRelations relations) {
		List<Parameter> chosen = new ArrayList<>();
		Map<String, String> given = parameters();
		for (Map.Entry<String, String> label : LABELS.entrySet()) {
			String value = given.remove(label.getKey());
			if (value != null) {
				Long job = (JobParameterNames.PLAN.equals(label.getKey()) && relations != null
						&& relations.plan() != null) ? relations.plan().executionId() : null;
				chosen.add(new Parameter(label.getKey(), label.getValue(), valueInWords(label.getKey(), value), job));
			}
		}
		given.forEach((name, value) -> chosen.add(new Parameter(name, ConsoleFormat.inWords(name), value, null)));
		return chosen;
	}

	private static String valueInWords(String name, String value) {
		if ("true".equals(value) || "false".equals(value)) {
			return "true".equals(value) ? "Yes" : "No";
		}
		return LISTS.contains(name) ? String.join(", ", value.split(",")) : value;
	}

	private static Map<String, String> labels(String... namesAndLabels) {
		Map<String, String> labels = new LinkedHashMap<>();
		for (int i = 0; i < namesAndLabels.length; i += 2) {
			labels.put(namesAndLabels[i], namesAndLabels[i + 1]);
		}
		return labels;
	}

	/** The parameters the launcher added (launch id, server instance). */
	public Map<String, String> internalParameters() {
		Map<String, String> internal = new TreeMap<>(this.job.parameters());
		internal.keySet().retainAll(INTERNAL);
		return internal;
	}

	/** The job's results by name. */
	public Map<String, String> results() {
		return new TreeMap<>(this.job.results());
	}

	/**
	 * A criterion of a plan and how many refs it matched.
	 *
	 * @param count how many refs
	 * @param criterion the criterion in words ({@code merged into refs/heads/main})
	 */
	public record Criterion(String count, String criterion) {
	}

	/**
	 * A plan by criteria: how many refs each criterion matched, the first line being what
	 * the names, prefixes, globs and namespaces picked; empty for a plan without
	 * criteria.
	 */
	public List<Criterion> planCriteria() {
		List<Criterion> criteria = new ArrayList<>();
		for (String line : result(JobResults.PLAN_CRITERIA).lines().toList()) {
			int space = line.indexOf(' ');
			if (space > 0) {
				criteria.add(new Criterion(formatted(line.substring(0, space)), line.substring(space + 1)));
			}
		}
		return criteria;
	}

	/**
	 * A sampled ref of a plan by criteria and why it was selected.
	 *
	 * @param name the ref
	 * @param reason its facts per criterion
	 */
	public record Selected(String name, String reason) {
	}

	/** The sample of a plan by criteria with the reasons; empty without criteria. */
	public List<Selected> planReasons() {
		List<String> names = result(JobResults.PLAN_SAMPLE).lines().toList();
		List<String> reasons = result(JobResults.PLAN_REASONS).lines().toList();
		List<Selected> selected = new ArrayList<>();
		for (int i = 0; i < Math.min(names.size(), reasons.size()); i++) {
			selected.add(new Selected(names.get(i), reasons.get(i)));
		}
		return selected;
	}

	private static String formatted(String number) {
		try {
			return String.format(Locale.ROOT, "%,d", Long.parseLong(number));
		}
		catch (NumberFormatException ex) {
			return number;
		}
	}

}
