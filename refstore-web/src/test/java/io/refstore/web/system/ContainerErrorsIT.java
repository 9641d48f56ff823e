package io.refstore.web.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.CookieManager;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * Errors as a client on the wire sees them: what Tomcat refuses before the application
 * sees it, and bodies the JSON parser refuses, are problems in words with a correlation
 * id (the same as the {@code X-Correlation-Id} header), never Tomcat's HTML page, a class
 * name, a library's message or a server path; a browser on a console address gets a page
 * in the console's look instead; and nothing is written.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class ContainerErrorsIT extends ApiTestSupport {

	private static final Pattern CORRELATION_HEADER = Pattern.compile("(?im)^X-Correlation-Id: *(\\S+)$");

	static String name;

	static TempRepo repo;

	@LocalServerPort
	int port;

	@BeforeAll
	static void repository() {
		name = uniqueName("container");
		repo = bareRepo(name);
		repo.git("update-ref", "refs/heads/main", repo.commit("one", null));
	}

	/** Sends {@code head} (request line and headers) and {@code body} as they are. */
	private String raw(String requestLine, String headers, String body) throws IOException {
		String auth = Base64.getEncoder().encodeToString(("admin:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		try (Socket socket = new Socket("localhost", this.port)) {
			socket.setSoTimeout(30_000);
			OutputStream out = socket.getOutputStream();
			out.write((requestLine + "\r\nHost: localhost\r\nAuthorization: Basic " + auth
					+ "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
					+ "\r\nConnection: close\r\n" + headers + "\r\n")
				.getBytes(StandardCharsets.ISO_8859_1));
			out.write(bytes);
			out.flush();
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream response = new ByteArrayOutputStream();
			in.transferTo(response);
			return response.toString(StandardCharsets.UTF_8);
		}
	}

	/** Asserts a problem of {@code status} that leaks nothing and carries its id. */
	private static String assertProblem(String response, int status) {
		assertThat(response).as(response).startsWith("HTTP/1.1 " + status + " ");
		assertThat(response).containsIgnoringCase("Content-Type: application/problem+json");
		assertThat(response).doesNotContain("<html", "Exception", "java.", "io.refstore", "at org.", "Tomcat",
				ROOT.toString(), "/tmp/");
		Matcher header = CORRELATION_HEADER.matcher(response);
		assertThat(header.find()).as("X-Correlation-Id in " + response).isTrue();
		assertThat(response).contains("\"correlationId\":\"" + header.group(1) + "\"");
		return response;
	}

	@Test
	void pathsTomcatRefusesAreProblems() throws Exception {
		String before = repo.git("for-each-ref");
		for (String path : new String[] { "/api/repos/a%00b", "/api/repos/%5C..%5Cetc", "/api/repos/50%/refs",
				"/api/repos/" + name + "/refs/%00" }) {
			assertProblem(raw("GET " + path + " HTTP/1.1", "", ""), 400);
		}
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
	}

	@Test
	void aBrowserOnAConsoleAddressGetsAPageInTheConsolesLook() throws Exception {
		String browser = "Accept: text/html,application/xhtml+xml,*/*;q=0.8\r\n";
		String response = raw("GET /repo%zz?name=" + name + " HTTP/1.1", browser, "");
		assertThat(response).as(response).startsWith("HTTP/1.1 400 ");
		assertThat(response).containsIgnoringCase("Content-Type: text/html")
			.contains("<link rel=\"stylesheet\" href=\"/console/console.css\">")
			.contains("<h1>Bad request</h1>")
			.contains("<span id=\"status\">400</span>")
			.doesNotContain("Exception", "java.", "io.refstore", "at org.", "Tomcat", ROOT.toString(), "/tmp/");
		Matcher header = CORRELATION_HEADER.matcher(response);
		assertThat(header.find()).isTrue();
		assertThat(response).contains("<code id=\"correlation-id\">" + header.group(1) + "</code>");
		// the API answers a problem whatever the client accepts
		assertProblem(raw("GET /api/repos/50%/refs HTTP/1.1", browser, ""), 400);
	}

	@Test
	void anUndecodableConsoleParameterIsABadRequestPageWithTheCorrelationId() throws Exception {
		CookieManager cookies = new CookieManager();
		HttpClient browser = HttpClient.newBuilder().cookieHandler(cookies).build();
		String base = "http://localhost:" + this.port;
		String login = browser
			.send(HttpRequest.newBuilder(URI.create(base + "/login")).build(), BodyHandlers.ofString())
			.body();
		Matcher csrf = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(login);
		assertThat(csrf.find()).as(login).isTrue();
		String form = "username=viewer&password=" + PASSWORD + "&_csrf=" + csrf.group(1);
		HttpResponse<String> signedIn = browser.send(HttpRequest.newBuilder(URI.create(base + "/login"))
			.header("Content-Type", "application/x-www-form-urlencoded")
			.POST(HttpRequest.BodyPublishers.ofString(form))
			.build(), BodyHandlers.ofString());
		assertThat(signedIn.headers().firstValue("Location").orElse("")).doesNotContain("error");
		String session = cookies.getCookieStore()
			.getCookies()
			.stream()
			.filter((cookie) -> cookie.getName().equals("JSESSIONID"))
			.findFirst()
			.orElseThrow()
			.getValue();
		// sent as they are: java.net.URI refuses such queries
		for (String query : new String[] { "name=%", "name=%ff", "name=%zz" }) {
			String page = raw("GET /repo?" + query + " HTTP/1.1",
					"Accept: text/html\r\nCookie: JSESSIONID=" + session + "\r\n", "");
			assertThat(page).as(page).startsWith("HTTP/1.1 400 ");
			Matcher header = CORRELATION_HEADER.matcher(page);
			assertThat(header.find()).as(page).isTrue();
			assertThat(page).contains("Bad request", "percent", "id=\"correlation-id\">" + header.group(1) + "<")
				.doesNotContain("Exception", "java.", "io.refstore", ROOT.toString());
		}
	}

	@Test
	void aHeaderOverTheLimitIsAProblem() throws Exception {
		String response = raw("GET /api/repos HTTP/1.1", "X-Big: " + "a".repeat(100_000) + "\r\n", "");
		assertThat(response).startsWith("HTTP/1.1 4");
		assertProblem(response, Integer.parseInt(response.substring(9, 12)));
	}

	@Test
	void malformedJsonIsSaidInWordsWithoutClassNames() throws Exception {
		String before = repo.git("for-each-ref");
		String batch = "POST /api/repos/" + name + "/refs:batch HTTP/1.1";
		String wrongType = assertProblem(raw(batch, "", "{\"updates\": \"refs/heads/x\"}"), 400);
		assertThat(wrongType).contains("\"field\":\"updates\"").doesNotContain("BatchRequest", "[\"updates\"]");
		String wrongElement = assertProblem(raw(batch, "", "{\"updates\": [{\"ref\": {\"a\": 1}}]}"), 400);
		assertThat(wrongElement).contains("\"field\":\"updates[0].ref\"");
		String notJson = assertProblem(raw(batch, "", "{\"updates\": [ nul"), 400);
		assertThat(notJson).contains("not well-formed JSON");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
	}

	@Test
	void applicationProblemsCarryTheRequestsCorrelationId() throws Exception {
		assertProblem(raw("GET /api/repos/" + name + "/nothing HTTP/1.1", "", ""), 404);
		assertProblem(raw("DELETE /api/repos HTTP/1.1", "", ""), 405);
	}

	@Test
	void badQueryValuesAreRefusedAsProblems() throws Exception {
		String after = assertProblem(raw("GET /api/repos/" + name + "/refs?after=%00%ff HTTP/1.1", "", ""), 400);
		assertThat(after).contains("\"parameter\":\"after\"");
		String page = assertProblem(raw("GET /api/jobs?page=1000000000 HTTP/1.1", "", ""), 400);
		assertThat(page).contains("\"parameter\":\"page\"");
	}

	@Test
	void aRefNameTooLongForAFileIsRefusedNamingTheRef() throws Exception {
		String before = repo.git("for-each-ref");
		String commit = repo.git("rev-parse", "refs/heads/main").strip();
		for (int length : new int[] { 300, 2000 }) {
			String ref = "refs/heads/" + "x".repeat(length);
			String single = assertProblem(raw("PUT /api/repos/" + name + "/refs/" + seg(ref) + " HTTP/1.1",
					"If-None-Match: *\r\n", "{\"sha\": \"" + commit + "\"}"), 400);
			assertThat(single).contains("\"parameter\":\"ref\"");
			if (ref.length() <= 1024) {
				assertThat(single).contains("\"ref\":\"" + ref + "\"");
			}
			else {
				// a member quotes at most 1,024 characters of a value, stating the cut
				assertThat(single).contains("\"ref\":\"" + ref.substring(0, 900))
					.containsPattern("\"ref\":\"refs/heads/x{982}… \\(1018 more characters\\)\"")
					.doesNotContain(ref);
			}
			String batch = assertProblem(raw("POST /api/repos/" + name + "/refs:batch HTTP/1.1", "",
					"{\"updates\": [{\"ref\": \"refs/heads/ok\", \"new\": \"" + commit + "\"}, {\"ref\": \"" + ref
							+ "\", \"new\": \"" + commit + "\"}]}"),
					400);
			assertThat(batch).contains("\"parameter\":\"updates[1].ref\"");
		}
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		repo.git("fsck");
	}

}
