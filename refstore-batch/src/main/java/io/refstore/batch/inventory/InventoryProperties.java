package io.refstore.batch.inventory;

import java.time.Duration;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The inventory job's settings ({@code refstore.inventory.*}); the web application reads
 * the same prefix for its growth alert.
 *
 * @param staleAfter how old a ref's creator date must be for the ref to count as stale
 * (default 90 days); one setting for every run, so that the history's counts compare
 */
@ConfigurationProperties("refstore.inventory")
@Validated
record InventoryProperties(@DefaultValue("90d") @DurationMin(seconds = 1) Duration staleAfter) {

}
