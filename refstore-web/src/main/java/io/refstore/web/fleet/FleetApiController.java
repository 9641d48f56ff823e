package io.refstore.web.fleet;

import java.util.List;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * {@code /api/fleet}: the nodes of the fleet and the repositories of all of them, as the
 * database (the control plane) knows them; the same answer on every node.
 */
@RestController
@RequestMapping("/api/fleet")
@Tag(name = "fleet")
class FleetApiController {

	private final FleetService fleet;

	FleetApiController(FleetService fleet) {
		this.fleet = fleet;
	}

	@GetMapping("/nodes")
	@Operation(summary = "Every node with its storages, heartbeat and whether it is up (VIEWER)")
	List<FleetNode> nodes() {
		return this.fleet.nodes();
	}

	@GetMapping("/repositories")
	@Operation(summary = "The repositories of every node, paged, in storage and path order (VIEWER)",
			description = "Filters: node, storage, format (files or reftable), maintenanceDue, q (part of the path)."
					+ " Pages: limit (1 to 500, default 100) and after, the page's next. A repository whose node is"
					+ " down is listed as last seen, with available false.")
	FleetPage repositories(@RequestParam(required = false) String node, @RequestParam(required = false) String storage,
			@RequestParam(required = false) String format, @RequestParam(required = false) Boolean maintenanceDue,
			@RequestParam(required = false) String q, @RequestParam(required = false) String after,
			@RequestParam(defaultValue = "100") int limit) {
		return this.fleet.repositories(new FleetFilter(blank(node), blank(storage), blank(format), maintenanceDue,
				blank(q), blank(after), limit));
	}

	@DeleteMapping("/nodes/{node}")
	@Operation(summary = "Retire a node that is down, with its storages (ADMIN)",
			description = "204 once removed; 404 for an unknown node, 409 while it is up. A node that starts again"
					+ " registers again.")
	ResponseEntity<Void> retire(@PathVariable String node) {
		this.fleet.retire(node);
		return ResponseEntity.noContent().build();
	}

	private static String blank(String value) {
		return (value == null || value.isBlank()) ? null : value;
	}

}
