package io.refstore.web.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * Throws hostile query strings, form bodies, path segments and {@code Accept} headers at
 * every GET page of the console and a sample of its forms (with a valid CSRF token), as
 * each role logged in through the login form and as an anonymous visitor, against the
 * running server and a real repository: parameters given twice, not percent-decodable
 * ({@code %}, {@code %ff}), {@code ..}, control characters, oversized values. No answer
 * is a 5xx, none shows a stack frame, a Java class name or a server path, every error
 * carries the request's correlation id (the page's, or the problem's), and the repository
 * is as git saw it before. Requests are written to the socket as they are
 * ({@code java.net.URI} refuses such queries). The seed is printed, and fixed by
 * {@code -Drefstore.fuzz.seed}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class ConsoleFuzzIT extends ApiTestSupport {

	private static final Pattern CORRELATION_HEADER = Pattern.compile("(?im)^X-Correlation-Id: *(\\S+)\\r?$");

	private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

	/**
	 * A stack frame as Java prints it: {@code at a.b.C.method(}; not the words "at
	 * 12:00".
	 */
	private static final Pattern STACK_FRAME = Pattern.compile("\\bat [\\w$]+(\\.[\\w$<>]+)+\\(");

	private static final Pattern SESSION = Pattern.compile("(?im)^Set-Cookie: *JSESSIONID=([^;\\s]+)");

	private static final String[] ROLES = { null, "viewer", "operator", "admin" };

	/** Requests per page or form and role ({@code -Drefstore.fuzz.tries} for more). */
	private static final int TRIES = Integer.getInteger("refstore.fuzz.tries", 3);

	/** Query and form values, as they go on the wire (already percent-encoded). */
	private static final String[] VALUES = { "", "%", "%ff", "%zz", "%00", "..", "..%2F..%2Fetc", "%2e%2e", "%5C..",
			"%2Fetc%2Fpasswd", "-1", "0", "2147483648", "99999999999999999999", "1e9", "abc", "true", "files",
			"reftable", "%0d%0aX:%20y", "%3Cscript%3Ealert(1)%3C%2Fscript%3E", "refs%2Fheads%2F*", "[",
			"%5B%3Afoo%3A%5D", "**%2F".repeat(20) + "x", "1970-13-45T99:00:00", "2024-01-01T00:00:00", "%C3%A9",
			"%E2%80%AE", "z".repeat(3000), "refs%2Fheads%2F" + "y".repeat(1200), "SUCCESS", "worst", "name", "verify",
			"GLOB", "REPOSITORY", "maintain", "0%200%202%20*%20*%20%3F", "Europe%2FParis", "Mars%2FOlympus" };

	/** Path segments, as they go on the wire. */
	private static final String[] SEGMENTS = { "1", "0", "-1", "99999999999999999999", "%", "%25", "..", "%2e%2e",
			"a%2Fb", "%00", "x".repeat(300), "%C3%A9", "nightly", "migration", "maintenance", "deletion", "restore",
			"rollback", "inventory" };

	private static final String[] ACCEPTS = { "text/html", "text/html,application/xhtml+xml,*/*;q=0.8", "*/*",
			"*/*;q=abc", "application/", "text/html;;;=", "application/json", "application/problem+json",
			"application/xml", "image/png", "text/*;q=0", null };

	/**
	 * The typed job parameters of the schedule and campaign forms, and the fields htmx
	 * swaps them by (brackets encoded, as a browser sends them).
	 */
	private static final List<String> TYPED = List.of("jobType", "parametersFor", "values%5BchunkSize%5D",
			"values%5BplanOnly%5D", "values%5BolderThan%5D");

	/** Every GET page: its path (with {@code {}} for a random segment) and parameters. */
	private static final Map<String, List<String>> PAGES = pages();

	/** A sample of the forms: path and fields. */
	private static final Map<String, List<String>> FORMS = forms();

	@LocalServerPort
	int port;

	private static Map<String, List<String>> pages() {
		Map<String, List<String>> pages = new java.util.LinkedHashMap<>();
		pages.put("/", List.of("sort"));
		pages.put("/login", List.of("error", "logout"));
		pages.put("/repo", List.of("name", "prefix", "glob", "after", "before", "limit", "merged", "into", "older",
				"newer", "sort", "afterDate", "beforeDate"));
		pages.put("/repo/count", List.of("name", "prefix", "glob", "merged", "into", "older", "newer", "sort"));
		pages.put("/repo/hygiene", List.of("name"));
		pages.put("/repo/health", List.of("name"));
		pages.put("/repo/backups", List.of("name"));
		pages.put("/repo/backups/drop", List.of("name", "backup"));
		pages.put("/repo/ref", List.of("name", "ref"));
		pages.put("/repo/inventory", List.of("name"));
		pages.put("/audit", List.of("actor", "action", "repo", "outcome", "from", "to", "before"));
		pages.put("/fleet", List.of("node", "storage", "format", "due", "q", "after"));
		pages.put("/jobs", List.of("status", "type", "repo", "actor", "from", "to", "offset"));
		pages.put("/jobs/{}", List.of());
		pages.put("/jobs/{}/progress", List.of());
		pages.put("/jobs/new/{}", List.of("repo", "backup", "manifest", "prefixes", "globs", "excludes", "namespaces",
				"mergedInto", "olderThan", "notUpdatedSince"));
		pages.put("/schedules", List.of());
		pages.put("/schedules/new", List.of());
		pages.put("/schedules/{}/edit", List.of());
		pages.put("/schedules/{}/delete", List.of());
		pages.put("/schedules/preview", List.of("cron", "timeZone", "onceAt"));
		pages.put("/schedules/parameters", TYPED);
		pages.put("/campaigns", List.of());
		pages.put("/campaigns/{}", List.of());
		pages.put("/campaigns/{}/progress", List.of());
		pages.put("/campaigns/new", List.of());
		pages.put("/campaigns/parameters", TYPED);
		return pages;
	}

	private static Map<String, List<String>> forms() {
		Map<String, List<String>> forms = new java.util.LinkedHashMap<>();
		List<String> schedule = List.of("name", "jobType", "targetKind", "target", "parameters", "storedType",
				"parametersFor", "values%5BchunkSize%5D", "values%5BplanOnly%5D", "cron", "onceAt", "timeZone",
				"misfire", "paused");
		forms.put("/schedules/new", schedule);
		forms.put("/schedules/{}/edit", schedule);
		forms.put("/schedules/{}/pause", List.of());
		forms.put("/schedules/{}/run", List.of());
		forms.put("/schedules/{}/delete", List.of());
		forms.put("/jobs/{}/stop", List.of());
		forms.put("/jobs/{}/restart", List.of());
		forms.put("/jobs/{}/execute", List.of("confirmRepository", "confirmCount"));
		forms.put("/jobs/new/{}", List.of("repo", "targetFormat", "reflogs", "chunkSize", "throttleMillis", "dryRun",
				"prefixes", "globs", "excludes", "olderThan", "manifest", "backup", "confirmRepository"));
		forms.put("/repo/backups/drop", List.of("name", "backup", "confirmBackup"));
		List<String> campaign = new ArrayList<>(TYPED);
		campaign.addAll(List.of("targetKind", "target", "concurrency"));
		forms.put("/campaigns/new", campaign);
		forms.put("/campaigns/{}/cancel", List.of());
		return forms;
	}

	@Test
	void hostileConsoleRequestsGetNoServerErrorAndLeakNothing() throws Exception {
		String name = uniqueName("console-fuzz");
		TempRepo repo = bareRepo(name);
		String commit = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", commit);
		repo.git("update-ref", "refs/tags/v1", commit);
		String before = digest(repo.git("for-each-ref"));
		long seed = Long.getLong("refstore.fuzz.seed", System.nanoTime());
		Random random = new Random(seed);
		String repoValue = URLEncoder.encode(name, StandardCharsets.UTF_8);
		Map<String, Session> sessions = new HashMap<>();
		for (String role : ROLES) {
			sessions.put(role, (role == null) ? new Session(null, null) : login(role));
		}
		long start = System.nanoTime();
		int requests = 0;
		List<String> failures = new ArrayList<>();
		for (String role : ROLES) {
			Session session = sessions.get(role);
			for (Map.Entry<String, List<String>> page : PAGES.entrySet()) {
				for (int i = 0; i < TRIES; i++) {
					String target = path(page.getKey(), random) + query(page.getValue(), repoValue, random);
					Response response = send("GET", target, session, accept(random), null);
					requests++;
					check("GET " + target + " as " + role, response, failures);
				}
			}
			if (role == null) {
				continue;
			}
			for (Map.Entry<String, List<String>> form : FORMS.entrySet()) {
				for (int i = 0; i < TRIES; i++) {
					String target = path(form.getKey(), random);
					String body = query(form.getValue(), repoValue, random);
					body = "_csrf=" + URLEncoder.encode(session.csrf(), StandardCharsets.UTF_8)
							+ (body.isEmpty() ? "" : "&" + body.substring(1));
					Response response = send("POST", target, session, accept(random), body);
					requests++;
					check("POST " + target + " " + cut(body) + " as " + role, response, failures);
				}
			}
		}
		System.out.printf("console fuzz (seed %d): %d pages, %d forms, %d requests in %d s, %d failures%n", seed,
				PAGES.size(), FORMS.size(), requests, (System.nanoTime() - start) / 1_000_000_000L, failures.size());
		assertThat(failures).as("answers with a 5xx, a leak or no correlation id (seed " + seed + ")").isEmpty();
		repo.git("fsck", "--strict");
		assertThat(digest(repo.git("for-each-ref"))).isEqualTo(before);
	}

	@Test
	void theCasesTheFuzzFoundStayFixed() throws Exception {
		String name = uniqueName("console-fuzz-fixed");
		TempRepo repo = bareRepo(name);
		repo.git("update-ref", "refs/heads/main", repo.commit("one", null));
		Session operator = login("operator");
		List<String> failures = new ArrayList<>();
		// a path Tomcat refuses: the page in the console's look shows the correlation id
		// as the application's does
		for (String target : new String[] { "/campaigns/%", "/jobs/%00/progress", "/repo?name=%",
				"/repo?name=" + name + "&name=x", "/repo?name=..", "/repo?name=" + name + "&limit=1&limit=2" }) {
			Response response = send("GET", target, operator, "text/html", null);
			assertThat(response.status()).as(target).isEqualTo(400);
			check("GET " + target, response, failures);
			if (target.contains("&")) {
				// refused as in the API, not searched for as 'a,b'
				assertThat(response.body()).as(target).contains("given 2 times");
			}
		}
		// a form field that is not of its type is the form's error in words
		String csrf = "_csrf=" + URLEncoder.encode(operator.csrf(), StandardCharsets.UTF_8);
		Response campaign = send("POST", "/campaigns/new", operator, "text/html",
				csrf + "&jobType=verify&targetKind=REPOSITORY&target=" + name + "&concurrency=abc");
		check("POST /campaigns/new concurrency=abc", campaign, failures);
		assertThat(campaign.body()).contains("This must be a whole number.");
		assertThat(campaign.status()).as("not launched with concurrency 1").isEqualTo(200);
		Response schedule = send("POST", "/schedules/new", operator, "text/html", csrf + "&name=" + name
				+ "&jobType=verify&targetKind=REPOSITORY&target=" + name + "&cron=0+0+2+*+*+%3F&paused=maybe");
		check("POST /schedules/new paused=maybe", schedule, failures);
		assertThat(schedule.status()).as("not saved unpaused").isEqualTo(200);
		assertThat(schedule.body()).contains("Paused: this must be true or false.");
		Response launch = send("POST", "/jobs/new/migration", operator, "text/html",
				csrf + "&repo=" + name + "&dryRun=true&chunkSize=12x");
		check("POST /jobs/new/migration chunkSize=12x", launch, failures);
		assertThat(launch.body()).as(launch.head()).contains("This must be a whole number.");
		assertThat(failures).isEmpty();
		// the campaign page's "created\n\tat <time>" is words, not a stack frame
		assertThat(leak("<p>Created\n\t\tat <time datetime=\"2026-12-04\">")).isNull();
		assertThat(leak("\tat io.refstore.web.X.run(X.java:12)")).isNotNull();
	}

	/** Records what is wrong with {@code response}, if anything. */
	private static void check(String what, Response response, List<String> failures) {
		String shown = what + " -> " + response.status();
		if (response.status() >= 500) {
			failures.add(shown + " is a server error: " + cut(response.body()));
		}
		String leak = leak(response.head() + response.body());
		if (leak != null) {
			failures.add(shown + " shows " + leak + ": " + cut(response.body()));
		}
		if (response.status() >= 400) {
			Matcher header = CORRELATION_HEADER.matcher(response.head());
			if (!header.find()) {
				failures.add(shown + " has no X-Correlation-Id header: " + cut(response.head()));
			}
			else if (!response.body().contains("id=\"correlation-id\">" + header.group(1) + "<")
					&& !response.body().contains("\"correlationId\":\"" + header.group(1) + "\"")) {
				failures.add(shown + " does not show its correlation id " + header.group(1) + ": "
						+ cut(response.head() + response.body()));
			}
		}
	}

	/** What in {@code text} is an internal, or {@code null}. */
	private static String leak(String text) {
		Matcher frame = STACK_FRAME.matcher(text);
		if (frame.find()) {
			return frame.group();
		}
		for (String internal : new String[] { "Exception", "java.", "io.refstore.", "org.springframework", "Tomcat",
				"Whitelabel", HOME.toString(), ROOT.toString(), "/tmp/" }) {
			if (text.contains(internal)) {
				return internal;
			}
		}
		return null;
	}

	private static String cut(String text) {
		return (text.length() <= 600) ? text : text.substring(0, 600) + "…";
	}

	/** {@code template} with each {@code {}} replaced by a random segment. */
	private static String path(String template, Random random) {
		StringBuilder path = new StringBuilder();
		String[] parts = template.split("\\{\\}", -1);
		for (int i = 0; i < parts.length; i++) {
			path.append(parts[i]);
			if (i < parts.length - 1) {
				path.append(SEGMENTS[random.nextInt(SEGMENTS.length)]);
			}
		}
		return path.toString();
	}

	/**
	 * A query ({@code ?a=b&...}, or empty) with some of {@code names}, now and then one
	 * given twice; a repository name is often the real one.
	 */
	private static String query(List<String> names, String repo, Random random) {
		StringBuilder query = new StringBuilder();
		for (String name : names) {
			if (random.nextInt(3) == 0) {
				continue;
			}
			for (int times = (random.nextInt(4) == 0) ? 2 : 1; times > 0; times--) {
				boolean repoName = List.of("name", "repo", "target", "confirmRepository").contains(name)
						&& random.nextBoolean();
				query.append(query.isEmpty() ? '?' : '&')
					.append(name)
					.append('=')
					.append(repoName ? repo : VALUES[random.nextInt(VALUES.length)]);
			}
		}
		if (random.nextInt(8) == 0) {
			// an unknown parameter, and now and then one without a value or a name
			query.append(query.isEmpty() ? '?' : '&').append(random.nextBoolean() ? "%zz=%" : "=&x");
		}
		return query.toString();
	}

	private static String accept(Random random) {
		return ACCEPTS[random.nextInt(ACCEPTS.length)];
	}

	/** Logs {@code user} in through the form, as a browser does. */
	private Session login(String user) throws IOException {
		Response form = send("GET", "/login", new Session(null, null), "text/html", null);
		Matcher session = SESSION.matcher(form.head());
		Matcher csrf = CSRF.matcher(form.body());
		assertThat(session.find() && csrf.find()).as(form.head() + form.body()).isTrue();
		Response signedIn = send("POST", "/login", new Session(session.group(1), null), "text/html", "username=" + user
				+ "&password=" + PASSWORD + "&_csrf=" + URLEncoder.encode(csrf.group(1), StandardCharsets.UTF_8));
		Matcher newSession = SESSION.matcher(signedIn.head());
		assertThat(signedIn.status()).as(signedIn.head()).isEqualTo(302);
		assertThat(signedIn.head()).doesNotContain("error");
		String id = newSession.find() ? newSession.group(1) : session.group(1);
		Response dashboard = send("GET", "/", new Session(id, null), "text/html", null);
		Matcher token = CSRF.matcher(dashboard.body());
		assertThat(token.find()).as(dashboard.body()).isTrue();
		return new Session(id, token.group(1));
	}

	/** Sends a request as it is and reads the whole answer. */
	private Response send(String method, String target, Session session, String accept, String form)
			throws IOException {
		byte[] body = (form == null) ? new byte[0] : form.getBytes(StandardCharsets.UTF_8);
		StringBuilder head = new StringBuilder();
		head.append(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: localhost:").append(this.port);
		head.append("\r\nConnection: close\r\n");
		if (accept != null) {
			head.append("Accept: ").append(accept).append("\r\n");
		}
		if (session.id() != null) {
			head.append("Cookie: JSESSIONID=").append(session.id()).append("\r\n");
		}
		if (form != null) {
			head.append("Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ")
				.append(body.length)
				.append("\r\n");
		}
		head.append("\r\n");
		try (Socket socket = new Socket("localhost", this.port)) {
			socket.setSoTimeout(30_000);
			OutputStream out = socket.getOutputStream();
			out.write(head.toString().getBytes(StandardCharsets.UTF_8));
			out.write(body);
			out.flush();
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream all = new ByteArrayOutputStream();
			in.transferTo(all);
			return Response.parse(all.toByteArray());
		}
	}

	private static String digest(String refs) throws Exception {
		return HexFormat.of()
			.formatHex(MessageDigest.getInstance("SHA-256").digest(refs.getBytes(StandardCharsets.UTF_8)));
	}

	/** A logged-in browser: its session cookie and CSRF token (none when anonymous). */
	private record Session(String id, String csrf) {
	}

	/** An answer: status, head (status line and headers) and body, de-chunked. */
	private record Response(int status, String head, String body) {

		static Response parse(byte[] bytes) {
			String text = new String(bytes, StandardCharsets.ISO_8859_1);
			int end = text.indexOf("\r\n\r\n");
			String head = (end < 0) ? text : text.substring(0, end);
			byte[] raw = (end < 0) ? new byte[0] : java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
			if (head.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")) {
				raw = dechunk(raw);
			}
			int status = Integer.parseInt(head.substring(9, 12));
			return new Response(status, head, new String(raw, StandardCharsets.UTF_8));
		}

		private static byte[] dechunk(byte[] raw) {
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			int at = 0;
			while (at < raw.length) {
				int line = at;
				while (line + 1 < raw.length && !(raw[line] == '\r' && raw[line + 1] == '\n')) {
					line++;
				}
				String size = new String(raw, at, line - at, StandardCharsets.ISO_8859_1).split(";")[0].strip();
				int length = size.isEmpty() ? 0 : Integer.parseInt(size, 16);
				if (length == 0) {
					break;
				}
				out.write(raw, line + 2, Math.min(length, raw.length - line - 2));
				at = line + 2 + length + 2;
			}
			return out.toByteArray();
		}

	}

}
