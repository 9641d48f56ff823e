package io.refstore.web.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Throws random paths, parameters, headers and bodies at every operation the OpenAPI
 * description lists, as each of the four roles, against the running server and a real
 * repository, with parameters now and then given twice and odd {@code Accept} headers: no
 * answer is a 5xx, every error is a problem ({@code application/problem+json}), none
 * shows a stack frame, class name or server path, and the repository is as git saw it
 * before ({@code git fsck}, a digest of its refs). Bodies are never valid requests, so no
 * write is meant to happen; the seed is printed, and fixed by
 * {@code -Drefstore.fuzz.seed}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class ApiFuzzIT extends ApiTestSupport {

	private static final String[] ROLES = { null, "viewer", "operator", "admin" };

	/** Requests per operation and role. */
	private static final int TRIES = 2;

	private static final String[] SEGMENTS = { "%00", "%ff", "%2e%2e", "..%2F..%2Fetc", "%5C", "a%2Fb", "%C3%A9",
			"refs%2Fheads%2Fmain", "HEAD", "-1", "0", "99999999999999999999", "1e9", "%20", "x".repeat(300),
			"%2Fetc%2Fpasswd", "*", "%3Cb%3E", "null", "refs%2Fheads%2F" + "y".repeat(1200) };

	private static final String[] VALUES = { "", "%00%ff", "-1", "2147483648", "1000000000", "abc", "%25", "%2e%2e%2F",
			"refs/heads/*", "[", "**", "true", "files", "reftable", "z".repeat(3000), "%0d%0aX:%20y",
			"1970-13-45T99:00:00" };

	private static final String[] BODIES = { "", "{", "[]", "null", "5", "\"x\"", "{\"updates\": 5}",
			"{\"updates\": [{\"ref\": {}}]}", "{\"repository\": []}", "{\"repository\": 7, \"targetFormat\": {}}",
			"{\"name\": [], \"cron\": 5}", "{\"sha\": {\"a\": 1}}", "{\"a\":" + "[".repeat(2000),
			"{\"updates\": [{\"ref\": \"refs/heads/fuzz\", \"new\": \"not-hex\"}]}", "\u0000\u00ff",
			"{\"x\": 1e999999}" };

	private static final String[] HEADERS = { "Accept", "application/xml", "Accept", "*/*", "If-Match", "\"junk\"",
			"If-None-Match", "*", "If-Match", "W/\"0\"", "X-Forwarded-For", "999.1.1.1", "Accept-Language", "zz-ZZ",
			"Accept", "*/*;q=abc", "Accept", "application/", "Accept", "text/html;;;=", "Accept",
			"application/problem+json;q=0.1, text/plain" };

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	@LocalServerPort
	int port;

	@Test
	void randomRequestsGetNoServerErrorAndLeakNothing() throws Exception {
		String name = uniqueName("fuzz");
		TempRepo repo = bareRepo(name);
		String commit = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", commit);
		repo.git("update-ref", "refs/tags/v1", commit);
		String before = digest(repo.git("for-each-ref"));
		long seed = Long.getLong("refstore.fuzz.seed", System.nanoTime());
		Random random = new Random(seed);
		JsonNode paths = JsonMapper.builder()
			.build()
			.readTree(send("GET", "/v3/api-docs", null, "admin", List.of()).body())
			.get("paths");
		long start = System.nanoTime();
		int requests = 0;
		int operations = 0;
		List<String> errors = new ArrayList<>();
		List<String> leaks = new ArrayList<>();
		List<String> bare = new ArrayList<>();
		for (Map.Entry<String, JsonNode> path : paths.properties()) {
			for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
				String method = operation.getKey().toUpperCase(Locale.ROOT);
				if (!List.of("GET", "POST", "PUT", "DELETE", "PATCH").contains(method)) {
					continue;
				}
				operations++;
				for (String role : ROLES) {
					for (int i = 0; i < TRIES; i++) {
						String uri = uri(path.getKey(), operation.getValue(), name, random);
						List<String> headers = new ArrayList<>();
						int pair = 2 * random.nextInt(HEADERS.length / 2);
						headers.add(HEADERS[pair]);
						headers.add(HEADERS[pair + 1]);
						String body = method.equals("GET") ? null : BODIES[random.nextInt(BODIES.length)];
						HttpResponse<String> response = send(method, uri, body, role, headers);
						requests++;
						String what = method + " " + uri + " as " + role + " -> " + response.statusCode();
						if (response.statusCode() >= 500) {
							errors.add(what + " " + response.body());
						}
						if (response.statusCode() >= 400 && !problem(response)) {
							bare.add(what + " " + response.headers().firstValue("Content-Type").orElse("no type") + " "
									+ response.body());
						}
						String leak = leak(response.body());
						if (leak != null) {
							leaks.add(what + " shows " + leak + ": " + response.body());
						}
					}
				}
			}
		}
		System.out.printf("API fuzz (seed %d): %d operations, %d requests in %d s, %d 5xx, %d leaks%n", seed,
				operations, requests, (System.nanoTime() - start) / 1_000_000_000L, errors.size(), leaks.size());
		assertThat(operations).isGreaterThan(30);
		assertThat(errors).as("5xx answers (seed " + seed + ")").isEmpty();
		assertThat(leaks).as("answers that leak (seed " + seed + ")").isEmpty();
		assertThat(bare).as("errors without a problem body (seed " + seed + ")").isEmpty();
		repo.git("fsck", "--strict");
		assertThat(digest(repo.git("for-each-ref"))).isEqualTo(before);
	}

	/** {@code template} with random path variables and query parameters. */
	private static String uri(String template, JsonNode operation, String repo, Random random) {
		StringBuilder uri = new StringBuilder();
		for (String part : template.split("(?=\\{)|(?<=\\})")) {
			if (part.startsWith("{")) {
				boolean repoVariable = part.equals("{repo}") && random.nextInt(3) > 0;
				uri.append(repoVariable ? seg(repo) : SEGMENTS[random.nextInt(SEGMENTS.length)]);
			}
			else {
				uri.append(part);
			}
		}
		char separator = '?';
		JsonNode parameters = operation.get("parameters");
		if (parameters != null) {
			for (JsonNode parameter : parameters.values()) {
				if ("query".equals(parameter.get("in").asString()) && random.nextBoolean()) {
					// now and then a parameter twice
					for (int times = (random.nextInt(4) == 0) ? 2 : 1; times > 0; times--) {
						uri.append(separator)
							.append(parameter.get("name").asString())
							.append('=')
							.append(VALUES[random.nextInt(VALUES.length)]);
						separator = '&';
					}
				}
			}
		}
		return uri.toString();
	}

	private HttpResponse<String> send(String method, String uri, String body, String user, List<String> headers)
			throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + uri))
			.timeout(Duration.ofSeconds(30))
			.method(method,
					(body == null) ? HttpRequest.BodyPublishers.noBody()
							: HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
			.header("Content-Type", "application/json");
		for (int i = 0; i < headers.size(); i += 2) {
			request.header(headers.get(i), headers.get(i + 1));
		}
		if (user != null) {
			request.header("Authorization", "Basic "
					+ Base64.getEncoder().encodeToString((user + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8)));
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * Whether an error answer is an RFC 9457 problem: its type and a JSON body with
	 * {@code status}. A 304 or a HEAD has no body, and none is sent here.
	 */
	private static boolean problem(HttpResponse<String> response) {
		return response.headers()
			.firstValue("Content-Type")
			.filter((type) -> type.startsWith("application/problem+json"))
			.isPresent() && response.body().contains("\"status\":" + response.statusCode());
	}

	/** What in {@code body} is an internal, or {@code null}. */
	private static String leak(String body) {
		for (String internal : new String[] { "at io.", "at java.", "Exception", "java.", "io.refstore", "/tmp/",
				HOME.toString(), "<html" }) {
			if (body.contains(internal)) {
				return internal;
			}
		}
		return null;
	}

	private static String digest(String refs) throws Exception {
		return HexFormat.of()
			.formatHex(MessageDigest.getInstance("SHA-256").digest(refs.getBytes(StandardCharsets.UTF_8)));
	}

}
