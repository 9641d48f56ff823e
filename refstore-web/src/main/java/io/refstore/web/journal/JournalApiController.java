package io.refstore.web.journal;

import java.io.IOException;
import java.util.List;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

import io.refstore.web.refs.BatchResult;
import io.refstore.web.refs.UpdateOutcome;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * The ref journal of a repository (docs/journal.md): its timeline or one ref's history,
 * its deleted refs, and undoing a change. Pages are keyset-paged newest first: pass a
 * page's {@code next} as {@code before}; the Link header carries the same as
 * {@code rel="next"}, relative to the address asked (the same through any node of a
 * fleet).
 */
@RestController
@RequestMapping("/api/repos/{repo}/journal")
@Tag(name = "journal")
class JournalApiController {

	private final JournalService journal;

	private final JournalRetention retention;

	JournalApiController(JournalService journal, JournalRetention retention) {
		this.journal = journal;
		this.retention = retention;
	}

	@GetMapping
	@Operation(summary = "The repository's ref changes, newest first (VIEWER)",
			description = "Every change the journal recorded: git's through the reference-transaction hook that "
					+ "'refstore journal install' installs, with the writer and the pushing user where the host "
					+ "passed one. Filters combine.")
	ResponseEntity<JournalPage<JournalEntryView>> timeline(@PathVariable String repo,
			@Parameter(description = "only this ref's changes (full name)") @RequestParam(required = false) String ref,
			@Parameter(description = "only refs whose names start with this") @RequestParam(
					defaultValue = "") String prefix,
			@Parameter(description = "only this writer's: git, refstore-cli, api or job") @RequestParam(
					required = false) String writer,
			@Parameter(description = "only entries older than this id (a page's 'next')") @RequestParam(
					defaultValue = "0") long before,
			@Parameter(description = "page size, 1 to 1000") @RequestParam(defaultValue = "100") int limit)
			throws IOException {
		return paged(this.journal.timeline(repo, ref, prefix, writer, before, limit));
	}

	@GetMapping("/status")
	@Operation(summary = "Whether the repository journals its ref changes, and how much was ingested (VIEWER)")
	JournalStatus status(@PathVariable String repo) throws IOException {
		return this.journal.status(repo);
	}

	@GetMapping("/settings")
	@Operation(summary = "Whether the repository journals its ref changes, and what its journal keeps (VIEWER)")
	JournalRetention.Settings settings(@PathVariable String repo) throws IOException {
		return this.retention.settings(repo);
	}

	@PutMapping("/settings")
	@Operation(summary = "Switch journaling on or off, set what the journal keeps (ADMIN)",
			description = "enabled: true installs the journal's hook (and takes its base), false removes it (the "
					+ "entries stay); maxAgeDays and maxEntries set this repository's retention, 0 the default. "
					+ "A field left out is left as it is. Audited as journal.settings.")
	JournalRetention.Settings changeSettings(@PathVariable String repo, @RequestBody JournalRetention.Change change)
			throws IOException {
		return this.retention.change(repo, change);
	}

	@GetMapping("/deleted")
	@Operation(summary = "Refs the journal saw deleted that do not exist now, newest deletion first (VIEWER)",
			description = "Each with who deleted it and when, the last object id the journal knows it held, and "
					+ "whether that object still exists (a ref whose object was pruned cannot be restored). A "
					+ "page can hold fewer than 'limit' refs: deleted refs that exist again are left out.")
	ResponseEntity<JournalPage<DeletedRefView>> deleted(@PathVariable String repo,
			@Parameter(description = "only refs whose names start with this") @RequestParam(
					defaultValue = "") String prefix,
			@Parameter(description = "only deletions older than this entry id (a page's 'next')") @RequestParam(
					defaultValue = "0") long before,
			@Parameter(description = "page size, 1 to 1000") @RequestParam(defaultValue = "100") int limit)
			throws IOException {
		return paged(this.journal.deleted(repo, prefix, before, limit));
	}

	/**
	 * @param refs the full names of the deleted refs to restore
	 */
	record RestoreRequest(List<String> refs) {
	}

	@PostMapping("/deleted:restore")
	@Operation(summary = "Create deleted refs again at their last value, all or none (ADMIN)",
			description = "Each only if it does not exist now (409 otherwise); 422 if an object is gone. Audited "
					+ "as journal.restore.")
	BatchResult restore(@PathVariable String repo, @RequestBody RestoreRequest request) throws IOException {
		return this.journal.restore(repo, (request == null) ? null : request.refs());
	}

	@PostMapping("/{entry}/undo")
	@Operation(summary = "Undo one change: move a ref back to its value before, or restore a deletion (ADMIN)",
			description = "A move is undone only while the ref still holds the value the change set (412 "
					+ "otherwise); a creation or a symbolic ref's change is not undone here (409).")
	UpdateOutcome undo(@PathVariable String repo, @PathVariable long entry) throws IOException {
		return this.journal.undo(repo, entry);
	}

	static <T> ResponseEntity<JournalPage<T>> paged(JournalPage<T> page) {
		ResponseEntity.BodyBuilder response = ResponseEntity.ok();
		if (page.next() != null) {
			// relative, as the refs' pages link theirs: a request another node of the
			// fleet forwarded names that node's address, not the one the client asked
			String next = ServletUriComponentsBuilder.fromCurrentRequest()
				.scheme(null)
				.host(null)
				.port(null)
				.replaceQueryParam("before", page.next())
				.build()
				.toUriString();
			response.header(HttpHeaders.LINK, "<" + next + ">; rel=\"next\"");
		}
		return response.body(page);
	}

}
