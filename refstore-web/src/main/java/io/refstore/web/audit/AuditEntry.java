package io.refstore.web.audit;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One audited action. Anything that changes state produces one, whether it succeeded or
 * not: API ref writes, token changes, and (through an event listener the batch
 * integration adds) job launches, stops and restarts.
 *
 * @param id the row id, or 0 before it is stored
 * @param at when it happened
 * @param actor who did it (the authenticated user's name)
 * @param action what was done, as {@code area.verb}: {@code ref.update},
 * {@code ref.delete}, {@code refs.batch}, {@code token.create}, {@code token.revoke},
 * {@code job.launch}, ...
 * @param repository the repository concerned, or {@code null}
 * @param target what was acted on (ref names, a token id, a job id), or {@code null}
 * @param parameters the parameters of the call, as text values
 * @param outcome how it ended
 * @param detail a human-readable result or reason, or {@code null}
 */
public record AuditEntry(long id, Instant at, String actor, String action, String repository, String target,
		Map<String, String> parameters, Outcome outcome, String detail) {

	/** How an audited action ended. */
	public enum Outcome {

		/** It was done. */
		SUCCESS,
		/**
		 * It was refused: a failed precondition, a conflict, bad input, a missing object.
		 */
		REJECTED,
		/** The caller's roles do not allow it. */
		DENIED,
		/** It failed on an error. */
		ERROR,
		/** It was stopped on request before it finished (a job); it can be restarted. */
		STOPPED

	}

	public AuditEntry {
		Objects.requireNonNull(at, "at");
		Objects.requireNonNull(actor, "actor");
		Objects.requireNonNull(action, "action");
		Objects.requireNonNull(outcome, "outcome");
		parameters = (parameters == null) ? Map.of() : Map.copyOf(parameters);
	}

	/** A new entry of now, to be stored. */
	public static AuditEntry of(String actor, String action, String repository, String target,
			Map<String, String> parameters, Outcome outcome, String detail) {
		return new AuditEntry(0, Instant.now(), actor, action, repository, target, parameters, outcome, detail);
	}

}
