package io.refstore.web.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * What only a real server shows: Tomcat passes encoded slashes through to the API,
 * decodes and normalises dot segments, and a chunked body with no length is cut off at
 * the limit; every refusal is a problem and changes nothing git can see.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class HttpEdgeIT extends ApiTestSupport {

	static String nested;

	static TempRepo repo;

	static String commit;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	@LocalServerPort
	int port;

	@BeforeAll
	static void repository() {
		nested = "team-" + uniqueName("http") + "/project.git";
		repo = bareRepo(nested);
		commit = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", commit);
	}

	private HttpResponse<String> send(String method, String rawPath, String body, String user)
			throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + rawPath))
			.timeout(Duration.ofSeconds(30))
			.method(method,
					(body == null) ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
			.header("Content-Type", "application/json");
		if (user != null) {
			request.header("Authorization", "Basic "
					+ Base64.getEncoder().encodeToString((user + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8)));
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	@Test
	void encodedSlashesReachTheApi() throws Exception {
		HttpResponse<String> response = send("GET", "/api/repos/" + seg(nested) + "/refs/" + seg("refs/heads/main"),
				null, "viewer");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.body()).contains("\"sha\":\"" + commit + "\"");
	}

	@Test
	void dotSegmentsNeverReachARepositoryOutsideTheRoot() throws Exception {
		for (String path : new String[] { "/api/repos/%2e%2e", "/api/repos/..%2F..%2Fetc",
				"/api/repos/%2e%2e%2f" + "%2e%2e%2fetc", "/api/repos/%2Fetc%2Fpasswd",
				"/api/repos/x/..%2F..%2F..%2Ftmp" }) {
			HttpResponse<String> response = send("GET", path, null, "viewer");
			assertThat(response.statusCode()).as(path).isIn(400, 404);
			assertThat(response.headers().firstValue("Content-Type")).as(path)
				.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
			assertThat(response.body()).doesNotContain("Exception").doesNotContain("passwd:");
		}
	}

	@Test
	void writesThroughEscapingNamesReachNoRepository() throws Exception {
		// a repository beside the root, which '..' would reach if names were not checked
		String outside = uniqueName("outside");
		TempRepo victim = TempRepo.init(io.refstore.core.testing.GitCli.system(), ROOT.resolveSibling(outside),
				"--bare");
		String c1 = victim.commit("one", null);
		victim.git("update-ref", "refs/heads/main", c1);
		String before = victim.git("for-each-ref");
		String body = "{\"updates\": [{\"ref\": \"refs/heads/main\", \"new\": \"" + "0".repeat(40) + "\"}]}";
		for (String repoSegment : new String[] { "..%2F" + outside, "%2e%2e%2F" + outside,
				seg(ROOT.resolveSibling(outside).toString()), "%252e%252e%252F" + outside }) {
			HttpResponse<String> response = send("POST", "/api/repos/" + repoSegment + "/refs:batch", body, "admin");
			assertThat(response.statusCode()).as(repoSegment).isEqualTo(400);
			assertThat(response.headers().firstValue("Content-Type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		}
		assertThat(victim.git("for-each-ref")).isEqualTo(before);
	}

	@Test
	void aChunkedBodyOverTheLimitIsRefused() throws Exception {
		String before = repo.git("for-each-ref");
		StringBuilder big = new StringBuilder("{\"updates\": [");
		for (int i = 0; i < 20_000; i++) {
			big.append((i == 0) ? "" : ",")
				.append("{\"ref\": \"refs/heads/b")
				.append(i)
				.append("\", \"new\": \"")
				.append(commit)
				.append("\"}");
		}
		big.append("]}");
		byte[] bytes = big.toString().getBytes(StandardCharsets.UTF_8);
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://localhost:" + this.port + "/api/repos/" + seg(nested) + "/refs:batch"))
			.header("Content-Type", "application/json")
			.header("Authorization",
					"Basic " + Base64.getEncoder()
						.encodeToString(("admin:" + PASSWORD).getBytes(StandardCharsets.UTF_8)))
			// a stream of unknown length goes out chunked, without Content-Length
			.POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes)))
			.build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(413);
		assertThat(response.body()).contains("\"limit\":1048576");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
	}

	@Test
	void aDeclaredLengthOverTheLimitIsRefusedBeforeReading() throws Exception {
		try (Socket socket = new Socket("localhost", this.port)) {
			OutputStream out = socket.getOutputStream();
			out.write(("POST /api/repos/" + seg(nested) + "/refs:batch HTTP/1.1\r\nHost: localhost\r\n"
					+ "Content-Type: application/json\r\nContent-Length: 50000000\r\nConnection: close\r\n\r\n{")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			// read the status line and headers only: the server answers without waiting
			// for the 50 MB
			BufferedReader in = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
			StringBuilder head = new StringBuilder();
			for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
				head.append(line).append('\n');
			}
			assertThat(head.toString()).startsWith("HTTP/1.1 413").contains("application/problem+json");
		}
	}

	@Test
	void unknownPathsAndServerErrorsAreProblems() throws Exception {
		HttpResponse<String> response = send("GET", "/api/repos/" + seg(nested) + "/nothing", null, "viewer");
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
	}

}
