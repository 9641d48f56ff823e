package io.refstore.web.console;

import java.util.function.Supplier;

import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

import io.refstore.web.ApiTestSupport;

/**
 * The console's MockMvc tests share the API tests' application context (one temporary
 * home, real repositories made by git, the real security filter chain, no mocks). Console
 * requests are made as a logged-in user of one role, as the form login would leave them;
 * POSTs add a valid CSRF token.
 */
public abstract class ConsoleTestSupport extends ApiTestSupport {

	/** Logged in as the configured user {@code viewer} (role VIEWER). */
	protected static RequestPostProcessor viewer() {
		return SecurityMockMvcRequestPostProcessors.user("viewer").roles("VIEWER");
	}

	/** Logged in as the configured user {@code operator} (role OPERATOR). */
	protected static RequestPostProcessor operator() {
		return SecurityMockMvcRequestPostProcessors.user("operator").roles("OPERATOR");
	}

	/** Logged in as the configured user {@code admin} (role ADMIN). */
	protected static RequestPostProcessor admin() {
		return SecurityMockMvcRequestPostProcessors.user("admin").roles("ADMIN");
	}

	/** A valid CSRF token, as the console's forms carry. */
	protected static RequestPostProcessor csrf() {
		return SecurityMockMvcRequestPostProcessors.csrf();
	}

	/**
	 * What {@code read} returns when run as the user {@code viewer}: the services check
	 * the role of the thread's user, as they do for a page.
	 */
	protected static <T> T asViewer(Supplier<T> read) {
		return asUser("viewer", "VIEWER", read);
	}

	/** What {@code read} returns when run as the user {@code operator}. */
	protected static <T> T asOperator(Supplier<T> read) {
		return asUser("operator", "OPERATOR", read);
	}

	private static <T> T asUser(String name, String role, Supplier<T> read) {
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(name, null,
					AuthorityUtils.createAuthorityList("ROLE_" + role)));
		try {
			return read.get();
		}
		finally {
			SecurityContextHolder.clearContext();
		}
	}

}
