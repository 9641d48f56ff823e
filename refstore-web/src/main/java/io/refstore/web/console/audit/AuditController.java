package io.refstore.web.console.audit;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import io.refstore.web.audit.AuditEntry;
import io.refstore.web.audit.AuditFilter;
import io.refstore.web.audit.AuditLog;
import io.refstore.web.audit.AuditPage;
import io.refstore.web.console.ConsoleController;
import io.refstore.web.console.ConsoleUser;

/**
 * The audit log, newest first, filtered by user, action, repository, outcome and time
 * (UTC), paged by the id cursor the log returns. OPERATOR and ADMIN may read it, as
 * through the API.
 */
@ConsoleController
class AuditController {

	static final String VIEWS_AUDIT_LIST = "audit/auditList";

	static final int PAGE_SIZE = 100;

	private final AuditLog audit;

	private final RoleHierarchy hierarchy;

	AuditController(AuditLog audit, RoleHierarchy hierarchy) {
		this.audit = audit;
		this.hierarchy = hierarchy;
	}

	@GetMapping("/audit")
	String showAudit(@RequestParam(required = false) String actor, @RequestParam(required = false) String action,
			@RequestParam(required = false) String repo, @RequestParam(required = false) AuditEntry.Outcome outcome,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) LocalDateTime from,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) LocalDateTime to,
			@RequestParam(required = false) Long before, Model model) {
		ConsoleUser user = ConsoleUser.of(SecurityContextHolder.getContext().getAuthentication(), this.hierarchy);
		if (!user.operator()) {
			throw new AccessDeniedException("the audit log needs the role OPERATOR");
		}
		AuditFilter filter = new AuditFilter(blankToNull(actor), blankToNull(action), blankToNull(repo), outcome,
				utc(from), utc(to), before, PAGE_SIZE);
		AuditPage page = this.audit.search(filter);
		model.addAttribute("page", page);
		model.addAttribute("position", this.audit.position(filter));
		model.addAttribute("filter", filter);
		model.addAttribute("from", from);
		model.addAttribute("to", to);
		model.addAttribute("outcomes", AuditEntry.Outcome.values());
		return VIEWS_AUDIT_LIST;
	}

	/** A time the form gives without a zone, which the form says is UTC. */
	private static Instant utc(LocalDateTime time) {
		return (time != null) ? time.toInstant(ZoneOffset.UTC) : null;
	}

	private static String blankToNull(String value) {
		return (value == null || value.isBlank()) ? null : value;
	}

}
