package io.refstore.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;
import io.refstore.web.audit.AuditFilter;
import io.refstore.web.audit.AuditLog;
import io.refstore.web.refs.BatchRequest;
import io.refstore.web.refs.RefService;
import io.refstore.web.refs.RefUpdateRequest;
import io.refstore.web.refs.RefWriteService;
import io.refstore.web.repos.RepoService;

/**
 * The services enforce the roles themselves: called directly, without any web request,
 * they refuse a caller without authentication or without the role, and change nothing.
 */
class MethodSecurityIT extends ApiTestSupport {

	@Autowired
	RefWriteService writes;

	@Autowired
	RefService refs;

	@Autowired
	RepoService repos;

	@Autowired
	AuditLog audit;

	@Autowired
	TokenService tokens;

	@Autowired
	UserDetailsService users;

	@AfterEach
	void logout() {
		SecurityContextHolder.clearContext();
	}

	/**
	 * Authenticates the current thread as a configured user, with that user's real
	 * authorities.
	 */
	private void loginAs(String user) {
		UserDetails details = this.users.loadUserByUsername(user);
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(details.getUsername(), null,
					details.getAuthorities()));
	}

	@Test
	void servicesRefuseCallersWithoutTheRole() throws Exception {
		String name = uniqueName("method-security");
		TempRepo repo = bareRepo(name);
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		BatchRequest delete = new BatchRequest(List.of(new RefUpdateRequest("refs/heads/main", null, "0".repeat(40))),
				null);

		assertThatThrownBy(() -> this.writes.batch(name, delete))
			.isInstanceOf(AuthenticationCredentialsNotFoundException.class);
		assertThatThrownBy(() -> this.repos.list()).isInstanceOf(AuthenticationCredentialsNotFoundException.class);

		loginAs("nobody");
		assertThatThrownBy(() -> this.refs.ref(name, "refs/heads/main")).isInstanceOf(AccessDeniedException.class);
		loginAs("viewer");
		assertThat(this.refs.ref(name, "refs/heads/main").object().sha()).isEqualTo(c1);
		assertThatThrownBy(() -> this.writes.batch(name, delete)).isInstanceOf(AccessDeniedException.class);
		assertThatThrownBy(() -> this.writes.delete(name, "refs/heads/main", c1))
			.isInstanceOf(AccessDeniedException.class);
		assertThatThrownBy(() -> this.audit.search(new AuditFilter(null, null, null, null, null, null, null, 10)))
			.isInstanceOf(AccessDeniedException.class);
		assertThatThrownBy(() -> this.tokens.list(true)).isInstanceOf(AccessDeniedException.class);
		loginAs("operator");
		assertThatThrownBy(() -> this.writes.batch(name, delete)).isInstanceOf(AccessDeniedException.class);
		assertThat(this.audit.search(new AuditFilter("viewer", "call.denied", null, null, null, null, null, 100))
			.entries()).anySatisfy((entry) -> assertThat(entry.target()).isEqualTo("RefWriteService.batch"));
		assertThat(this.audit.search(new AuditFilter(null, null, name, null, null, null, null, 10)).entries())
			.isEmpty();
		assertThat(repo.git("show-ref")).isEqualTo(c1 + " refs/heads/main\n");

		loginAs("admin");
		assertThat(this.writes.batch(name, delete).committed()).isTrue();
		assertThat(repo.git("for-each-ref")).isEmpty();
	}

}
