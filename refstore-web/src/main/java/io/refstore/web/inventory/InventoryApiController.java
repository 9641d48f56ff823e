package io.refstore.web.inventory;

import java.time.Instant;
import java.util.List;

import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * The inventory history as JSON: a repository's runs over a period with its growth, and
 * the newest run of every repository. Runs are recorded by {@code inventoryRefsJob},
 * which {@code POST /api/jobs/inventories}, schedules and campaigns launch.
 */
@RestController
@Tag(name = "inventory")
class InventoryApiController {

	private final InventoryService inventory;

	InventoryApiController(InventoryService inventory) {
		this.inventory = inventory;
	}

	@GetMapping("/api/repos/{repo}/inventory")
	@Operation(summary = "A repository's inventory history and its growth per week (VIEWER)",
			description = "from and to are ISO-8601 instants bounding recordedAt, to exclusive; from defaults to 90 "
					+ "days ago, to to none. At most the newest 1000 runs of the period, oldest first. growth compares "
					+ "the newest run with the oldest of the 7 days before it: change is the refs gained between them,"
					+ " perWeek that as a weekly rate once they lie a day apart or more (null before); fast means above"
					+ " refstore.inventory.growth-alert-per-week (by the change alone for runs less than a day apart).")
	InventoryService.History showInventory(@PathVariable String repo,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant from,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant to) {
		return this.inventory.history(repo, from, to);
	}

	@GetMapping("/api/inventory")
	@Operation(summary = "The newest inventory run of every repository, with its growth per week (VIEWER)")
	List<InventoryService.Latest> listInventory() {
		return this.inventory.latest();
	}

}
