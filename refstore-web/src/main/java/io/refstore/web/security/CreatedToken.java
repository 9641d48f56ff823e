package io.refstore.web.security;

/**
 * A token just created: the only time its secret is shown.
 *
 * @param token the stored token
 * @param secret the value to send as {@code Authorization: Bearer <secret>}
 */
public record CreatedToken(ApiToken token, String secret) {
}
