package io.refstore.web.webhooks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A real HTTP server on the loopback address that receives webhook deliveries: it keeps
 * every request (headers and body) and answers each as its {@code answer} function says,
 * which may also wait.
 */
public final class WebhookReceiver implements AutoCloseable {

	/** One request received. */
	public record Received(String path, Map<String, List<String>> headers, String body) {

		public String header(String name) {
			List<String> values = this.headers.entrySet()
				.stream()
				.filter((entry) -> entry.getKey().equalsIgnoreCase(name))
				.map(Map.Entry::getValue)
				.findFirst()
				.orElse(List.of());
			return values.isEmpty() ? null : values.get(0);
		}

	}

	/** An answer: a status and a body. */
	public record Answer(int status, String body) {

	}

	private final HttpServer server;

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final List<Received> received = new CopyOnWriteArrayList<>();

	public WebhookReceiver(Function<Received, Answer> answer) throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
		this.server.setExecutor(this.threads);
		this.server.createContext("/", (exchange) -> handle(exchange, answer));
		this.server.start();
	}

	/** A receiver that answers 200 to everything. */
	public static WebhookReceiver ok() throws IOException {
		return new WebhookReceiver((request) -> new Answer(200, "thanks"));
	}

	private void handle(HttpExchange exchange, Function<Received, Answer> answer) throws IOException {
		try (exchange; InputStream in = exchange.getRequestBody()) {
			Received request = new Received(exchange.getRequestURI().getPath(),
					Map.copyOf(exchange.getRequestHeaders()), new String(in.readAllBytes(), StandardCharsets.UTF_8));
			this.received.add(request);
			Answer reply = answer.apply(request);
			byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(reply.status(), (body.length == 0) ? -1 : body.length);
			if (body.length > 0) {
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(body);
				}
			}
		}
	}

	/**
	 * What a receiver expects in {@code X-Hub-Signature-256} for {@code body} under
	 * {@code secret}, worked out here as a receiver would.
	 */
	public static String expectedSignature(String secret, String body) throws GeneralSecurityException {
		Mac mac = Mac.getInstance("HmacSHA256");
		mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
		return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
	}

	/** Its URL, with {@code path}. */
	public String url(String path) {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + path;
	}

	/** The requests so far, in the order they came. */
	public List<Received> received() {
		return new ArrayList<>(this.received);
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.threads.shutdownNow();
	}

}
