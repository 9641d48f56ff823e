package io.refstore.web.system;

import java.io.IOException;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.filter.OncePerRequestFilter;

import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses request bodies over a limit with 413: at once when {@code Content-Length} says
 * so, else (a chunked body) as soon as reading passes the limit, through
 * {@link BodyTooLargeException}, which the exception handler turns into the same 413.
 * Nothing has been changed when it fires: handlers read the whole body first.
 */
final class BodySizeLimitFilter extends OncePerRequestFilter {

	private final long limit;

	private final JsonMapper json;

	/**
	 * @param json the application's mapper, which writes {@code ProblemDetail} as RFC
	 * 9457 says
	 */
	BodySizeLimitFilter(long limit, JsonMapper json) {
		this.limit = limit;
		this.json = json;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() > this.limit) {
			ProblemDetail problem = tooLarge(this.limit);
			response.setStatus(problem.getStatus());
			response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
			response.setHeader("Connection", "close");
			response.getOutputStream().write(this.json.writeValueAsBytes(problem));
			return;
		}
		chain.doFilter(new Limited(request, this.limit), response);
	}

	static ProblemDetail tooLarge(long limit) {
		return Problems.problem(HttpStatus.CONTENT_TOO_LARGE, "body-too-large",
				"the request body is larger than the limit of " + limit + " bytes", Map.of("limit", limit));
	}

	/** Thrown by a limited body's stream once more than the limit has been read. */
	static final class BodyTooLargeException extends IOException {

		private static final long serialVersionUID = 1L;

		final long limit;

		BodyTooLargeException(long limit) {
			super("request body exceeds " + limit + " bytes");
			this.limit = limit;
		}

	}

	private static final class Limited extends HttpServletRequestWrapper {

		private final long limit;

		private ServletInputStream stream;

		Limited(HttpServletRequest request, long limit) {
			super(request);
			this.limit = limit;
		}

		@Override
		public ServletInputStream getInputStream() throws IOException {
			if (this.stream == null) {
				this.stream = new CountingStream(super.getInputStream(), this.limit);
			}
			return this.stream;
		}

	}

	private static final class CountingStream extends ServletInputStream {

		private final ServletInputStream in;

		private final long limit;

		private long count;

		CountingStream(ServletInputStream in, long limit) {
			this.in = in;
			this.limit = limit;
		}

		@Override
		public int read() throws IOException {
			int b = this.in.read();
			if (b >= 0) {
				count(1);
			}
			return b;
		}

		@Override
		public int read(byte[] buf, int off, int len) throws IOException {
			int n = this.in.read(buf, off, len);
			if (n > 0) {
				count(n);
			}
			return n;
		}

		private void count(int n) throws BodyTooLargeException {
			this.count += n;
			if (this.count > this.limit) {
				throw new BodyTooLargeException(this.limit);
			}
		}

		@Override
		public boolean isFinished() {
			return this.in.isFinished();
		}

		@Override
		public boolean isReady() {
			return this.in.isReady();
		}

		@Override
		public void setReadListener(ReadListener listener) {
			this.in.setReadListener(listener);
		}

	}

}
