package io.refstore.web.security;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/** Who is acting in the current thread, for audit entries and reflog identities. */
public final class Actors {

	private Actors() {
	}

	/** The authenticated user's name, or {@code anonymous}. */
	public static String current() {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		return (authentication == null || authentication.getName() == null) ? "anonymous" : authentication.getName();
	}

	/**
	 * Whether the current user holds {@code role} (directly; the role hierarchy is
	 * applied by method security).
	 */
	public static boolean has(String role) {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		return authentication != null && authentication.getAuthorities()
			.stream()
			.anyMatch((authority) -> authority.getAuthority().equals("ROLE_" + role));
	}

}
