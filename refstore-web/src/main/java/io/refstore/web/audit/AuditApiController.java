package io.refstore.web.audit;

import java.time.Instant;

import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Problems;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

/** {@code GET /api/audit}: the audit log, newest first, for OPERATOR and ADMIN. */
@RestController
@RequestMapping("/api/audit")
@Tag(name = "audit")
class AuditApiController {

	private final AuditLog audit;

	AuditApiController(AuditLog audit) {
		this.audit = audit;
	}

	@GetMapping
	@Operation(summary = "Audit entries matching the filters, newest first (OPERATOR)",
			description = "Keyset paging: pass a page's 'next' as 'before'. Times are ISO-8601 instants.")
	AuditPage searchAudit(@RequestParam(required = false) String actor, @RequestParam(required = false) String action,
			@RequestParam(required = false) String repository,
			@RequestParam(required = false) AuditEntry.Outcome outcome,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant from,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant to,
			@RequestParam(required = false) Long before, @RequestParam(defaultValue = "100") int limit) {
		if (limit < 1 || limit > 1000) {
			throw new InvalidRequestException("limit", Integer.toString(limit), "it must be between 1 and 1000");
		}
		return this.audit.search(new AuditFilter(actor, action, repository, outcome, from, to, before, limit));
	}

}
