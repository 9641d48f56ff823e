package io.refstore.web.audit;

/**
 * Which node of the fleet forwarded the request being handled for its user: what
 * {@link AuditLog} records as an entry's {@code via}. The fleet, which authenticates
 * forwarded requests, provides it.
 */
@FunctionalInterface
public interface ForwardedBy {

	/** The forwarding node, or {@code null} for a request made here. */
	String node();

}
