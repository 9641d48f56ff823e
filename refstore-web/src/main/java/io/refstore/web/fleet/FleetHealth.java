package io.refstore.web.fleet;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.stereotype.Component;

/**
 * The fleet in this node's health ({@code /actuator/health}, component {@code fleet}):
 * whether this node proved the fleet's secret, and for every other node that is up
 * whether it answers HTTP at its address within {@link #TIMEOUT} (any answer: to an
 * anonymous caller {@code /actuator/health/ping} is a 404, and the whole health would ask
 * that node's fleet health, which would ask this one's again; at an {@code https}
 * address, a failed TLS handshake, such as a certificate this node does not trust, is
 * said in {@code tls}) and whether it accepts this node's credentials (it proved the same
 * secret at its start). Up when every peer answers and accepts them; {@code DEGRADED}
 * otherwise, which leaves the node's own status as it is: a peer's trouble is no reason
 * to stop sending this node requests. Thread-safe.
 */
@Component("fleet")
class FleetHealth implements HealthIndicator {

	/** A peer whose answer takes longer is unreachable. */
	static final Duration TIMEOUT = Duration.ofSeconds(5);

	static final Status DEGRADED = new Status("DEGRADED",
			"a node of the fleet is unreachable or refuses this node's" + " credentials");

	private final FleetStore store;

	private final FleetProperties properties;

	private final FleetMembership membership;

	private final FleetTrust trust;

	private final HttpClient http;

	FleetHealth(FleetStore store, FleetProperties properties, FleetMembership membership, FleetTrust trust,
			FleetHttp http) {
		this.store = store;
		this.properties = properties;
		this.membership = membership;
		this.trust = trust;
		this.http = http.client();
	}

	@Override
	public Health health() {
		String mine = this.trust.check();
		List<FleetStore.Peer> peers = this.store.peers(this.membership.node(), this.properties.downAfter());
		Map<String, CompletableFuture<Reach>> answers = new LinkedHashMap<>();
		peers.forEach((peer) -> answers.put(peer.name(), reach(peer)));
		Map<String, Object> details = new LinkedHashMap<>();
		boolean healthy = true;
		for (FleetStore.Peer peer : peers) {
			Reach reach = answers.get(peer.name()).join();
			String credentials = credentials(mine, peer);
			healthy &= reach == Reach.ANSWERED && credentials.equals("accepted");
			Map<String, Object> detail = new LinkedHashMap<>();
			detail.put("reachable", reach == Reach.ANSWERED);
			if (reach == Reach.TLS_FAILED) {
				detail.put("tls", FleetHttp.TLS_FAILURE);
			}
			detail.put("credentials", credentials);
			details.put(peer.name(), detail);
		}
		return Health.status(healthy ? Status.UP : DEGRADED)
			.withDetail("node", this.membership.node())
			.withDetail("secret",
					(mine != null) ? "proven against the fleet's check"
							: "none: this node neither forwards nor accepts forwarded requests")
			.withDetail("peers", details)
			.build();
	}

	private static String credentials(String mine, FleetStore.Peer peer) {
		if (mine == null || peer.secretCheck() == null) {
			return "none";
		}
		return (mine.equals(peer.secretCheck()) || mine.equals(peer.previousCheck())) ? "accepted" : "refused";
	}

	private CompletableFuture<Reach> reach(FleetStore.Peer peer) {
		if (peer.url() == null) {
			return CompletableFuture.completedFuture(Reach.FAILED);
		}
		try {
			HttpRequest ping = HttpRequest.newBuilder(URI.create(peer.url() + "/actuator/health/ping"))
				.timeout(TIMEOUT)
				.GET()
				.build();
			return this.http.sendAsync(ping, HttpResponse.BodyHandlers.discarding())
				.handle((answer, failure) -> (failure == null) ? Reach.ANSWERED
						: FleetHttp.tlsFailure(failure) ? Reach.TLS_FAILED : Reach.FAILED);
		}
		catch (IllegalArgumentException ex) {
			return CompletableFuture.completedFuture(Reach.FAILED);
		}
	}

	/** How a peer's ping went. */
	private enum Reach {

		ANSWERED, TLS_FAILED, FAILED

	}

}
