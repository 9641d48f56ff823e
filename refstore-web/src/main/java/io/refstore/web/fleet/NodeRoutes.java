package io.refstore.web.fleet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.stereotype.Component;

import io.refstore.core.input.RefusedInputException;
import io.refstore.web.repos.RepoRegistry;

/**
 * What a node of the fleet may ask of this one with a node credential: only a node that
 * is registered and up, only on the routes nodes forward ({@link ForwardedRoutes}), and
 * only for a repository this node holds and the sender does not (else the sender would
 * have served it itself). Tokens, users, the audit log, the actuator and the fleet's
 * administration are never among them. Thread-safe.
 */
@Component
class NodeRoutes implements NodeChannel {

	private final FleetStore store;

	private final FleetProperties properties;

	private final FleetMembership membership;

	private final RepoRegistry registry;

	NodeRoutes(FleetStore store, FleetProperties properties, FleetMembership membership, RepoRegistry registry) {
		this.store = store;
		this.properties = properties;
		this.membership = membership;
		this.registry = registry;
	}

	@Override
	public String node() {
		return this.membership.node();
	}

	@Override
	public String refusal(String sender, HttpServletRequest request) {
		if (sender.equals(node()) || !this.store.up(sender, this.properties.downAfter())) {
			return "node '" + sender + "' is not a node of the fleet that is up";
		}
		Optional<String> repository;
		try {
			repository = ForwardedRoutes.repository(request);
		}
		catch (IllegalArgumentException ex) {
			return "a node credential carries only a repository's requests, and this one names none";
		}
		if (repository.isEmpty()) {
			return "a node credential carries only a repository's requests and pages, not " + request.getMethod() + " "
					+ request.getRequestURI();
		}
		Optional<String> storage;
		try {
			storage = this.registry.storageOf(repository.get());
		}
		catch (RefusedInputException ex) {
			// a node forwards only names it resolved
			storage = Optional.empty();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		if (storage.isEmpty()) {
			return "node '" + node() + "' does not hold the repository this node credential names";
		}
		if (this.store.holds(sender, storage.get())) {
			return "node '" + sender + "' holds storage '" + storage.get() + "' itself";
		}
		return null;
	}

}
