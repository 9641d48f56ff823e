package io.refstore.web.security;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.User;
import org.springframework.stereotype.Service;

import io.refstore.core.input.Printable;
import io.refstore.web.audit.AuditEntry;
import io.refstore.web.audit.AuditEntry.Outcome;
import io.refstore.web.audit.AuditLog;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Problems;

/**
 * API tokens: any configured user creates, lists and revokes their own; an ADMIN lists
 * and revokes everyone's. Users of single sign-on (OpenID Connect, JWTs, LDAP) create
 * none: a token carries its owner's current roles, which only the configured users have
 * without the identity provider, and a name of theirs may be a configured user's. Another
 * user's token is reported as not found, so ids reveal nothing. Every change is audited.
 * Thread-safe.
 */
@Service
public class TokenService {

	/** The longest token name accepted. */
	public static final int MAX_NAME = 200;

	private final ApiTokenStore tokens;

	private final AuditLog audit;

	private final Duration defaultTtl;

	private final Duration maxTtl;

	TokenService(ApiTokenStore tokens, AuditLog audit, SecurityProperties properties) {
		this.tokens = tokens;
		this.audit = audit;
		this.defaultTtl = properties.tokens().defaultTtl();
		this.maxTtl = properties.tokens().maxTtl();
	}

	/**
	 * Creates a token for the current user. A token created by a request that a token
	 * authenticated is that token's child: it expires no later than its parent and is
	 * revoked with it.
	 * @param name a label, 1 to {@value #MAX_NAME} printable characters
	 * @param ttl how long it authenticates, at most the configured maximum, or
	 * {@code null} for the configured default
	 * @return the token with its secret, shown only this once
	 * @throws org.springframework.web.ErrorResponseException 403 for a user of single
	 * sign-on
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public CreatedToken create(String name, Duration ttl) {
		String actor = Actors.current();
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (!(authentication instanceof BearerTokenAuthentication)
				&& !(authentication.getPrincipal() instanceof User)) {
			this.audit.record(AuditEntry.of(actor, "token.create", null, null, Map.of(), Outcome.DENIED,
					"not a configured user"));
			throw Problems.exception(HttpStatus.FORBIDDEN, "token-for-configured-users-only",
					"API tokens are for the configured users; with single sign-on, use the identity provider's "
							+ "tokens (JWTs)",
					Map.of());
		}
		if (ttl != null && (ttl.isNegative() || ttl.isZero() || ttl.compareTo(this.maxTtl) > 0)) {
			this.audit.record(AuditEntry.of(actor, "token.create", null, null, Map.of("ttl", ttl.toString()),
					Outcome.REJECTED, "invalid ttl"));
			throw new InvalidRequestException("ttl", ttl.toString(), "a token's lifetime must be positive and at most "
					+ this.maxTtl + " (refstore.security.tokens.max-ttl)");
		}
		if (name == null || name.isBlank() || name.length() > MAX_NAME || !Printable.of(name).equals(name)) {
			this.audit.record(AuditEntry.of(actor, "token.create", null, null, Map.of("name", String.valueOf(name)),
					Outcome.REJECTED, "invalid name"));
			throw new InvalidRequestException("name", name,
					"it must be 1 to " + MAX_NAME + " characters without control characters");
		}
		Instant expiresAt = Instant.now().plus((ttl != null) ? ttl : this.defaultTtl);
		Long parent = (authentication instanceof BearerTokenAuthentication bearer) ? bearer.tokenId() : null;
		if (parent != null) {
			Instant parentExpiry = this.tokens.find(parent).map(ApiToken::expiresAt).orElse(null);
			if (parentExpiry != null && parentExpiry.isBefore(expiresAt)) {
				expiresAt = parentExpiry;
			}
		}
		CreatedToken created = this.tokens.create(actor, name, expiresAt, parent);
		this.audit.record(AuditEntry.of(actor, "token.create", null, "token " + created.token().id(),
				Map.of("name", name), Outcome.SUCCESS, null));
		return created;
	}

	/**
	 * The current user's tokens, or with {@code all} (ADMIN only) everyone's; newest
	 * first.
	 */
	@PreAuthorize("hasRole('VIEWER') and (!#all or hasRole('ADMIN'))")
	public List<ApiToken> list(boolean all) {
		return this.tokens.list(all ? null : Actors.current());
	}

	/**
	 * Revokes a token of the current user, or any token for an ADMIN, and the tokens
	 * created with it.
	 * @return the revoked token
	 * @throws org.springframework.web.ErrorResponseException 404 if there is no such
	 * token the user may see, 409 if it is already revoked
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public ApiToken revoke(long id) {
		String actor = Actors.current();
		ApiToken token = this.tokens.find(id)
			.filter((found) -> found.owner().equals(actor) || Actors.has(Roles.ADMIN))
			.orElse(null);
		Map<String, String> parameters = Map.of("id", Long.toString(id));
		if (token == null) {
			this.audit.record(AuditEntry.of(actor, "token.revoke", null, "token " + id, parameters, Outcome.REJECTED,
					"no such token"));
			throw Problems.notFound("token-not-found", "no API token " + id + " of yours", Map.of("id", id));
		}
		if (!this.tokens.revoke(id, actor)) {
			this.audit.record(AuditEntry.of(actor, "token.revoke", null, "token " + id, parameters, Outcome.REJECTED,
					"already revoked"));
			throw Problems.exception(HttpStatus.CONFLICT, "token-revoked",
					"API token " + id + " was already revoked at " + token.revokedAt(), Map.of("id", id));
		}
		this.audit.record(AuditEntry.of(actor, "token.revoke", null, "token " + id,
				Map.of("id", Long.toString(id), "owner", token.owner()), Outcome.SUCCESS, null));
		return this.tokens.find(id).orElseThrow();
	}

}
