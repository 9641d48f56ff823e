package io.refstore.web.security;

import static io.refstore.web.system.Columns.utc;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The table of API tokens. A secret is {@value #PREFIX} and 43 base64url characters (256
 * random bits); only its SHA-256 is stored. A fast hash suffices here, unlike for
 * passwords: a secret of 256 random bits cannot be guessed from its hash, and a slow hash
 * would be paid by every API request. Thread-safe.
 */
@Component
class ApiTokenStore {

	static final String PREFIX = "rst_";

	/** How often the last use of a token is written. */
	static final java.time.Duration USE_MARK = java.time.Duration.ofMinutes(1);

	private final JdbcClient jdbc;

	private final SecureRandom random = new SecureRandom();

	ApiTokenStore(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * @param expiresAt when the token stops authenticating, or {@code null} for never
	 * @param parentId the token the request was authenticated with, or {@code null}
	 */
	CreatedToken create(String owner, String name, Instant expiresAt, Long parentId) {
		byte[] bytes = new byte[32];
		this.random.nextBytes(bytes);
		String secret = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
		Instant now = Instant.now();
		this.jdbc
			.sql("INSERT INTO refstore_api_token (owner, name, secret_hash, hint, created_at, expires_at, parent_id)"
					+ " VALUES (?, ?, ?, ?, ?, ?, ?)")
			.params(owner, name, hash(secret), secret.substring(0, PREFIX.length() + 4), utc(now), utc(expiresAt),
					parentId)
			.update();
		long id = this.jdbc.sql("SELECT id FROM refstore_api_token WHERE secret_hash = ?")
			.param(hash(secret))
			.query(Long.class)
			.single();
		return new CreatedToken(find(id).orElseThrow(), secret);
	}

	/**
	 * The valid (neither revoked nor expired) token with this secret, marking it used.
	 * The mark is written at most once a minute per token, so that a busy client does not
	 * turn every read into a database write.
	 */
	Optional<ApiToken> authenticate(String secret) {
		Instant now = Instant.now();
		Optional<ApiToken> token = this.jdbc
			.sql("SELECT * FROM refstore_api_token WHERE secret_hash = ? AND revoked_at IS NULL"
					+ " AND (expires_at IS NULL OR expires_at > ?)")
			.params(hash(secret), utc(now))
			.query(ApiTokenStore::token)
			.optional()
			.filter((found) -> found.parentId() == null || ancestorsValid(found.parentId(), now));
		token.filter((found) -> found.lastUsedAt() == null || found.lastUsedAt().isBefore(now.minus(USE_MARK)))
			.ifPresent((found) -> this.jdbc.sql("UPDATE refstore_api_token SET last_used_at = ? WHERE id = ?")
				.params(utc(now), found.id())
				.update());
		return token;
	}

	/**
	 * Whether the token {@code id} and every token above it (its parent, theirs...) are
	 * neither revoked nor expired at {@code now}: a token made with a token never
	 * outlives it, also one made before its expiry was capped at its parent's. One
	 * recursive query, run only for tokens made with a token.
	 */
	private boolean ancestorsValid(long id, Instant now) {
		return this.jdbc
			.sql("WITH RECURSIVE chain (id, parent_id, revoked_at, expires_at) AS ("
					+ " SELECT id, parent_id, revoked_at, expires_at FROM refstore_api_token WHERE id = ?"
					+ " UNION ALL SELECT t.id, t.parent_id, t.revoked_at, t.expires_at"
					+ " FROM refstore_api_token t JOIN chain c ON t.id = c.parent_id)"
					+ " SELECT COUNT(*) FROM chain WHERE revoked_at IS NOT NULL OR expires_at <= ?")
			.params(id, utc(now))
			.query(Long.class)
			.single() == 0;
	}

	Optional<ApiToken> find(long id) {
		return this.jdbc.sql("SELECT * FROM refstore_api_token WHERE id = ?")
			.param(id)
			.query(ApiTokenStore::token)
			.optional();
	}

	/**
	 * Tokens of {@code owner}, or of everyone if {@code owner} is {@code null}; newest
	 * first.
	 */
	List<ApiToken> list(String owner) {
		if (owner == null) {
			return this.jdbc.sql("SELECT * FROM refstore_api_token ORDER BY id DESC")
				.query(ApiTokenStore::token)
				.list();
		}
		return this.jdbc.sql("SELECT * FROM refstore_api_token WHERE owner = ? ORDER BY id DESC")
			.param(owner)
			.query(ApiTokenStore::token)
			.list();
	}

	/**
	 * Revokes a valid token and every token created with it, their children too;
	 * {@code false} if it was already revoked.
	 */
	boolean revoke(long id, String by) {
		OffsetDateTime now = utc(Instant.now());
		if (!revokeOne(id, by, now)) {
			return false;
		}
		// a token's descendants are few: one query per generation
		List<Long> generation = List.of(id);
		while (!generation.isEmpty()) {
			List<Long> children = new ArrayList<>();
			for (long parent : generation) {
				children.addAll(this.jdbc.sql("SELECT id FROM refstore_api_token WHERE parent_id = ?")
					.param(parent)
					.query(Long.class)
					.list());
			}
			children.forEach((child) -> revokeOne(child, by, now));
			generation = children;
		}
		return true;
	}

	private boolean revokeOne(long id, String by, OffsetDateTime now) {
		return this.jdbc
			.sql("UPDATE refstore_api_token SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL")
			.params(now, by, id)
			.update() == 1;
	}

	private static ApiToken token(ResultSet rs, int row) throws SQLException {
		return new ApiToken(rs.getLong("id"), rs.getString("owner"), rs.getString("name"), rs.getString("hint"),
				instant(rs.getTimestamp("created_at")), instant(rs.getTimestamp("last_used_at")),
				instant(rs.getTimestamp("revoked_at")), rs.getString("revoked_by"),
				instant(rs.getTimestamp("expires_at")), rs.getObject("parent_id", Long.class));
	}

	private static Instant instant(Timestamp timestamp) {
		return (timestamp == null) ? null : timestamp.toInstant();
	}

	static String hash(String secret) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			return HexFormat.of().formatHex(digest.digest(secret.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java platform has SHA-256", ex);
		}
	}

}
