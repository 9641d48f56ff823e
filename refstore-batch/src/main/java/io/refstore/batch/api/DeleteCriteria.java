package io.refstore.batch.api;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.refstore.core.delete.CriterionTime;
import io.refstore.core.delete.InvalidSelectionException;
import io.refstore.core.delete.RefSelection;

/**
 * What narrows a deletion's selection beyond names and patterns: namespaces, merged into
 * a branch, older than a time, not updated since a time (see {@link RefSelection}). Kept
 * as given (an age stays {@code 90d}); the plan resolves them when it is written.
 *
 * @param namespaces namespaces the refs must be in, such as {@code refs/heads/}
 * @param mergedInto the branch refs must be merged into, or {@code null}
 * @param olderThan the time creator dates must be before, or {@code null}
 * @param notUpdatedSince the time last updates must be before, or {@code null}
 */
public record DeleteCriteria(List<String> namespaces, String mergedInto, String olderThan, String notUpdatedSince) {

	/** No criteria. */
	public static final DeleteCriteria NONE = new DeleteCriteria(List.of(), null, null, null);

	public DeleteCriteria {
		namespaces = List.copyOf(namespaces);
		mergedInto = blankToNull(mergedInto);
		olderThan = blankToNull(olderThan);
		notUpdatedSince = blankToNull(notUpdatedSince);
	}

	/**
	 * Checks that each criterion is well formed (a branch's existence is checked in the
	 * repository, at launch).
	 * @throws InvalidJobParameterException naming the criterion that is not
	 */
	void check() {
		RefSelection.Builder builder = RefSelection.builder();
		String current = JobParameterNames.NAMESPACES;
		try {
			this.namespaces.forEach(builder::namespace);
			current = JobParameterNames.OLDER_THAN;
			if (this.olderThan != null) {
				CriterionTime.parse(current, this.olderThan, Instant.now());
			}
			current = JobParameterNames.NOT_UPDATED_SINCE;
			if (this.notUpdatedSince != null) {
				CriterionTime.parse(current, this.notUpdatedSince, Instant.now());
			}
		}
		catch (InvalidSelectionException ex) {
			throw new InvalidJobParameterException(current, ex.value(), ex.problem());
		}
		if (this.mergedInto != null && (this.mergedInto.contains(" ") || this.mergedInto.contains(","))) {
			throw new InvalidJobParameterException(JobParameterNames.MERGED_INTO, this.mergedInto,
					"give one branch, such as main, refs/heads/main or HEAD");
		}
	}

	/** Whether there is no criterion. */
	public boolean isEmpty() {
		return this.namespaces.isEmpty() && this.mergedInto == null && this.olderThan == null
				&& this.notUpdatedSince == null;
	}

	/**
	 * The criteria as the plan's selection parts ({@code namespace refs/heads/}, ...).
	 */
	public List<String> parts() {
		List<String> parts = new ArrayList<>();
		this.namespaces.forEach((namespace) -> parts.add("namespace " + namespace));
		if (this.mergedInto != null) {
			parts.add("merged-into " + this.mergedInto);
		}
		if (this.olderThan != null) {
			parts.add("older-than " + this.olderThan);
		}
		if (this.notUpdatedSince != null) {
			parts.add("not-updated-since " + this.notUpdatedSince);
		}
		return parts;
	}

	/** Reads the criteria of a job's parameters. */
	static DeleteCriteria read(ParameterText text) {
		return new DeleteCriteria(text.list(JobParameterNames.NAMESPACES), text.text(JobParameterNames.MERGED_INTO),
				text.text(JobParameterNames.OLDER_THAN), text.text(JobParameterNames.NOT_UPDATED_SINCE));
	}

	/** Adds the criteria given to a job's parameters. */
	void putInto(Map<String, String> map) {
		if (!this.namespaces.isEmpty()) {
			map.put(JobParameterNames.NAMESPACES, String.join(",", this.namespaces));
		}
		if (this.mergedInto != null) {
			map.put(JobParameterNames.MERGED_INTO, this.mergedInto);
		}
		if (this.olderThan != null) {
			map.put(JobParameterNames.OLDER_THAN, this.olderThan);
		}
		if (this.notUpdatedSince != null) {
			map.put(JobParameterNames.NOT_UPDATED_SINCE, this.notUpdatedSince);
		}
	}

	private static String blankToNull(String value) {
		return (value == null || value.isBlank()) ? null : value.strip();
	}

}
