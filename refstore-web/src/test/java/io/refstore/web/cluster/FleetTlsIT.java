package io.refstore.web.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.pem.PemSslStoreBundle;
import org.springframework.boot.ssl.pem.PemSslStoreDetails;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.PostgresDatabase;

/**
 * Two nodes in two JVMs serving HTTPS, each with a certificate of its own made for the
 * test by the JDK's {@code keytool}, served from an SSL bundle
 * ({@code server.ssl.bundle}) and trusted by the other node's client through
 * {@code refstore.fleet.ssl-bundle} (a PEM bundle of the certificates it trusts), as
 * docs/operators.md's fleet section says. Beta trusts both certificates; alpha trusts
 * only its own. A read sent to beta for alpha's repository is forwarded over HTTPS and
 * served by alpha, and a job launched on beta for it is handed off to alpha and runs
 * there; each node registers its {@code https} address. Alpha, whose client does not
 * trust beta's certificate, answers a request for beta's repository with a problem naming
 * the TLS trust (502, never a 500), and its health's {@code fleet} component shows beta
 * unreachable for that reason, while beta's shows alpha reachable.
 */
class FleetTlsIT {

	private static final String SECRET = "fleet-secret-for-the-tls-node-test-0123456789";

	private static final String STORE_PASSWORD = "test-store-password";

	@Test
	void nodesForwardAndHandOffOverHttpsAndANodeThatDoesNotTrustAPeerSaysSo() throws Exception {
		Path dir = Files.createTempDirectory("refstore-fleet-tls").toRealPath();
		Path alphaRoot = Files.createDirectories(dir.resolve("alpha-disk"));
		Path betaRoot = Files.createDirectories(dir.resolve("beta-disk"));
		TempRepo onAlpha = repo(alphaRoot, "team/a.git");
		repo(betaRoot, "team/b.git");
		String main = onAlpha.git("rev-parse", "refs/heads/main").trim();
		String alphaCert = certificate(dir, "alpha");
		String betaCert = certificate(dir, "beta");
		Path alphaTrusts = Files.writeString(dir.resolve("alpha-trusts.crt"), alphaCert);
		Path betaTrusts = Files.writeString(dir.resolve("beta-trusts.crt"), alphaCert + betaCert);
		SSLContext testClient = SslBundle
			.of(new PemSslStoreBundle(null, PemSslStoreDetails.forCertificates(alphaCert + betaCert)))
			.createSslContext();
		try (PostgresDatabase db = PostgresDatabase.create("refstore_fleet_tls");
				AppProcess alpha = start("alpha", db, dir, alphaRoot, alphaTrusts, testClient);
				AppProcess beta = start("beta", db, dir, betaRoot, betaTrusts, testClient)) {
			alpha.awaitUp();
			beta.awaitUp();
			await("both nodes list both repositories",
					() -> json(alpha.get("/api/fleet/repositories")).read("$.total", Integer.class) == 2
							&& json(beta.get("/api/fleet/repositories")).read("$.total", Integer.class) == 2);
			List<String> urls = json(beta.get("/api/fleet/nodes")).read("$[*].url", List.class);
			assertThat(urls).hasSize(2).allSatisfy((url) -> assertThat(url).startsWith("https://"));

			// beta trusts alpha: a read of alpha's repository sent to beta is served by
			// alpha
			HttpResponse<String> read = beta.get("/api/repos/team%2Fa.git/refs/refs%2Fheads%2Fmain");
			assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
			assertThat(read.headers().firstValue("ETag")).contains("\"" + main + "\"");

			// a job launched on beta for alpha's repository runs on alpha
			HttpResponse<String> launched = beta.postJson("/api/jobs/verifications",
					"{\"repository\": \"team/a.git\"}");
			assertThat(launched.statusCode()).as(launched.body()).isEqualTo(201);
			long job = json(launched).read("$.id", Long.class);
			await("the verification ran on alpha",
					() -> "COMPLETED".equals(json(beta.get("/api/jobs/" + job)).read("$.status", String.class)));
			assertThat(json(beta.get("/api/jobs/" + job)).read("$.results['refstore.instance']", String.class))
				.isEqualTo("alpha");

			// alpha does not trust beta's certificate: a request for beta's repository
			// is
			// refused with a problem that says why, and nothing reaches beta
			HttpResponse<String> untrusted = alpha.get("/api/repos/team%2Fb.git/refs");
			assertThat(untrusted.statusCode()).as(untrusted.body()).isEqualTo(502);
			assertThat(untrusted.headers().firstValue("Content-Type")).contains("application/problem+json");
			DocumentContext problem = json(untrusted);
			assertThat(problem.read("$.type", String.class)).endsWith("/node-untrusted");
			assertThat(problem.read("$.node", String.class)).isEqualTo("beta");
			assertThat(problem.read("$.detail", String.class)).contains("node 'beta'")
				.contains("does not trust its certificate")
				.contains("refstore.fleet.ssl-bundle");
			assertThat(untrusted.body()).doesNotContain("Exception", "javax.", "sun.", "\tat ", dir.toString());

			// each node's health says how it reaches the other
			DocumentContext alphaHealth = json(alpha.get("/actuator/health"));
			assertThat(alphaHealth.read("$.components.fleet.status", String.class)).isEqualTo("DEGRADED");
			Map<String, Object> betaSeen = alphaHealth.read("$.components.fleet.details.peers.beta", Map.class);
			assertThat(betaSeen).as(alphaHealth.jsonString())
				.containsEntry("reachable", false)
				.containsEntry("credentials", "accepted");
			assertThat((String) betaSeen.get("tls")).contains("does not trust its certificate");
			await("beta's health shows alpha reachable and accepting its credentials", () -> "UP"
				.equals(json(beta.get("/actuator/health")).read("$.components.fleet.status", String.class)));
			Map<String, Object> alphaSeen = json(beta.get("/actuator/health"))
				.read("$.components.fleet.details.peers.alpha", Map.class);
			assertThat(alphaSeen).containsEntry("reachable", true)
				.containsEntry("credentials", "accepted")
				.doesNotContainKey("tls");
		}
	}

	/**
	 * A node serving HTTPS with its certificate (bundle {@code node}), whose client
	 * trusts the certificates in {@code trusts} (bundle {@code fleet}).
	 */
	private static AppProcess start(String id, PostgresDatabase db, Path dir, Path root, Path trusts,
			SSLContext testClient) throws Exception {
		Path home = Files.createDirectories(dir.resolve(id + "-home"));
		return AppProcess.startTls(testClient, id, db.url(), home, null, dir.resolve(id + ".log"),
				"--refstore.repositories.storages.s-" + id + "=" + root, "--refstore.fleet.secret=" + SECRET,
				"--server.ssl.bundle=node", "--spring.ssl.bundle.jks.node.keystore.location=file:" + keyStore(dir, id),
				"--spring.ssl.bundle.jks.node.keystore.password=" + STORE_PASSWORD,
				"--spring.ssl.bundle.jks.node.keystore.type=PKCS12",
				"--spring.ssl.bundle.pem.fleet.truststore.certificate=file:" + trusts,
				"--refstore.fleet.ssl-bundle=fleet", "--refstore.fleet.heartbeat=1s", "--refstore.fleet.down-after=4s",
				"--refstore.fleet.inventory-refresh=2s");
	}

	private static Path keyStore(Path dir, String id) {
		return dir.resolve(id + ".p12");
	}

	/**
	 * Makes node {@code id}'s key and self-signed certificate, for the names the nodes
	 * and this test reach it by, with {@code keytool}.
	 * @return the certificate, PEM-encoded
	 */
	private static String certificate(Path dir, String id) throws Exception {
		String host = InetAddress.getLocalHost().getHostName();
		Path keyStore = keyStore(dir, id);
		keytool("-genkeypair", "-alias", id, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + id, "-ext",
				"SAN=dns:localhost,ip:127.0.0.1,dns:" + host, "-validity", "2", "-storetype", "PKCS12", "-keystore",
				keyStore.toString(), "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD);
		Path certificate = dir.resolve(id + ".crt");
		keytool("-exportcert", "-rfc", "-alias", id, "-keystore", keyStore.toString(), "-storepass", STORE_PASSWORD,
				"-file", certificate.toString());
		return Files.readString(certificate);
	}

	private static void keytool(String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
		command.addAll(List.of(arguments));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes());
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as(output).isZero();
	}

	private static TempRepo repo(Path root, String name) {
		TempRepo repo = TempRepo.init(GitCli.system(), root.resolve(name), "--bare");
		repo.git("update-ref", "refs/heads/main", repo.commit("one", null));
		return repo;
	}

	private static DocumentContext json(HttpResponse<String> response) {
		return JsonPath.parse(response.body());
	}

	private static void await(String what, Callable<Boolean> condition) {
		Awaitility.await(what).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(condition);
	}

}
