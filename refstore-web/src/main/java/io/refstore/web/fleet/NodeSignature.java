package io.refstore.web.fleet;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * How one node of the fleet vouches to another for a request it forwards: the user it
 * authenticated and the roles it found, signed with the fleet's shared secret
 * ({@code refstore.fleet.secret}) by HMAC-SHA256 over the method, the path and query as
 * sent, the sending node, the receiving node, the user, the roles, the time, a nonce and
 * the SHA-256 of the body. A signature older or newer than {@link #WINDOW} is refused,
 * and so is a nonce this node saw within twice that window: a captured request is used
 * once, by the node it was sent to. The users' own credentials never travel between
 * nodes. Which requests a valid signature may carry is the fleet's to say
 * ({@link NodeChannel}). Thread-safe.
 */
public final class NodeSignature {

	/** The forwarding node's name. */
	public static final String NODE = "X-Refstore-Node";

	/** The user the forwarding node authenticated. */
	public static final String USER = "X-Refstore-User";

	/** The user's authorities there, comma-separated ({@code ROLE_ADMIN}). */
	public static final String ROLES = "X-Refstore-Roles";

	/** When the request was signed, in epoch seconds. */
	public static final String AT = "X-Refstore-At";

	/** A random value that makes the signed request unique, 32 hex digits. */
	public static final String NONCE = "X-Refstore-Nonce";

	/** The signature, hex. */
	public static final String SIGNATURE = "X-Refstore-Signature";

	/** The headers of a forwarded request's identity, which a node never passes on. */
	public static final List<String> HEADERS = List.of(NODE, USER, ROLES, AT, NONCE, SIGNATURE);

	/** How far a signature's time may be from the receiver's clock. */
	public static final Duration WINDOW = Duration.ofSeconds(60);

	/** The shortest secret accepted, in bytes. */
	public static final int MIN_SECRET_BYTES = 32;

	private static final Pattern HEX_NONCE = Pattern.compile("[0-9a-f]{32}");

	/** What {@link #secretCheck} signs, with a salt after it. */
	private static final String CHECK = "refstore fleet secret check";

	private final SecretKeySpec key;

	/** The previous secret's key during a rotation, or {@code null}. */
	private final SecretKeySpec previous;

	private final Clock clock;

	private final SecureRandom random = new SecureRandom();

	/**
	 * The nonces of the signatures accepted, each kept while its signature could still be
	 * in the window (its time may be {@link #WINDOW} ahead of this clock).
	 */
	private final Cache<String, Boolean> seen = Caffeine.newBuilder().expireAfterWrite(WINDOW.multipliedBy(2)).build();

	/**
	 * @param secret the fleet's shared secret, at least {@value #MIN_SECRET_BYTES} bytes
	 * @throws IllegalArgumentException if it is shorter
	 */
	public NodeSignature(String secret, Clock clock) {
		this(secret, null, clock);
	}

	/**
	 * @param secret the fleet's shared secret ({@code refstore.fleet.secret}), which this
	 * node signs with, at least {@value #MIN_SECRET_BYTES} bytes
	 * @param previousSecret another secret whose signatures are accepted too during a
	 * rotation ({@code refstore.fleet.previous-secret}), or {@code null}
	 * @throws IllegalArgumentException if one is shorter, naming its setting
	 */
	public NodeSignature(String secret, String previousSecret, Clock clock) {
		this.key = key("refstore.fleet.secret", secret);
		this.previous = (previousSecret == null || previousSecret.isEmpty()) ? null
				: key("refstore.fleet.previous-secret", previousSecret);
		this.clock = clock;
	}

	private static SecretKeySpec key(String setting, String secret) {
		byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
		if (bytes.length < MIN_SECRET_BYTES) {
			throw new IllegalArgumentException(setting + " must be at least " + MIN_SECRET_BYTES + " bytes (it is "
					+ bytes.length + "); generate one with: openssl rand -hex 32");
		}
		return new SecretKeySpec(bytes, "HmacSHA256");
	}

	/**
	 * The identity headers of a request {@code node} forwards to node {@code to} for
	 * {@code user}, with a new nonce.
	 */
	public Map<String, String> sign(String node, String to, String method, String pathAndQuery, String user,
			String roles, byte[] body) {
		String at = Long.toString(this.clock.instant().getEpochSecond());
		byte[] nonce = new byte[16];
		this.random.nextBytes(nonce);
		Map<String, String> headers = new LinkedHashMap<>();
		headers.put(NODE, node);
		headers.put(USER, user);
		headers.put(ROLES, roles);
		headers.put(AT, at);
		headers.put(NONCE, HexFormat.of().formatHex(nonce));
		headers.put(SIGNATURE,
				mac(this.key, method, pathAndQuery, node, to, user, roles, at, headers.get(NONCE), body));
		return headers;
	}

	/**
	 * Checks a forwarded request's identity headers, as received by node {@code to}; a
	 * signature that holds is remembered, so the same headers are refused the next time.
	 * @return why it is refused, or {@code null} if the signature holds and is new
	 */
	public String refusal(String to, String method, String pathAndQuery, Map<String, String> headers, byte[] body) {
		for (String name : HEADERS) {
			if (headers.get(name) == null) {
				return "the node credential is incomplete: " + name + " is missing";
			}
		}
		long at;
		try {
			at = Long.parseLong(headers.get(AT));
		}
		catch (NumberFormatException ex) {
			return "the node credential's time is malformed";
		}
		Duration skew = Duration.between(Instant.ofEpochSecond(at), this.clock.instant()).abs();
		if (skew.compareTo(WINDOW) > 0) {
			return "the node credential is " + skew.toSeconds() + " s away from this node's clock (at most "
					+ WINDOW.toSeconds() + " s)";
		}
		String nonce = headers.get(NONCE);
		if (!HEX_NONCE.matcher(nonce).matches()) {
			return "the node credential's nonce is malformed";
		}
		boolean matches = false;
		for (SecretKeySpec accepted : (this.previous != null) ? List.of(this.key, this.previous) : List.of(this.key)) {
			String expected = mac(accepted, method, pathAndQuery, headers.get(NODE), to, headers.get(USER),
					headers.get(ROLES), headers.get(AT), nonce, body);
			matches |= MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
					headers.get(SIGNATURE).getBytes(StandardCharsets.US_ASCII));
		}
		if (!matches) {
			return "the node credential's signature does not match";
		}
		if (this.seen.asMap().putIfAbsent(nonce, Boolean.TRUE) != null) {
			return "the node credential was used already: a signed request is accepted once";
		}
		return null;
	}

	/**
	 * What this secret makes of the fleet's check value {@code salt}: equal values prove
	 * the same secret without showing it.
	 */
	public String secretCheck(String salt) {
		return hmac(this.key, CHECK + "\n" + salt);
	}

	/**
	 * What the previous secret makes of the fleet's check value {@code salt}, or
	 * {@code null} without one.
	 */
	public String previousSecretCheck(String salt) {
		return (this.previous != null) ? hmac(this.previous, CHECK + "\n" + salt) : null;
	}

	private static String mac(SecretKeySpec key, String method, String pathAndQuery, String node, String to,
			String user, String roles, String at, String nonce, byte[] body) {
		try {
			String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
			return hmac(key, String.join("\n", method, pathAndQuery, node, to, user, roles, at, nonce, digest));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is part of every Java runtime", ex);
		}
	}

	private static String hmac(SecretKeySpec key, String signed) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(key);
			return HexFormat.of().formatHex(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException | InvalidKeyException ex) {
			throw new IllegalStateException("HmacSHA256 is part of every Java runtime", ex);
		}
	}

}
