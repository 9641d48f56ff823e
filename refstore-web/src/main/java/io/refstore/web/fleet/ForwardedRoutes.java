package io.refstore.web.fleet;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.util.UriUtils;

/**
 * The routes one node forwards to another, and nothing else a node credential may carry:
 * a repository's API ({@code /api/repos/{repo}/...}), its console pages
 * ({@code GET /repo...?name=...}) and the forms posted from them ({@code POST /repo/...}
 * with a {@code name} field). Jobs go from node to node through the database
 * ({@link JobHandoff}), never over HTTP.
 */
final class ForwardedRoutes {

	private static final Pattern REPO = Pattern.compile("^/api/repos/([^/]+)(/.*)?$");

	private ForwardedRoutes() {
	}

	/** Whether {@code request} is on a route a node forwards. */
	static boolean forwarded(HttpServletRequest request) {
		return REPO.matcher(request.getRequestURI()).matches() || console(request);
	}

	/**
	 * The repository a forwarded route names: empty for another route, or a console
	 * request without a name.
	 * @throws IllegalArgumentException if the name's encoding is malformed
	 */
	static Optional<String> repository(HttpServletRequest request) {
		if (console(request)) {
			return Optional.ofNullable(request.getParameter("name"));
		}
		Matcher matcher = REPO.matcher(request.getRequestURI());
		return matcher.matches() ? Optional.of(UriUtils.decode(matcher.group(1), StandardCharsets.UTF_8))
				: Optional.empty();
	}

	/**
	 * A console page of one repository ({@code GET /repo...?name=...}) or a form posted
	 * from one ({@code POST /repo/...} with a {@code name} field): the forms of a page
	 * rendered by another node post back here and go on to that node.
	 */
	static boolean console(HttpServletRequest request) {
		String uri = request.getRequestURI();
		if (!uri.equals("/repo") && !uri.startsWith("/repo/")) {
			return false;
		}
		return switch (request.getMethod()) {
			case "GET" -> request.getQueryString() != null;
			case "POST" -> form(request);
			default -> false;
		};
	}

	/**
	 * Whether the request posts a form; a malformed content type is not one (it is
	 * answered here, with a 4xx).
	 */
	static boolean form(HttpServletRequest request) {
		try {
			return request.getContentType() != null && MediaType.APPLICATION_FORM_URLENCODED
				.includes(MediaType.parseMediaType(request.getContentType()));
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
	}

}
