package io.refstore.web.journal;

import java.util.List;

/**
 * A page of a journal query, newest first.
 *
 * @param items the page
 * @param next the {@code before} of the following page, or {@code null} after the last
 * @param <T> what the page lists
 */
public record JournalPage<T>(List<T> items, Long next) {

}
