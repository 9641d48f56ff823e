package io.refstore.web.system;

import java.io.IOException;
import java.util.UUID;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.MDC;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives every request one correlation id: in the log's MDC (so every line logged while
 * serving it shows the id), in the {@value #HEADER} response header, and in every problem
 * the request is answered with ({@code correlationId}). A client reporting an error
 * quotes the id; the log has the full detail under it. The id is the server's own (a
 * random UUID): one sent by a client is not trusted, as it would let it forge log lines.
 */
public class CorrelationIdFilter extends OncePerRequestFilter {

	/** The MDC key and the problem member. */
	public static final String KEY = "correlationId";

	/** The response header that carries the id. */
	public static final String HEADER = "X-Correlation-Id";

	/** The request attribute that keeps the id for the error dispatch. */
	static final String ATTRIBUTE = CorrelationIdFilter.class.getName() + ".id";

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String id = (request.getAttribute(ATTRIBUTE) instanceof String kept) ? kept : UUID.randomUUID().toString();
		request.setAttribute(ATTRIBUTE, id);
		if (!response.isCommitted()) {
			response.setHeader(HEADER, id);
		}
		MDC.put(KEY, id);
		try {
			chain.doFilter(request, response);
		}
		finally {
			MDC.remove(KEY);
		}
	}

	/** The error dispatch runs under the id of the request that failed. */
	@Override
	protected boolean shouldNotFilterErrorDispatch() {
		return false;
	}

	/** The id of the request being served, or {@code null} outside a request. */
	public static String current() {
		return MDC.get(KEY);
	}

}
