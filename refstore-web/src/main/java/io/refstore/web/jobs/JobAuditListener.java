package io.refstore.web.jobs;

import java.util.Map;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.RefJobEvent;
import io.refstore.web.audit.AuditEntry;
import io.refstore.web.system.Redaction;

/**
 * Records every job event the batch module publishes (launch, refused launch, stop,
 * restart, end) in the audit log, as {@code job.launch}, {@code job.stop},
 * {@code job.restart} and {@code job.finish} entries whose target is the job and its
 * execution.
 */
@Component
class JobAuditListener {

	private final ApplicationEventPublisher events;

	JobAuditListener(ApplicationEventPublisher events) {
		this.events = events;
	}

	@EventListener
	void record(RefJobEvent event) {
		String outcome = (event.outcome() == null) ? "" : event.outcome();
		AuditEntry.Outcome result = (event.result() == RefJobEvent.Result.REFUSED) ? AuditEntry.Outcome.REJECTED
				: (event.status() == null) ? AuditEntry.Outcome.SUCCESS
						: event.status().unsuccessful() ? AuditEntry.Outcome.ERROR
								: (event.status() == JobStatus.STOPPED) ? AuditEntry.Outcome.STOPPED
										: AuditEntry.Outcome.SUCCESS;
		String target = event.job() + ((event.executionId() == null) ? "" : " #" + event.executionId());
		// the server's layout stays in the log: the entry names the repository
		Map<String, String> parameters = JobRedaction.parameters(event.parameters());
		this.events.publishEvent(new AuditEntry(0, event.time(), event.actor(),
				"job." + event.action().name().toLowerCase(java.util.Locale.ROOT), event.repository(), target,
				parameters, result, detail(outcome, result)));
	}

	/**
	 * The event's outcome as the audit log shows it: the status, then its message without
	 * exception class names or server paths ({@link Redaction#message}); a stopped job's
	 * message is only the exception Spring Batch stops it with.
	 */
	static String detail(String outcome, AuditEntry.Outcome result) {
		int colon = outcome.indexOf(": ");
		if (colon < 0) {
			return outcome;
		}
		String status = outcome.substring(0, colon);
		if (result == AuditEntry.Outcome.STOPPED) {
			return status + ": stopped on request";
		}
		String message = Redaction.message(outcome.substring(colon + 2));
		return message.isEmpty() ? status : status + ": " + message;
	}

}
