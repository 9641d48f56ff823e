package io.refstore.web.inventory;

import jakarta.validation.constraints.Positive;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The inventory history's settings as the web application reads them
 * ({@code refstore.inventory.*}; the job's own, {@code stale-after}, are the batch
 * module's).
 *
 * @param growthAlertPerWeek refs per week above which a repository is flagged as growing
 * fast (default 10,000); see {@link Growth} for the exact rule
 */
@ConfigurationProperties("refstore.inventory")
@Validated
public record InventorySettings(@DefaultValue("10000") @Positive long growthAlertPerWeek) {

}
