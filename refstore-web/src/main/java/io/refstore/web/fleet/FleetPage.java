package io.refstore.web.fleet;

import java.util.List;

/**
 * One page of the fleet's repositories.
 *
 * @param repositories the page, in storage and path order
 * @param total how many repositories match the filter
 * @param next where the next page starts ({@code after}), or {@code null} if this is the
 * last
 */
public record FleetPage(List<FleetRepository> repositories, long total, String next) {

}
