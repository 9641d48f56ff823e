package io.refstore.web.audit;

/**
 * Where a page of the audit log is among the entries its filter matches.
 *
 * @param newer the matching entries newer than the page (the page starts after them)
 * @param total every matching entry
 */
public record AuditPosition(long newer, long total) {

}
