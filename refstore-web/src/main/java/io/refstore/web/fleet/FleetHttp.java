package io.refstore.web.fleet;

import java.net.http.HttpClient;
import java.time.Duration;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.ssl.SslOptions;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;

/**
 * The HTTP client this node reaches the other nodes with, for the requests it forwards
 * and for its health's look at them: it follows no redirects and connects within
 * {@link #CONNECT_TIMEOUT}. With {@code refstore.fleet.ssl-bundle} it trusts the
 * certificates of that SSL bundle ({@code spring.ssl.bundle.*}) and no others, presents
 * the bundle's key if a node asks for one, and keeps to the bundle's protocols and
 * ciphers; without it, the JVM's default trust store (a node at an {@code https} address
 * with a certificate of a public CA is reached so). Host names are verified either way.
 * Thread-safe.
 */
@Component
class FleetHttp {

	/** A node that does not accept a connection sooner is unreachable. */
	static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

	private final HttpClient client;

	FleetHttp(FleetProperties properties, SslBundles bundles) {
		HttpClient.Builder builder = HttpClient.newBuilder()
			.connectTimeout(CONNECT_TIMEOUT)
			.followRedirects(HttpClient.Redirect.NEVER);
		if (StringUtils.hasText(properties.sslBundle())) {
			SslBundle bundle = bundles.getBundle(properties.sslBundle());
			builder.sslContext(bundle.createSslContext());
			SslOptions options = bundle.getOptions();
			if (options.isSpecified()) {
				builder.sslParameters(new SSLParameters(options.getCiphers(), options.getEnabledProtocols()));
			}
		}
		this.client = builder.build();
	}

	HttpClient client() {
		return this.client;
	}

	/**
	 * Whether {@code failure}, or one of its causes, is a failed TLS handshake: the other
	 * node's certificate is not trusted or does not name its address, or it does not
	 * speak TLS there.
	 */
	static boolean tlsFailure(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof SSLException) {
				return true;
			}
		}
		return false;
	}

	/** What a failed TLS handshake means, for health details and problems. */
	static final String TLS_FAILURE = "the TLS handshake failed: this node does not trust its certificate"
			+ " (refstore.fleet.ssl-bundle), the certificate does not name its address, or it does not speak TLS there";

}
