package io.refstore.web.journal;

import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.refstore.batch.api.JobSummary;
import io.refstore.web.jobs.JobView;
import io.refstore.web.security.Actors;
import io.refstore.web.system.InvalidRequestException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * Point-in-time restore of a repository's refs from its journal (docs/journal.md): a
 * preview, the restore as a job, and its undo.
 */
@RestController
@RequestMapping("/api/repos/{repo}/journal")
@Tag(name = "journal")
class RewindApiController {

	private final RewindService rewind;

	RewindApiController(RewindService rewind) {
		this.rewind = rewind;
	}

	@GetMapping("/rewind")
	@Operation(summary = "What putting the refs back as they were at a moment would do (VIEWER)",
			description = "The refs that would be created, deleted and moved, those whose object is gone (left "
					+ "out) and those whose value then the journal cannot tell (left alone); each list shows at most "
					+ "1000, the counts are whole.")
	RewindPreview preview(@PathVariable String repo,
			@Parameter(description = "the moment, ISO-8601 with a zone: 2026-12-05T14:03:00Z") @RequestParam(
					required = false) String at,
			@Parameter(description = "only refs whose names start with this") @RequestParam(
					defaultValue = "") String prefix)
			throws IOException {
		return this.rewind.preview(repo, moment(at), prefix);
	}

	/**
	 * @param at the moment, ISO-8601 with a zone
	 * @param prefix only refs whose names start with this (default: every ref)
	 */
	record RewindRequest(String at, String prefix) {
	}

	@PostMapping("/rewind")
	@Operation(summary = "Put the refs back as they were at a moment, as a job (ADMIN)",
			description = "Works the preview out again, writes it as a plan (and the plan that undoes it) in the "
					+ "repository's refstore-plans, and launches rewindRefsJob: 201 with the job. Each ref is set "
					+ "only if it still holds the value it had when planned; one changed since is left alone and "
					+ "counted. 409 if nothing would change.")
	ResponseEntity<JobView> restore(@PathVariable String repo, @RequestBody RewindRequest request) throws IOException {
		String prefix = (request == null || request.prefix() == null) ? "" : request.prefix();
		return created(
				this.rewind.restore(repo, moment((request == null) ? null : request.at()), prefix, Actors.current()));
	}

	/**
	 * @param plan the plan of the restore to undo, as its job's parameters name it
	 */
	record UndoRequest(String plan) {
	}

	@PostMapping("/rewind:undo")
	@Operation(summary = "Undo a point-in-time restore, as a job (ADMIN)",
			description = "Launches rewindRefsJob over the plan that undoes the restore whose plan is named: each "
					+ "ref the restore set is set back if it still holds what the restore set.")
	ResponseEntity<JobView> undo(@PathVariable String repo, @RequestBody UndoRequest request) {
		return created(this.rewind.undo(repo, (request == null) ? null : request.plan(), Actors.current()));
	}

	/** An ISO-8601 instant, or a date and time with an offset. */
	static Instant moment(String text) {
		if (text == null || text.isBlank()) {
			return null;
		}
		try {
			return Instant.parse(text.strip());
		}
		catch (DateTimeParseException ex) {
			try {
				return OffsetDateTime.parse(text.strip()).toInstant();
			}
			catch (DateTimeParseException again) {
				throw new InvalidRequestException("at", text,
						"it is not an ISO-8601 moment with a zone (2026-12-05T14:03:00Z)");
			}
		}
	}

	private static ResponseEntity<JobView> created(JobSummary job) {
		return ResponseEntity.created(URI.create("/api/jobs/" + job.executionId())).body(JobView.of(job));
	}

}
