package io.refstore.web.journal;

import java.io.IOException;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * The journal of every repository the database holds entries of: which refs ever pointed
 * at an object, who deleted refs of a prefix. Keyset-paged newest first as a repository's
 * journal is.
 */
@RestController
@RequestMapping("/api/journal")
@Tag(name = "journal")
class FleetJournalApiController {

	private final JournalService journal;

	FleetJournalApiController(JournalService journal) {
		this.journal = journal;
	}

	@GetMapping
	@Operation(summary = "Ref changes of every repository, newest first (VIEWER)",
			description = "As of the last ingestion: every refstore.journal.ingest-interval, and a repository's "
					+ "own queries. With deleted=true only deletions, leaving out refs that exist now in a "
					+ "repository of this node (git reports the loose refs pack-refs prunes as deleted).")
	ResponseEntity<JournalPage<JournalEntryView>> fleet(
			@Parameter(description = "only changes from or to this object id (full hex)") @RequestParam(
					required = false) String object,
			@Parameter(description = "only refs whose names start with this") @RequestParam(
					defaultValue = "") String prefix,
			@Parameter(description = "only this writer's: git, refstore-cli, api or job") @RequestParam(
					required = false) String writer,
			@Parameter(description = "only deletions") @RequestParam(defaultValue = "false") boolean deleted,
			@Parameter(description = "only entries older than this id (a page's 'next')") @RequestParam(
					defaultValue = "0") long before,
			@Parameter(description = "page size, 1 to 1000") @RequestParam(defaultValue = "100") int limit)
			throws IOException {
		return JournalApiController.paged(this.journal.fleet(object, prefix, writer, deleted, before, limit));
	}

}
