package io.refstore.web.refs;

import java.io.IOException;
import java.util.Map;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Problems;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * Writes refs (ADMIN): an atomic batch, or one ref with its expected old value as a
 * precondition. For PUT and DELETE a precondition is required (428 without one):
 * {@code If-Match: "<sha>"} (the ETag of GET .../refs/{ref}) or, to create,
 * {@code If-None-Match: *}.
 */
@RestController
@RequestMapping("/api/repos/{repo}")
@Tag(name = "refs")
class RefWriteApiController {

	private final RefWriteService writes;

	RefWriteApiController(RefWriteService writes) {
		this.writes = writes;
	}

	@PostMapping("/refs:batch")
	@Operation(summary = "Apply updates {ref, old, new} all or none (ADMIN)",
			description = "old: absent for no check, all zeros for 'must not exist'; new: all zeros deletes. "
					+ "409 lists the mismatches, 422 the missing objects.")
	BatchResult batchUpdate(@PathVariable String repo, @RequestBody BatchRequest request) throws IOException {
		return this.writes.batch(repo, request);
	}

	/**
	 * @param sha the new value
	 */
	record SetRefRequest(String sha) {
	}

	@PutMapping("/refs/{ref}")
	@Operation(summary = "Create or move one ref, if it holds the value in If-Match (ADMIN)")
	ResponseEntity<RefView> setRef(@PathVariable String repo,
			@Parameter(description = "full ref name, '/' encoded as %2F") @PathVariable String ref,
			@RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch,
			@RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch,
			@RequestBody SetRefRequest request) throws IOException {
		boolean create = "*".equals((ifNoneMatch == null) ? null : ifNoneMatch.strip());
		if (create && ifMatch != null) {
			throw new InvalidRequestException(HttpHeaders.IF_MATCH, ifMatch,
					"send either If-Match or If-None-Match: *");
		}
		String expected = create ? RefWriteService.MUST_NOT_EXIST : expected(ifMatch);
		// the write and the view under one opening: a second one could meet a swap that
		// began after the write and answer 503 for a write that was made
		RefView view = this.writes.putAndShow(repo, ref, (request == null) ? null : request.sha(), expected);
		return ResponseEntity.status(create ? HttpStatus.CREATED : HttpStatus.OK).eTag(view.object().sha()).body(view);
	}

	@DeleteMapping("/refs/{ref}")
	@Operation(summary = "Delete one ref, if it holds the value in If-Match (ADMIN)")
	ResponseEntity<Void> deleteRef(@PathVariable String repo, @PathVariable String ref,
			@RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch) throws IOException {
		this.writes.delete(repo, ref, expected(ifMatch));
		return ResponseEntity.noContent().build();
	}

	private static String expected(String ifMatch) {
		if (ifMatch == null || ifMatch.isBlank()) {
			throw Problems.exception(HttpStatus.PRECONDITION_REQUIRED, "precondition-required",
					"send the ref's expected current value as If-Match: \"<sha>\" (or If-None-Match: * to create)",
					Map.of("parameter", HttpHeaders.IF_MATCH));
		}
		String value = ifMatch.strip();
		if (value.contains(",") || value.equals("*") || value.startsWith("W/")) {
			throw new InvalidRequestException(HttpHeaders.IF_MATCH, value,
					"it must be exactly one strong entity tag, the " + "ref's current object id in quotes");
		}
		return EntityTags.strip(value);
	}

}
