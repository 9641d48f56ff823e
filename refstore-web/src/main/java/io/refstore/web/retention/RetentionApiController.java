package io.refstore.web.retention;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * What the database keeps of the audit log, the inventory history, the job history and
 * the schedules' runs (docs/operators.md, "Retention").
 */
@RestController
@Tag(name = "retention")
class RetentionApiController {

	private final DataRetention retention;

	RetentionApiController(DataRetention retention) {
		this.retention = retention;
	}

	@GetMapping("/api/retention")
	@Operation(summary = "What each kind of record holds and keeps, and this node's last sweep (ADMIN)")
	DataRetention.Figures figures() {
		return this.retention.figures();
	}

	@PostMapping("/api/retention:sweep")
	@Operation(summary = "Delete now what the retention lets go (ADMIN)")
	DataRetention.Sweep sweep() {
		return this.retention.sweepNow();
	}

}
