package io.refstore.web.console.audit;

import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import io.refstore.web.audit.AuditFilter;
import io.refstore.web.audit.AuditLog;
import io.refstore.web.audit.AuditPage;
import io.refstore.web.console.system.ConsoleUser;

/**
 * The audit log, newest first, filtered by user, action and repository, paged by the id
 * cursor the log returns. OPERATOR and ADMIN may read it, as through the API.
 */
@Controller
class AuditController {

	static final String VIEWS_AUDIT_LIST = "audit/auditList";

	private final AuditLog audit;

	private final RoleHierarchy hierarchy;

	AuditController(AuditLog audit, RoleHierarchy hierarchy) {
		this.audit = audit;
		this.hierarchy = hierarchy;
	}

	@GetMapping("/audit")
	String showAudit(@RequestParam(required = false) String actor, @RequestParam(required = false) String action,
			@RequestParam(required = false) String repo, @RequestParam(required = false) Long before, Model model) {
		ConsoleUser user = ConsoleUser.of(SecurityContextHolder.getContext().getAuthentication(), this.hierarchy);
		if (!user.operator()) {
			throw new AccessDeniedException("the audit log needs the role OPERATOR");
		}
		AuditFilter filter = new AuditFilter(blankToNull(actor), blankToNull(action), blankToNull(repo), null, null,
				null, before, 100);
		AuditPage page = this.audit.search(filter);
		model.addAttribute("page", page);
		model.addAttribute("filter", filter);
		return VIEWS_AUDIT_LIST;
	}

	private static String blankToNull(String value) {
		return (value == null || value.isBlank()) ? null : value;
	}

}
