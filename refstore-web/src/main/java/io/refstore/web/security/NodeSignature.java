package io.refstore.web.security;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How one node of the fleet vouches to another for a request it forwards: the user it
 * authenticated and the roles it found, signed with the fleet's shared secret
 * ({@code refstore.fleet.secret}) by HMAC-SHA256 over the method, the path and query as
 * sent, the node, the user, the roles, the time and the SHA-256 of the body. A signature
 * older or newer than {@link #WINDOW} is refused, so a captured request cannot be
 * replayed later. The users' own credentials never travel between nodes. Thread-safe.
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

	/** The signature, hex. */
	public static final String SIGNATURE = "X-Refstore-Signature";

	/** The headers of a forwarded request's identity, which a node never passes on. */
	public static final List<String> HEADERS = List.of(NODE, USER, ROLES, AT, SIGNATURE);

	/** How far a signature's time may be from the receiver's clock. */
	public static final Duration WINDOW = Duration.ofSeconds(60);

	/** The shortest secret accepted, in bytes. */
	public static final int MIN_SECRET_BYTES = 32;

	private final SecretKeySpec key;

	private final Clock clock;

	/**
	 * @param secret the fleet's shared secret, at least {@value #MIN_SECRET_BYTES} bytes
	 * @throws IllegalArgumentException if it is shorter
	 */
	public NodeSignature(String secret, Clock clock) {
		byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
		if (bytes.length < MIN_SECRET_BYTES) {
			throw new IllegalArgumentException("refstore.fleet.secret must be at least " + MIN_SECRET_BYTES
					+ " bytes (it is " + bytes.length + "); generate one with: openssl rand -hex 32");
		}
		this.key = new SecretKeySpec(bytes, "HmacSHA256");
		this.clock = clock;
	}

	/** The identity headers of a request {@code node} forwards for {@code user}. */
	public Map<String, String> sign(String node, String method, String pathAndQuery, String user, String roles,
			byte[] body) {
		String at = Long.toString(this.clock.instant().getEpochSecond());
		Map<String, String> headers = new LinkedHashMap<>();
		headers.put(NODE, node);
		headers.put(USER, user);
		headers.put(ROLES, roles);
		headers.put(AT, at);
		headers.put(SIGNATURE, mac(method, pathAndQuery, node, user, roles, at, body));
		return headers;
	}

	/**
	 * Checks a forwarded request's identity headers.
	 * @return why it is refused, or {@code null} if the signature holds
	 */
	public String refusal(String method, String pathAndQuery, Map<String, String> headers, byte[] body) {
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
		String expected = mac(method, pathAndQuery, headers.get(NODE), headers.get(USER), headers.get(ROLES),
				headers.get(AT), body);
		if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
				headers.get(SIGNATURE).getBytes(StandardCharsets.US_ASCII))) {
			return "the node credential's signature does not match";
		}
		return null;
	}

	private String mac(String method, String pathAndQuery, String node, String user, String roles, String at,
			byte[] body) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(this.key);
			String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
			String signed = String.join("\n", method, pathAndQuery, node, user, roles, at, digest);
			return HexFormat.of().formatHex(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException | InvalidKeyException ex) {
			throw new IllegalStateException("HmacSHA256 is part of every Java runtime", ex);
		}
	}

}
