package io.refstore.web.fleet;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;
import org.springframework.web.ErrorResponseException;

import io.refstore.web.repos.RemoteRepos;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Problems;

/**
 * What the API and the console show of the fleet: its nodes, up or down, and every
 * repository of every node, paged and filtered. VIEWER reads; ADMIN retires a node that
 * is down. Thread-safe.
 */
@Service
public class FleetService implements RemoteRepos {

	private final FleetStore store;

	private final FleetProperties properties;

	private final FleetMembership membership;

	FleetService(FleetStore store, FleetProperties properties, FleetMembership membership) {
		this.store = store;
		this.properties = properties;
		this.membership = membership;
	}

	/** This node's name. */
	public String node() {
		return this.membership.node();
	}

	/** The names of the fleet's storages, of every node, sorted. */
	public List<String> storageNames() {
		return this.store.storageNames();
	}

	/** Every node, by name, each up or down. */
	@PreAuthorize("hasRole('VIEWER')")
	public List<FleetNode> nodes() {
		return this.store.nodes(this.properties.downAfter());
	}

	/**
	 * One page of the repositories of every node.
	 * @throws InvalidRequestException (400) for a format other than {@code files} or
	 * {@code reftable}, an {@code after} that names no repository or a limit outside 1 to
	 * {@value FleetFilter#MAX_LIMIT}, naming the parameter
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public FleetPage repositories(FleetFilter filter) {
		checkFormat(filter.format());
		if (filter.after() != null && filter.after().indexOf('/') < 1) {
			throw new InvalidRequestException("after", filter.after(),
					"is not a repository's <storage>/<path> (a page's next)");
		}
		if (filter.limit() < 1 || filter.limit() > FleetFilter.MAX_LIMIT) {
			throw new InvalidRequestException("limit", Integer.toString(filter.limit()),
					"is not between 1 and " + FleetFilter.MAX_LIMIT);
		}
		return this.store.repositories(filter, this.properties.downAfter());
	}

	/**
	 * One page of the fleet's repositories for the console's dashboard, read from the
	 * inventory the nodes keep, with the total that match.
	 * @throws InvalidRequestException (400) for a format other than {@code files} or
	 * {@code reftable}, naming the parameter
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public FleetPage page(FleetQuery query) {
		checkFormat(query.format());
		return this.store.page(query, this.properties.downAfter());
	}

	/** How many of the fleet's repositories match {@code query}, its page aside. */
	@PreAuthorize("hasRole('VIEWER')")
	public long count(FleetQuery query) {
		checkFormat(query.format());
		return this.store.count(query);
	}

	/**
	 * The first {@code limit} repositories matching {@code query} by name, for an action
	 * over all of them (the dashboard's "Maintain all due").
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public List<FleetRepository> first(FleetQuery query, int limit) {
		checkFormat(query.format());
		return this.store.first(query, limit, this.properties.downAfter());
	}

	/** Whether this node holds the storage {@code storage} (and can open its stores). */
	public boolean holdsHere(String storage) {
		return this.membership.holds(storage);
	}

	private static void checkFormat(String format) {
		if (format != null && !List.of("files", "reftable").contains(format)) {
			throw new InvalidRequestException("format", format, "is neither files nor reftable");
		}
	}

	/**
	 * The repositories of the fleet's other nodes (storages this node does not hold), for
	 * schedules and campaigns that select across the fleet: work of the application, so
	 * no role is asked.
	 */
	public List<FleetRepository> elsewhere() {
		return this.store.all(this.properties.downAfter())
			.stream()
			.filter((repository) -> !this.membership.holds(repository.storage()))
			.toList();
	}

	/**
	 * Where the fleet has {@code name} ({@code <storage>/<path>} or a plain path): one
	 * entry per storage holding it, none if no node recorded it.
	 */
	public List<FleetRepository> locate(String name) {
		return this.store.locate(name, this.properties.downAfter());
	}

	/**
	 * A repository another node holds: 503 with {@code Retry-After} while every node
	 * holding it is down (what was last seen of it is never presented as current), 409 if
	 * several storages of other nodes hold the name, 421 naming the node while that node
	 * is up (where the request was not forwarded: no {@code refstore.fleet.secret}).
	 */
	@Override
	public void checkElsewhere(String name) {
		FleetRepository repository = availableElsewhere(name, heldElsewhere(name));
		if (repository != null) {
			throw Problems.exception(HttpStatus.MISDIRECTED_REQUEST, "repository-elsewhere",
					"repository '" + repository.name() + "' is on node '" + repository.node() + "'",
					Map.of("repository", repository.name(), "node", repository.node()));
		}
	}

	/** Where the storages of other nodes hold {@code name}. */
	private List<FleetRepository> heldElsewhere(String name) {
		return locate(name).stream().filter((repository) -> !this.membership.holds(repository.storage())).toList();
	}

	/**
	 * The one repository of {@code found}, on a node that is up; {@code null} if
	 * {@code found} is empty.
	 * @throws ErrorResponseException 409 if there are several, 503 if its node is down
	 */
	private FleetRepository availableElsewhere(String name, List<FleetRepository> found) {
		if (found.isEmpty()) {
			return null;
		}
		if (found.size() > 1) {
			throw Problems.exception(HttpStatus.CONFLICT, "repository-ambiguous",
					"repository '" + Problems.printable(name) + "' is in several storages: name it as one of "
							+ found.stream().map(FleetRepository::name).toList(),
					Map.of("repository", Problems.printable(name), "candidates",
							found.stream().map(FleetRepository::name).toList()));
		}
		FleetRepository repository = found.get(0);
		if (!repository.available()) {
			ErrorResponseException unavailable = Problems.exception(HttpStatus.SERVICE_UNAVAILABLE,
					"repository-unavailable",
					"repository '" + repository.name() + "' is on node '" + repository.node()
							+ "', which is down: nothing was read or written",
					Map.of("repository", repository.name(), "node", repository.node()));
			unavailable.getHeaders()
				.set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, this.properties.downAfter().toSeconds())));
			throw unavailable;
		}
		return repository;
	}

	/**
	 * Where to forward a request for {@code name}: the node holding it, if that is
	 * another node of the fleet, up, with an address; empty if this node answers it (it
	 * holds it, no node does, several storages do, or its node is down: the answer here
	 * says so).
	 */
	public Optional<Target> forwardTarget(String name) {
		List<FleetRepository> found = heldElsewhere(name);
		if (found.size() != 1 || !found.get(0).available() || found.get(0).node().equals(node())) {
			return Optional.empty();
		}
		FleetRepository repository = found.get(0);
		return this.store.url(repository.node()).map((url) -> new Target(repository.node(), url, repository.name()));
	}

	/**
	 * The node that runs jobs on {@code name}: empty if this node holds it (or no node
	 * does, which the launch then says), else the other node holding it.
	 * @throws org.springframework.web.ErrorResponseException 503 if that node is down,
	 * 409 if several storages hold the name
	 */
	public Optional<String> jobNode(String name) {
		return Optional.ofNullable(availableElsewhere(name, heldElsewhere(name))).map(FleetRepository::node);
	}

	/**
	 * A node to forward a request to.
	 *
	 * @param node its name
	 * @param url its address
	 * @param repository the repository's qualified name
	 */
	public record Target(String node, String url, String repository) {
	}

	/**
	 * Removes a node that is down from the fleet, with its storages and their
	 * repositories (a node that comes back registers again).
	 * @throws org.springframework.web.ErrorResponseException 404 if there is no such
	 * node, 409 if it is up
	 */
	@PreAuthorize("hasRole('ADMIN')")
	public void retire(String node) {
		FleetNode found = nodes().stream()
			.filter((candidate) -> candidate.name().equals(node))
			.findFirst()
			.orElseThrow(() -> Problems.exception(HttpStatus.NOT_FOUND, "node-not-found",
					"there is no node '" + node + "' in the fleet", Map.of("node", node)));
		if (found.up()) {
			throw Problems.exception(
					HttpStatus.CONFLICT, "node-up", "node '" + node + "' is up (last heartbeat "
							+ found.heartbeatAgeMillis() / 1000 + " s ago): stop it before retiring it",
					Map.of("node", node));
		}
		this.store.retire(node);
	}

}
