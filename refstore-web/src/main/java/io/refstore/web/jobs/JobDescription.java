package io.refstore.web.jobs;

import java.util.ArrayList;
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

	/** The status in words: {@code Completed}, {@code Stopped}. */
	public String status() {
		return ConsoleFormat.inWords(this.job.status().name());
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
			case ROLLBACK ->
				"Rolled back from " + result(JobResults.ROLLBACK_FROM) + " to " + result(JobResults.ROLLBACK_TO) + ": "
						+ count(JobResults.ROLLBACK_REFS) + " refs" + kept(JobResults.ROLLBACK_KEPT);
			case RESTORE ->
				"Restored " + count(JobResults.RESTORE_RESTORED) + " refs" + (number(JobResults.RESTORE_PRESENT) > 0
						? "; " + count(JobResults.RESTORE_PRESENT) + " were already there" : "") + ".";
			case REWIND -> "Set " + count(JobResults.REWIND_APPLIED) + " refs back"
					+ ((number(JobResults.REWIND_PRESENT) > 0)
							? "; " + count(JobResults.REWIND_PRESENT) + " held their value already" : "")
					+ ((number(JobResults.REWIND_CONFLICTS) > 0) ? "; " + count(JobResults.REWIND_CONFLICTS)
							+ " changed since the preview were left alone: " + result(JobResults.REWIND_CONFLICTING)
							: "")
					+ ".";
			case DELETE ->
				planOnly() ? "Plans to delete " + count(JobResults.PLAN_COUNT) + " refs" + protectedRefs() + "."
						: "Deleted " + String.format(Locale.ROOT, "%,d", stepDone("deleteRefsStep")) + " refs"
								+ protectedRefs() + "; the manifest keeps them for a restore.";
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
		return "Planned " + count(JobResults.PLAN_COUNT) + " refs for deletion" + protectedRefs() + "; job "
				+ deletion.executionId() + outcome;
	}

	private String migration() {
		boolean match = result(JobResults.MIGRATION_SOURCE_DIGEST).equals(result(JobResults.MIGRATION_TARGET_DIGEST))
				&& !result(JobResults.MIGRATION_SOURCE_DIGEST).isEmpty();
		return "Copied " + count(JobResults.MIGRATION_REFS) + " refs and " + count(JobResults.MIGRATION_LOG_ENTRIES)
				+ " reflog entries from " + result(JobResults.MIGRATION_FROM) + " to " + result(JobResults.MIGRATION_TO)
				+ "; " + (match ? "digests match" : "digests differ") + kept(JobResults.MIGRATION_CARRIED) + ".";
	}

	private String verification() {
		long errors = number(JobResults.VERIFY_ERRORS);
		long warnings = number(JobResults.VERIFY_WARNINGS);
		String found = (errors == 0 && warnings == 0) ? "no problem found"
				: count(JobResults.VERIFY_ERRORS) + " errors and " + count(JobResults.VERIFY_WARNINGS) + " warnings";
		return "Read " + count(JobResults.VERIFY_REFS) + " refs and " + count(JobResults.VERIFY_LOG_ENTRIES)
				+ " reflog entries of the " + result(JobResults.VERIFY_FORMAT) + " store: " + found
				+ ". Nothing was changed.";
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
		return "Counted " + count(JobResults.INVENTORY_REFS) + " refs in "
				+ result(JobResults.INVENTORY_NAMESPACES).lines().count() + " namespaces: "
				+ count(JobResults.INVENTORY_STALE) + " stale, " + merged + ". Nothing was changed.";
	}

	private String kept(String key) {
		long kept = number(key);
		return (kept > 0) ? "; " + count(key) + " refs written meanwhile were carried over" : "";
	}

	private String protectedRefs() {
		long kept = number(JobResults.PLAN_PROTECTED_COUNT);
		return (kept > 0) ? " (" + count(JobResults.PLAN_PROTECTED_COUNT) + " protected refs kept)" : "";
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
