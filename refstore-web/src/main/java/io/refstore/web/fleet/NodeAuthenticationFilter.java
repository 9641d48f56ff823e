package io.refstore.web.fleet;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.web.filter.OncePerRequestFilter;

import io.refstore.web.security.Roles;
import io.refstore.web.system.Columns;
import io.refstore.web.system.Notification;
import io.refstore.web.system.Problems;

/**
 * Authenticates a request another node of the fleet forwarded ({@link NodeSignature}'s
 * headers) as the user that node authenticated, with the roles it found; a request
 * without those headers passes on to the other sign-ins. Refused with 401, whatever else
 * the request carries: a forged, stale, incomplete or replayed node credential, one sent
 * to a node without {@code refstore.fleet.secret}, one from a node that is not up in the
 * fleet, and one on a route the fleet does not forward to this node ({@link NodeChannel}:
 * a node credential never reaches tokens, users, the audit log, the actuator or the
 * fleet's administration).
 */
final class NodeAuthenticationFilter extends OncePerRequestFilter {

	private static final Logger log = LoggerFactory.getLogger(NodeAuthenticationFilter.class);

	private final NodeSignature signature;

	private final NodeChannel channel;

	private final AuthenticationEntryPoint problems;

	private final ApplicationEventPublisher events;

	/**
	 * @param signature the fleet's signature, or {@code null} where no secret is
	 * configured (every node credential is refused)
	 * @param channel what the fleet lets a node ask, or {@code null} where there is no
	 * fleet (every node credential is refused)
	 * @param problems security's entry point, which answers a refusal with 401 and its
	 * reason
	 * @param events where a refusal is told to the webhooks
	 * ({@code security.node-refused})
	 */
	NodeAuthenticationFilter(NodeSignature signature, NodeChannel channel, AuthenticationEntryPoint problems,
			ApplicationEventPublisher events) {
		this.events = events;
		this.signature = signature;
		this.channel = channel;
		this.problems = problems;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (NodeSignature.HEADERS.stream().allMatch((name) -> request.getHeader(name) == null)) {
			chain.doFilter(request, response);
			return;
		}
		byte[] body = request.getInputStream().readAllBytes();
		Map<String, String> headers = new LinkedHashMap<>();
		NodeSignature.HEADERS.forEach((name) -> headers.put(name, request.getHeader(name)));
		String query = request.getQueryString();
		ReadBody read = new ReadBody(request, body);
		String refusal;
		if (this.signature == null || this.channel == null) {
			refusal = "this node has no refstore.fleet.secret";
		}
		else {
			refusal = this.signature.refusal(this.channel.node(), request.getMethod(),
					request.getRequestURI() + ((query != null) ? "?" + query : ""), headers, body);
			if (refusal == null) {
				refusal = this.channel.refusal(headers.get(NodeSignature.NODE), read);
			}
		}
		List<GrantedAuthority> authorities = new ArrayList<>();
		if (refusal == null) {
			for (String role : headers.get(NodeSignature.ROLES).split(",")) {
				if (!role.isEmpty() && !Roles.ALL.contains(role.replaceFirst("^ROLE_", ""))) {
					refusal = "the node credential names an unknown role";
					break;
				}
				if (!role.isEmpty()) {
					authorities.add(new SimpleGrantedAuthority(role));
				}
			}
		}
		if (refusal != null) {
			log.warn("refused a node credential from {} (node {}): {}", request.getRemoteAddr(),
					headers.get(NodeSignature.NODE), refusal);
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("address", request.getRemoteAddr());
			details.put("node", Columns.cut(Problems.printable(String.valueOf(headers.get(NodeSignature.NODE))), 200));
			details.put("reason", refusal);
			this.events
				.publishEvent(Notification.of("security.node-refused", null, "anonymous", Map.of("request", details)));
			this.problems.commence(request, response, new NodeCredentialException(refusal));
			return;
		}
		SecurityContext context = SecurityContextHolder.createEmptyContext();
		context.setAuthentication(new NodeForwardedAuthentication(headers.get(NodeSignature.USER),
				headers.get(NodeSignature.NODE), authorities));
		SecurityContextHolder.setContext(context);
		try {
			chain.doFilter(read, response);
		}
		finally {
			SecurityContextHolder.clearContext();
		}
	}

	/**
	 * The request with its body, read once to check the signature, to read again; a
	 * posted form's fields are its parameters, as the container would have made them (the
	 * query string's first).
	 */
	private static final class ReadBody extends HttpServletRequestWrapper {

		private final byte[] body;

		private Map<String, String[]> parameters;

		ReadBody(HttpServletRequest request, byte[] body) {
			super(request);
			this.body = body;
		}

		@Override
		public String getParameter(String name) {
			String[] values = getParameterMap().get(name);
			return (values != null) ? values[0] : null;
		}

		@Override
		public Map<String, String[]> getParameterMap() {
			if (this.parameters == null) {
				this.parameters = parameters();
			}
			return this.parameters;
		}

		@Override
		public Enumeration<String> getParameterNames() {
			return Collections.enumeration(getParameterMap().keySet());
		}

		@Override
		public String[] getParameterValues(String name) {
			String[] values = getParameterMap().get(name);
			return (values != null) ? values.clone() : null;
		}

		private Map<String, String[]> parameters() {
			if (!form(getContentType())) {
				return super.getParameterMap();
			}
			Map<String, List<String>> fields = new LinkedHashMap<>();
			add(fields, getQueryString());
			add(fields, new String(this.body, StandardCharsets.UTF_8));
			Map<String, String[]> parameters = new LinkedHashMap<>();
			fields.forEach((name, values) -> parameters.put(name, values.toArray(String[]::new)));
			return Collections.unmodifiableMap(parameters);
		}

		private static boolean form(String type) {
			try {
				return type != null && MediaType.APPLICATION_FORM_URLENCODED.includes(MediaType.parseMediaType(type));
			}
			catch (InvalidMediaTypeException ex) {
				return false;
			}
		}

		private static void add(Map<String, List<String>> fields, String encoded) {
			if (encoded == null || encoded.isEmpty()) {
				return;
			}
			for (String pair : encoded.split("&")) {
				if (!pair.isEmpty()) {
					int equals = pair.indexOf('=');
					String name = (equals < 0) ? pair : pair.substring(0, equals);
					String value = (equals < 0) ? "" : pair.substring(equals + 1);
					fields.computeIfAbsent(URLDecoder.decode(name, StandardCharsets.UTF_8), (key) -> new ArrayList<>())
						.add(URLDecoder.decode(value, StandardCharsets.UTF_8));
				}
			}
		}

		@Override
		public ServletInputStream getInputStream() {
			ByteArrayInputStream in = new ByteArrayInputStream(this.body);
			return new ServletInputStream() {

				@Override
				public int read() {
					return in.read();
				}

				@Override
				public int read(byte[] buffer, int offset, int length) {
					return in.read(buffer, offset, length);
				}

				@Override
				public boolean isFinished() {
					return in.available() == 0;
				}

				@Override
				public boolean isReady() {
					return true;
				}

				@Override
				public void setReadListener(ReadListener listener) {
					throw new UnsupportedOperationException("the body is read already");
				}

			};
		}

	}

}
