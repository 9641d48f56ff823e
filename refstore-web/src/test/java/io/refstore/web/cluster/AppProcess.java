package io.refstore.web.cluster;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SSLContext;

/**
 * One refstore-web instance in a JVM of its own, started from the test class path with
 * the {@code postgres} profile, so that a test can kill it with {@code SIGKILL} as a
 * crash would. It serves HTTP on a free port, or HTTPS if started with {@link #startTls};
 * one user {@code admin} (role ADMIN) with password {@link #PASSWORD}, and those
 * {@link #user} adds.
 */
final class AppProcess implements AutoCloseable {

	static final String PASSWORD = "cluster-password";

	// bcrypt (cost 4) of PASSWORD
	private static final String HASH = "{bcrypt}"
			+ new org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder(4).encode(PASSWORD);

	/** How long a start may take, to serving or to failing. */
	private static final Duration START_WAIT = Duration.ofSeconds(300);

	private static final Pattern STARTED = Pattern.compile("Tomcat started on port (\\d+)");

	private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

	final String instanceId;

	/** The port it serves on, known once {@link #awaitUp()} saw it start. */
	private volatile int port;

	private final Process process;

	private final Path log;

	/** How this test's clients reach it: the JVM's defaults, or trusting its HTTPS. */
	private final SSLContext tls;

	private final HttpClient http;

	private AppProcess(String instanceId, Process process, Path log, SSLContext tls) {
		this.instanceId = instanceId;
		this.process = process;
		this.log = log;
		this.tls = tls;
		this.http = client().build();
	}

	private HttpClient.Builder client() {
		HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
		return (this.tls != null) ? builder.sslContext(this.tls) : builder;
	}

	private String base() {
		return ((this.tls != null) ? "https" : "http") + "://localhost:" + this.port;
	}

	/**
	 * Starts an instance; {@link #awaitUp()} waits until it serves.
	 * @param root its one repository root, or {@code null} to leave
	 * {@code refstore.repositories.roots} unset (its storages named in {@code extra})
	 */
	static AppProcess start(String instanceId, String dbUrl, Path home, Path root, Path log, String... extra)
			throws IOException {
		return startTls(null, instanceId, dbUrl, home, root, log, extra);
	}

	/**
	 * Starts an instance that serves HTTPS (its {@code server.ssl.*} in {@code extra}),
	 * which this test's clients reach with {@code tls}; {@code null} for HTTP.
	 */
	static AppProcess startTls(SSLContext tls, String instanceId, String dbUrl, Path home, Path root, Path log,
			String... extra) throws IOException {
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx320m",
						"-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
						"io.refstore.web.RefstoreApplication", "--spring.profiles.active=postgres",
						"--spring.datasource.url=" + dbUrl, "--server.port=0", "--refstore.home=" + home,
						"--refstore.demo.enabled=false", "--refstore.schedules.min-interval=1s",
						"--refstore.jobs.instance-id=" + instanceId, "--refstore.security.users[0].name=admin",
						"--refstore.security.users[0].password=" + HASH, "--refstore.security.users[0].roles=ADMIN"));
		if (root != null) {
			command.add("--refstore.repositories.roots[0]=" + root);
		}
		command.addAll(List.of(extra));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		return new AppProcess(instanceId, process, log, tls);
	}

	/**
	 * The settings that add user {@code name} with {@code role} and {@link #PASSWORD} as
	 * the {@code index}-th user (0 is {@code admin}), to pass to {@link #start}.
	 */
	static List<String> user(int index, String name, String role) {
		String user = "--refstore.security.users[" + index + "].";
		return List.of(user + "name=" + name, user + "password=" + HASH, user + "roles=" + role);
	}

	/** Waits until {@code /actuator/health} answers UP. */
	void awaitUp() {
		// a shared CI machine has taken 95 s to build the application context; polled in
		// this thread, which then reads the port it found
		await("instance " + this.instanceId + " to come up").atMost(START_WAIT)
			.pollInterval(Duration.ofMillis(500))
			.pollInSameThread()
			.until(this::up);
	}

	/**
	 * Whether {@code /actuator/health} answers UP; fails at once if the JVM has exited.
	 */
	private boolean up() throws Exception {
		if (!this.process.isAlive()) {
			List<String> lines = Files.readAllLines(this.log);
			throw new IllegalStateException(
					"instance " + this.instanceId + " exited with " + this.process.exitValue() + "; its log ends:\n"
							+ String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size())));
		}
		if (this.port == 0) {
			// the server takes a free port itself (a port chosen here could be taken by
			// any connection before it binds) and logs it
			Matcher started = STARTED.matcher(Files.readString(this.log));
			if (!started.find()) {
				return false;
			}
			this.port = Integer.parseInt(started.group(1));
		}
		try {
			HttpResponse<String> health = get("/actuator/health");
			return health.statusCode() == 200 && health.body().contains("\"UP\"");
		}
		catch (IOException ex) {
			// not listening yet
			return false;
		}
	}

	HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return this.http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
	}

	HttpResponse<String> postJson(String path, String json) throws IOException, InterruptedException {
		return this.http.send(request(path).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * A request as {@code admin}, or as nobody if {@code user} is {@code null}, with
	 * {@code headers} and a JSON body if {@code json} is not {@code null}.
	 */
	HttpResponse<String> send(String method, String path, String json, java.util.Map<String, String> headers,
			boolean asAdmin) throws IOException, InterruptedException {
		return sendAs(asAdmin ? "admin" : null, method, path, json, headers);
	}

	/**
	 * A request as {@code user} (a user {@link #user} added, with {@link #PASSWORD}), or
	 * as nobody if {@code null}, with {@code headers} and a JSON body if {@code json} is
	 * not {@code null}.
	 */
	HttpResponse<String> sendAs(String user, String method, String path, String json,
			java.util.Map<String, String> headers) throws IOException, InterruptedException {
		HttpRequest.Builder builder = (user != null) ? request(path, user)
				: HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(30));
		headers.forEach(builder::header);
		if (json != null) {
			builder.header("Content-Type", "application/json");
		}
		builder.method(method,
				(json != null) ? HttpRequest.BodyPublishers.ofString(json) : HttpRequest.BodyPublishers.noBody());
		return this.http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
	}

	/** Its whole log so far. */
	String log() throws IOException {
		return Files.readString(this.log);
	}

	/** Waits until the JVM has exited, and says with what status. */
	int awaitExit() throws InterruptedException {
		if (!this.process.waitFor(START_WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
			throw new IllegalStateException(
					"instance " + this.instanceId + " still runs after " + START_WAIT.toSeconds() + " s");
		}
		return this.process.exitValue();
	}

	private HttpRequest.Builder request(String path) {
		return request(path, "admin");
	}

	private HttpRequest.Builder request(String path, String user) {
		String basic = Base64.getEncoder().encodeToString((user + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
		return HttpRequest.newBuilder(URI.create(base() + path))
			.timeout(Duration.ofSeconds(30))
			.header("Authorization", "Basic " + basic);
	}

	/**
	 * Restarts an execution the way an operator does: logs in to the console and presses
	 * Restart on the job page.
	 * @return the new execution's id
	 */
	long restartInConsole(long executionId) throws IOException, InterruptedException {
		Console console = console();
		String page = console.get("/jobs/" + executionId).body();
		HttpResponse<String> restarted = console.post("/jobs/" + executionId + "/restart", page, "");
		String location = restarted.headers()
			.firstValue("Location")
			.orElseThrow(() -> new IllegalStateException(
					"restart answered " + restarted.statusCode() + " without a redirect"));
		return Long.parseLong(location.substring(location.lastIndexOf('/') + 1));
	}

	/** A console session as {@code admin}, signed in through the login form. */
	Console console() throws IOException, InterruptedException {
		return console("admin");
	}

	/**
	 * A console session as {@code user} (with {@link #PASSWORD}), signed in through the
	 * login form.
	 */
	Console console(String user) throws IOException, InterruptedException {
		HttpClient browser = client().cookieHandler(new CookieManager()).build();
		String base = base();
		String token = csrf(browser
			.send(HttpRequest.newBuilder(URI.create(base + "/login")).build(), HttpResponse.BodyHandlers.ofString())
			.body());
		browser.send(form(base + "/login", "username=" + enc(user) + "&password=" + PASSWORD + "&_csrf=" + enc(token)),
				HttpResponse.BodyHandlers.ofString());
		return new Console(browser, base);
	}

	/**
	 * A signed-in browser: pages by GET, forms by POST with the CSRF token a page gave.
	 */
	record Console(HttpClient browser, String base) {

		HttpResponse<String> get(String path) throws IOException, InterruptedException {
			return this.browser.send(HttpRequest.newBuilder(URI.create(this.base + path)).build(),
					HttpResponse.BodyHandlers.ofString());
		}

		/** A part of a page, as htmx loads it ({@code HX-Request}). */
		HttpResponse<String> fragment(String path) throws IOException, InterruptedException {
			return this.browser.send(
					HttpRequest.newBuilder(URI.create(this.base + path)).header("HX-Request", "true").build(),
					HttpResponse.BodyHandlers.ofString());
		}

		/** Posts {@code fields} with the CSRF token of {@code page}. */
		HttpResponse<String> post(String path, String page, String fields) throws IOException, InterruptedException {
			String body = (fields.isEmpty() ? "" : fields + "&") + "_csrf=" + enc(csrf(page));
			return this.browser.send(form(this.base + path, body), HttpResponse.BodyHandlers.ofString());
		}

	}

	private static HttpRequest form(String url, String body) {
		return HttpRequest.newBuilder(URI.create(url))
			.header("Content-Type", "application/x-www-form-urlencoded")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
	}

	private static String csrf(String html) {
		Matcher matcher = CSRF.matcher(html);
		if (!matcher.find()) {
			throw new IllegalStateException("no CSRF token in the page");
		}
		return matcher.group(1);
	}

	private static String enc(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

	/** Kills the JVM with SIGKILL, as a crash would, and waits until it is gone. */
	void kill() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor();
	}

	/**
	 * Kills the JVM with SIGKILL at a moment {@code ready} allows: freezes it (SIGSTOP),
	 * asks {@code ready}, and kills it frozen, or lets it run 100 ms (SIGCONT) and asks
	 * again, for at most 20 s.
	 */
	void killWhen(Callable<Boolean> ready) throws Exception {
		for (int i = 0; i < 200; i++) {
			signal("STOP");
			if (ready.call()) {
				kill();
				return;
			}
			signal("CONT");
			Thread.sleep(100);
		}
		throw new AssertionError("instance " + this.instanceId + " was never ready to be killed");
	}

	private void signal(String name) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(this.process.pid())).inheritIO().start();
		if (kill.waitFor() != 0) {
			throw new IOException("kill -" + name + " failed on instance " + this.instanceId);
		}
	}

	@Override
	public void close() throws InterruptedException {
		if (this.process.isAlive()) {
			this.process.destroy();
			if (!this.process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
				kill();
			}
		}
	}

}
