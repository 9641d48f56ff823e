package io.refstore.web.jobs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.web.console.ConsoleFormat;

/**
 * A job's steps as its page lists them from the start: every step the job runs, in order,
 * those it ran with their progress, those still to come waiting, those an earlier run
 * completed (a restart runs only the rest) as done, and, once it has ended, those it
 * never reached as not run; with the job's overall progress (steps done out of all, the
 * running step counted by its fraction). Spring Batch only records a step once it starts,
 * so without the job's plan ({@code RefJobs.steps}) a page could not say what is still to
 * come.
 *
 * @param rows the steps in the order the job runs them
 * @param done how many are done (completed in this run or an earlier one)
 * @param fraction the job's progress from 0 to 1
 * @param current the running step in words, or {@code null}
 * @param position the running step's place from 1, or 0 if none runs
 */
public record StepOverview(List<Row> rows, int done, double fraction, String current, int position) {

	/** Where a step stands in the run a page shows. */
	public enum State {

		/** It ran, or runs, in this execution: its own status says how. */
		RAN,

		/** An earlier run of the job completed it, so this one did not run it again. */
		EARLIER,

		/** The job has not reached it yet. */
		WAITING,

		/** The job ended before it. */
		NOT_RUN

	}

	/**
	 * One step.
	 *
	 * @param name its name as the job has it ({@code copyRefsStep})
	 * @param words its name in words ({@code Copy refs})
	 * @param step what it did in this execution, or {@code null} if it did not run in it
	 * @param state where it stands
	 * @param fraction its progress from 0 to 1
	 */
	public record Row(String name, String words, JobSummary.StepSummary step, State state, double fraction) {

		/** Its status in words: the step's own, else {@code Waiting}, {@code Done}. */
		public String status() {
			return switch (this.state) {
				case RAN -> ConsoleFormat.jobStatusInWords(this.step.status().name());
				case EARLIER -> "Done earlier";
				case WAITING -> "Waiting";
				case NOT_RUN -> "Not run";
			};
		}

		/** Whether it has not run (greyed on the page). */
		public boolean pending() {
			return this.state == State.WAITING || this.state == State.NOT_RUN;
		}

	}

	/** How many steps the job runs. */
	public int total() {
		return this.rows.size();
	}

	/**
	 * The overview of {@code job}, whose type runs the steps {@code planned} (empty if
	 * unknown: then only those it ran).
	 */
	public static StepOverview of(JobSummary job, List<String> planned) {
		Map<String, JobSummary.StepSummary> ran = new HashMap<>();
		job.steps().forEach((step) -> ran.putIfAbsent(step.name(), step));
		List<String> names = new ArrayList<>(planned);
		job.steps()
			.stream()
			.map(JobSummary.StepSummary::name)
			.filter((name) -> !names.contains(name))
			.forEach(names::add);
		List<Row> rows = new ArrayList<>();
		int done = 0;
		double running = 0;
		String current = null;
		int position = 0;
		for (int i = 0; i < names.size(); i++) {
			String name = names.get(i);
			JobSummary.StepSummary step = ran.get(name);
			State state;
			if (step != null) {
				state = State.RAN;
			}
			else if (names.subList(i + 1, names.size()).stream().anyMatch(ran::containsKey)) {
				state = State.EARLIER;
			}
			else {
				state = job.running() ? State.WAITING : State.NOT_RUN;
			}
			double fraction = (state == State.EARLIER) ? 1 : (step != null) ? fraction(step) : 0;
			if (state == State.EARLIER || (step != null && step.status() == JobStatus.COMPLETED)) {
				done++;
			}
			else if (step != null && step.ended() == null && job.running()) {
				running = fraction;
				current = ConsoleFormat.inWords(name);
				position = i + 1;
			}
			rows.add(new Row(name, ConsoleFormat.inWords(name), step, state, fraction));
		}
		double overall = (job.status() == JobStatus.COMPLETED) ? 1
				: rows.isEmpty() ? 0 : Math.min(1, (done + running) / rows.size());
		return new StepOverview(List.copyOf(rows), done, overall, current, position);
	}

	/** A step's progress: done out of its total, 1 once it completed without one. */
	private static double fraction(JobSummary.StepSummary step) {
		if (step.total() > 0) {
			return Math.min(1, (double) step.done() / step.total());
		}
		return (step.status() == JobStatus.COMPLETED) ? 1 : 0;
	}

}
