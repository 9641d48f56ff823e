package io.refstore.web.inventory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

/**
 * The inventory charts' figures, as the JSON {@code charts.js} reads for a time series
 * (x: seconds since the epoch of each run; one series of values per x), written by the
 * application's mapper: refs per namespace at each run (0 where a run had none of a
 * namespace), and the growth per week at each run ({@code null}, no point, where it is
 * unknown).
 */
@Component
class InventoryCharts {

	private final JsonMapper json;

	InventoryCharts(JsonMapper json) {
		this.json = json;
	}

	String namespaces(InventoryService.History history) {
		TreeSet<String> names = new TreeSet<>();
		history.runs().forEach((run) -> run.namespaces().forEach((ns) -> names.add(ns.namespace())));
		Map<String, List<Long>> values = new LinkedHashMap<>();
		names.forEach((name) -> values.put(name, new ArrayList<>()));
		for (InventoryRecord run : history.runs()) {
			Map<String, Long> counts = new LinkedHashMap<>();
			run.namespaces().forEach((ns) -> counts.put(ns.namespace(), ns.refs()));
			values.forEach((name, list) -> list.add(counts.getOrDefault(name, 0L)));
		}
		List<Series> series = new ArrayList<>();
		values.forEach((name, list) -> series.add(new Series(name, "refs", list)));
		return this.json.writeValueAsString(new Chart(x(history), series));
	}

	String growth(InventoryService.History history) {
		List<Long> values = history.growthSeries().stream().map(Growth::perWeek).toList();
		return this.json
			.writeValueAsString(new Chart(x(history), List.of(new Series("refs per week", "refs per week", values))));
	}

	private static List<Long> x(InventoryService.History history) {
		return history.runs().stream().map((run) -> run.recordedAt().getEpochSecond()).toList();
	}

	/** The chart: one x per run, and the series drawn over them. */
	record Chart(List<Long> x, List<Series> series) {

	}

	/** The values of one series, on its scale. */
	record Series(String label, String scale, List<Long> values) {

	}

}
