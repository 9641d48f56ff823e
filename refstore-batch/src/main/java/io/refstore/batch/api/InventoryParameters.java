package io.refstore.batch.api;

import java.util.Map;

/**
 * {@code inventoryRefsJob}'s parameters: it takes none besides the repository (how old a
 * stale ref is comes from {@code refstore.inventory.stale-after}, one setting for every
 * run, so that runs compare).
 */
public record InventoryParameters() implements RefJobParameters {

	@Override
	public RefJobType type() {
		return RefJobType.INVENTORY;
	}

	@Override
	public Map<String, String> toMap() {
		return Map.of();
	}

}
