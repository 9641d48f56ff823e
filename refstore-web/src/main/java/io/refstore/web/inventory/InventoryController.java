package io.refstore.web.inventory;

import java.util.ArrayList;
import java.util.List;

import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import io.refstore.web.console.ConsoleController;

/**
 * A repository's inventory history, the part of its page that htmx loads separately: its
 * growth per week (flagged when faster than the alert rate), the charts "Refs per
 * namespace over time" and "Growth per week" with the same figures in a table, newest run
 * first, over the last {@link InventoryService#DEFAULT_PERIOD}, and for OPERATOR a button
 * that runs the inventory now.
 */
@ConsoleController
class InventoryController {

	static final String VIEWS_INVENTORY = "repos/inventory :: inventory";

	private final InventoryService inventory;

	private final InventoryCharts charts;

	InventoryController(InventoryService inventory, InventoryCharts charts) {
		this.inventory = inventory;
		this.charts = charts;
	}

	/**
	 * One run of the table with the growth at it.
	 *
	 * @param run the run
	 * @param growth the growth per week at that run
	 */
	record Row(InventoryRecord run, Growth growth) {

	}

	@GetMapping("/repo/inventory")
	String showInventory(@RequestParam String name, Model model) {
		InventoryService.History history = this.inventory.history(name, null, null);
		List<Growth> growth = history.growthSeries();
		List<Row> rows = new ArrayList<>();
		for (int i = history.runs().size() - 1; i >= 0; i--) {
			rows.add(new Row(history.runs().get(i), growth.get(i)));
		}
		model.addAttribute("repoName", name);
		model.addAttribute("inventory", history);
		model.addAttribute("inventoryRows", rows);
		model.addAttribute("namespaceChart", this.charts.namespaces(history));
		model.addAttribute("growthChart", this.charts.growth(history));
		return VIEWS_INVENTORY;
	}

}
