package io.refstore.web.security;

import java.time.Instant;

/**
 * An API token as listed: never its secret.
 *
 * @param id the token id
 * @param owner the user it authenticates as
 * @param name the owner's label for it
 * @param hint the first characters of the secret, to recognise it
 * @param createdAt when it was created
 * @param lastUsedAt when it last authenticated a request, or {@code null}
 * @param revokedAt when it was revoked, or {@code null} while it is valid
 * @param revokedBy who revoked it, or {@code null}
 * @param expiresAt when it stops authenticating, or {@code null} if never
 * @param parentId the token it was created with (revoking that one revokes this one), or
 * {@code null} if it was created with a password
 */
public record ApiToken(long id, String owner, String name, String hint, Instant createdAt, Instant lastUsedAt,
		Instant revokedAt, String revokedBy, Instant expiresAt, Long parentId) {
}
