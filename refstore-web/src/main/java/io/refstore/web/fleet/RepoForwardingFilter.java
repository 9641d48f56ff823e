package io.refstore.web.fleet;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UriComponentsBuilder;

import tools.jackson.databind.json.JsonMapper;

import io.refstore.web.audit.AuditEntry;
import io.refstore.web.repos.RepoRegistry;
import io.refstore.web.system.Problems;

/**
 * Sends a repository's API requests ({@code /api/repos/{repo}/...}), console pages
 * ({@code GET /repo...?name=...}, with this node's CSRF token for the forms they render)
 * and the forms posted from them ({@code POST /repo/...}) to the node that holds it, when
 * that is another node of the fleet and it is up: after this node's security has
 * authenticated the user and checked the role the URL needs, the request goes to that
 * node with the user's name and roles signed by the fleet's secret
 * ({@link NodeSignature}; never the user's credentials), and its answer comes back as it
 * was given: status, {@code ETag}, {@code Location} (made relative where it names that
 * node, so a redirect leads back through this one), problem bodies; never a cookie of
 * that node. The node that serves it checks the roles again on its services and names the
 * user in its audit entries (with {@code via}); this node audits a forwarded change as
 * {@code request.forwarded}. A node that cannot be reached answers 503 with
 * {@code Retry-After}; one that refuses this node's credential, 502 (the user's own
 * sign-in is not in question), and so does one whose TLS handshake fails
 * ({@link FleetHttp}). Requests a node forwarded are never forwarded again. Without
 * {@code refstore.fleet.secret} nothing is forwarded.
 */
@Component
class RepoForwardingFilter extends OncePerRequestFilter {

	private static final Logger logger = LoggerFactory.getLogger(RepoForwardingFilter.class);

	/** Request headers passed on; the identity goes in {@link NodeSignature}'s. */
	private static final List<String> PASSED = List.of(HttpHeaders.CONTENT_TYPE, HttpHeaders.ACCEPT,
			HttpHeaders.IF_MATCH, HttpHeaders.IF_NONE_MATCH, HttpHeaders.ACCEPT_LANGUAGE, "HX-Request", "HX-Target",
			"HX-Current-URL");

	/**
	 * Response headers not passed back: the connection's own, what the servlet sets, and
	 * a cookie of the serving node (a session it made, to keep a form's flash message,
	 * say): the browser's session is this node's, and the same host's cookie of another
	 * node would replace it, signing the user out here.
	 */
	private static final Set<String> HOP = Set.of("connection", "keep-alive", "transfer-encoding", "content-length",
			"upgrade", "proxy-authenticate", "trailer", "te", ":status", "date", "server", "set-cookie", "set-cookie2");

	private static final Duration TIMEOUT = Duration.ofSeconds(120);

	private final FleetService fleet;

	private final RepoRegistry registry;

	private final ObjectProvider<NodeSignature> signature;

	private final ApplicationEventPublisher events;

	private final JsonMapper json;

	private final FleetProperties properties;

	private final HttpClient http;

	RepoForwardingFilter(FleetService fleet, RepoRegistry registry, ObjectProvider<NodeSignature> signature,
			ApplicationEventPublisher events, JsonMapper json, FleetProperties properties, FleetHttp http) {
		this.fleet = fleet;
		this.registry = registry;
		this.signature = signature;
		this.events = events;
		this.json = json;
		this.properties = properties;
		this.http = http.client();
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !ForwardedRoutes.forwarded(request);
	}

	/**
	 * A posted form's body, made again from its fields (this node's security read them
	 * already, to check the CSRF token, so the stream is spent); fields of the query
	 * string stay in the query string.
	 */
	private static byte[] formBody(HttpServletRequest request) {
		Set<String> inQuery = UriComponentsBuilder.fromUriString("?" + Objects.toString(request.getQueryString(), ""))
			.build()
			.getQueryParams()
			.keySet();
		StringBuilder body = new StringBuilder();
		request.getParameterMap().forEach((name, values) -> {
			if (!inQuery.contains(name)) {
				for (String value : values) {
					body.append(body.isEmpty() ? "" : "&")
						.append(URLEncoder.encode(name, StandardCharsets.UTF_8))
						.append('=')
						.append(URLEncoder.encode(value, StandardCharsets.UTF_8));
				}
			}
		});
		return body.toString().getBytes(StandardCharsets.UTF_8);
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		Optional<FleetService.Target> target = target(request);
		if (target.isEmpty()) {
			chain.doFilter(request, response);
			return;
		}
		forward(request, response, target.get());
	}

	/** Where the request goes, if another node serves it. */
	private Optional<FleetService.Target> target(HttpServletRequest request) throws IOException {
		NodeSignature signature = this.signature.getIfAvailable();
		Authentication user = SecurityContextHolder.getContext().getAuthentication();
		if (signature == null || user == null || !user.isAuthenticated()
				|| request.getHeader(NodeSignature.NODE) != null) {
			return Optional.empty();
		}
		try {
			Optional<String> name = ForwardedRoutes.repository(request);
			if (name.isEmpty() || this.registry.holds(name.get())) {
				return Optional.empty();
			}
			return this.fleet.forwardTarget(name.get());
		}
		catch (IllegalArgumentException ex) {
			// a malformed name or encoding: answered here, naming what is wrong
			return Optional.empty();
		}
	}

	private void forward(HttpServletRequest request, HttpServletResponse response, FleetService.Target target)
			throws IOException {
		Authentication user = SecurityContextHolder.getContext().getAuthentication();
		String roles = user.getAuthorities()
			.stream()
			.map(GrantedAuthority::getAuthority)
			.filter((authority) -> authority.startsWith("ROLE_"))
			.collect(Collectors.joining(","));
		String query = request.getQueryString();
		String pathAndQuery = request.getRequestURI() + ((query != null) ? "?" + query : "");
		boolean console = ForwardedRoutes.console(request);
		byte[] body = (console && "POST".equals(request.getMethod())) ? formBody(request)
				: request.getInputStream().readAllBytes();
		HttpRequest.Builder forwarded = HttpRequest.newBuilder(URI.create(target.url() + pathAndQuery))
			.timeout(TIMEOUT)
			.method(request.getMethod(), (body.length == 0) ? HttpRequest.BodyPublishers.noBody()
					: HttpRequest.BodyPublishers.ofByteArray(body));
		for (String header : PASSED) {
			String value = request.getHeader(header);
			if (value != null) {
				forwarded.header(header, value);
			}
		}
		String csrf = console ? ForwardedCsrfTokenRepository.rawToken(request) : null;
		if (csrf != null) {
			forwarded.header(ForwardedCsrfTokenRepository.HEADER, csrf);
		}
		this.signature.getObject()
			.sign(this.fleet.node(), target.node(), request.getMethod(), pathAndQuery, user.getName(), roles, body)
			.forEach(forwarded::header);
		HttpResponse<byte[]> answer;
		try {
			answer = this.http.send(forwarded.build(), HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (IOException ex) {
			if (FleetHttp.tlsFailure(ex)) {
				untrusted(response, target, ex);
			}
			else {
				unreachable(response, target, ex);
			}
			return;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			unreachable(response, target, ex);
			return;
		}
		logger.debug("{} {} forwarded to node '{}': {}", request.getMethod(), pathAndQuery, target.node(),
				answer.statusCode());
		if (answer.statusCode() == HttpStatus.UNAUTHORIZED.value()) {
			// the user was authenticated here: that node refused this node's credential
			credentialRefused(request, response, target, answer);
			return;
		}
		response.setStatus(answer.statusCode());
		answer.headers().map().forEach((header, values) -> {
			if (passedBack(header)) {
				response.setHeader(header, null);
				boolean location = HttpHeaders.LOCATION.equalsIgnoreCase(header);
				values.forEach((value) -> response.addHeader(header, location ? here(value, target.url()) : value));
			}
		});
		response.getOutputStream().write(answer.body());
		if (!"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod())) {
			this.events.publishEvent(AuditEntry.of(user.getName(), "request.forwarded", target.repository(),
					target.node(), Map.of("method", request.getMethod(), "path", request.getRequestURI()),
					outcome(answer.statusCode()),
					request.getMethod() + " answered " + answer.statusCode() + " by node '" + target.node() + "'"));
		}
	}

	/** Whether a header of the serving node's answer goes back to the client. */
	static boolean passedBack(String header) {
		return !HOP.contains(header.toLowerCase(Locale.ROOT));
	}

	/**
	 * A {@code Location} the serving node gave, as the browser must follow it: one naming
	 * that node ({@code node}, its URL; Tomcat makes a redirect absolute from the
	 * request's {@code Host}, which is that node's) made relative, so that it leads back
	 * through this node, where the user's session is, as every path a node serves is the
	 * same on each; any other is passed on as it is.
	 */
	static String here(String location, String node) {
		URI uri;
		URI base;
		try {
			uri = new URI(location);
			base = new URI(node);
		}
		catch (URISyntaxException ex) {
			return location;
		}
		if (!uri.isAbsolute() || uri.getRawAuthority() == null || base.getHost() == null
				|| !uri.getScheme().equalsIgnoreCase(base.getScheme())
				|| !uri.getHost().equalsIgnoreCase(base.getHost()) || port(uri) != port(base)) {
			return location;
		}
		String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty()) ? "/" : uri.getRawPath();
		return path + ((uri.getRawQuery() != null) ? "?" + uri.getRawQuery() : "")
				+ ((uri.getRawFragment() != null) ? "#" + uri.getRawFragment() : "");
	}

	private static int port(URI uri) {
		if (uri.getPort() >= 0) {
			return uri.getPort();
		}
		return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
	}

	private static AuditEntry.Outcome outcome(int status) {
		if (status < 400) {
			return AuditEntry.Outcome.SUCCESS;
		}
		if (status == 401 || status == 403) {
			return AuditEntry.Outcome.DENIED;
		}
		return (status < 500) ? AuditEntry.Outcome.REJECTED : AuditEntry.Outcome.ERROR;
	}

	/**
	 * 502: the node that holds the repository refused this node's credential (another
	 * {@code refstore.fleet.secret}, a clock too far off): the user's own sign-in is not
	 * in question, so no challenge goes back to them.
	 */
	private void credentialRefused(HttpServletRequest request, HttpServletResponse response, FleetService.Target target,
			HttpResponse<byte[]> answer) throws IOException {
		logger.warn("Node '{}' refused this node's credential for {} {}: {}", target.node(), request.getMethod(),
				request.getRequestURI(), new String(answer.body(), StandardCharsets.UTF_8));
		ProblemDetail problem = Problems.problem(HttpStatus.BAD_GATEWAY, "node-credential-refused",
				"node '" + target.node() + "', which holds repository '" + target.repository()
						+ "', refused this node's credential: nothing was done there; the nodes' refstore.fleet.secret"
						+ " or clocks differ (see this node's log)",
				Map.of("repository", target.repository(), "node", target.node()));
		response.setStatus(HttpStatus.BAD_GATEWAY.value());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.getOutputStream().write(this.json.writeValueAsBytes(problem));
	}

	/**
	 * 502: the TLS handshake with the node that holds the repository failed (this node
	 * does not trust its certificate, or the certificate does not name its address):
	 * nothing was sent, and retrying will not help until an operator fixes the trust.
	 */
	private void untrusted(HttpServletResponse response, FleetService.Target target, Exception ex) throws IOException {
		logger.warn("Node '{}' holding {} was not reached: the TLS handshake failed: {}", target.node(),
				target.repository(), ex.toString());
		ProblemDetail problem = Problems.problem(HttpStatus.BAD_GATEWAY, "node-untrusted",
				"repository '" + target.repository() + "' is on node '" + target.node() + "', which this node did"
						+ " not reach: " + FleetHttp.TLS_FAILURE + "; nothing was sent (see this node's log)",
				Map.of("repository", target.repository(), "node", target.node()));
		response.setStatus(HttpStatus.BAD_GATEWAY.value());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.getOutputStream().write(this.json.writeValueAsBytes(problem));
	}

	/** 503: the node that holds the repository did not answer; nothing was done here. */
	private void unreachable(HttpServletResponse response, FleetService.Target target, Exception ex)
			throws IOException {
		logger.warn("Node '{}' holding {} did not answer: {}", target.node(), target.repository(), ex.toString());
		ProblemDetail problem = Problems.problem(HttpStatus.SERVICE_UNAVAILABLE, "repository-unavailable",
				"repository '" + target.repository() + "' is on node '" + target.node()
						+ "', which did not answer: the request may not have reached it; retry later",
				Map.of("repository", target.repository(), "node", target.node()));
		response.setStatus(HttpStatus.SERVICE_UNAVAILABLE.value());
		response.setHeader(HttpHeaders.RETRY_AFTER,
				Long.toString(Math.max(1, this.properties.downAfter().toSeconds())));
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.getOutputStream().write(this.json.writeValueAsBytes(problem));
	}

}
