package io.refstore.web.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.refstore.web.ApiTestSupport;

/**
 * Webhooks through the API against real HTTP receivers on this machine (the tests' shared
 * settings allow local addresses and shorten the back-off to 200 ms, at most 3 attempts):
 * a job's start and end reach the webhook wanting its repository, signed as GitHub signs
 * with its secret, and not the one wanting others; a receiver answering 500 is tried
 * again until it answers 200, or until the last attempt; a receiver that hangs delays no
 * job; campaigns and schedules are told too (lock-outs: LoginThrottleIT), and forged node
 * credentials once in a while; bad input is a 400 naming its field, and only an ADMIN
 * sees or changes webhooks. A webhook's deliveries arrive in the order of their events.
 */
class WebhooksIT extends ApiTestSupport {

	private static final String SECRET = "a-secret-of-some-length";

	private static final ConcurrentMap<String, Integer> ATTEMPTS = new ConcurrentHashMap<>();

	@Test
	void aJobsStartAndEndReachTheWebhookWantingItsRepositorySigned() throws Exception {
		String repo = uniqueName("hooked");
		bareRepo(repo).commit("one", null);
		try (WebhookReceiver receiver = WebhookReceiver.ok(); WebhookReceiver others = WebhookReceiver.ok()) {
			long id = create(uniqueName("jobs"), receiver.url("/hook"), SECRET, List.of("job.started", "job.finished"),
					repo);
			long other = create(uniqueName("others"), others.url("/hook"), SECRET,
					List.of("job.started", "job.finished"), "elsewhere/*");
			long execution = completedInventory(repo);

			Awaitility.await("two deliveries")
				.atMost(Duration.ofSeconds(30))
				.until(() -> receiver.received().size() == 2);
			List<WebhookReceiver.Received> received = receiver.received();
			assertThat(received).extracting((r) -> r.header("X-Refstore-Event"))
				.containsExactly("job.started", "job.finished");
			for (WebhookReceiver.Received delivery : received) {
				assertThat(delivery.header("X-Hub-Signature-256"))
					.isEqualTo(WebhookReceiver.expectedSignature(SECRET, delivery.body()))
					.isNotEqualTo(WebhookReceiver.expectedSignature("another-secret-entirely", delivery.body()));
				assertThat(delivery.header("Content-Type")).isEqualTo("application/json");
				DocumentContext payload = JsonPath.parse(delivery.body());
				assertThat(payload.read("$.delivery", String.class)).isEqualTo(delivery.header("X-Refstore-Delivery"));
				assertThat(payload.read("$.repository", String.class)).isEqualTo(repo);
				assertThat(payload.read("$.job.execution", Long.class)).isEqualTo(execution);
				assertThat(payload.read("$.job.url", String.class)).isEqualTo("/jobs/" + execution);
			}
			assertThat(JsonPath.parse(received.get(1).body()).read("$.job.status", String.class))
				.isEqualTo("COMPLETED");
			Awaitility.await("the log")
				.atMost(Duration.ofSeconds(10))
				.until(() -> deliveries(id).read("$[?(@.state == 'DELIVERED' && @.statusCode == 200)].id", List.class)
					.size() == 2);
			assertThat(deliveries(id).read("$[0].response", String.class)).isEqualTo("thanks");
			assertThat(others.received()).isEmpty();
			assertThat(deliveries(other).read("$.length()", Integer.class)).isZero();
			this.mvc.perform(delete("/api/webhooks/" + id).with(as("admin"))).andExpect(status().isNoContent());
			this.mvc.perform(delete("/api/webhooks/" + other).with(as("admin"))).andExpect(status().isNoContent());
			this.mvc.perform(get("/api/webhooks/" + id).with(as("admin"))).andExpect(status().isNotFound());
		}
	}

	@Test
	void aFailingReceiverIsTriedAgainUntilItAnswers2xxOrTheLastAttempt() throws Exception {
		try (WebhookReceiver flaky = new WebhookReceiver((request) -> new WebhookReceiver.Answer(
				(request.path().equals("/flaky") && countOf(request) < 3) ? 500 : 200, "attempt"));
				WebhookReceiver down = new WebhookReceiver((request) -> new WebhookReceiver.Answer(503, "down"))) {
			long recovering = create(uniqueName("flaky"), flaky.url("/flaky"), SECRET, List.of("job.failed"), "*");
			long failing = create(uniqueName("down"), down.url("/down"), SECRET, List.of("job.failed"), "*");
			long test = JsonPath
				.parse(this.mvc.perform(post("/api/webhooks/" + recovering + "/deliveries:test").with(as("admin")))
					.andExpect(status().isAccepted())
					.andExpect(jsonPath("$.event").value("ping"))
					.andReturn()
					.getResponse()
					.getContentAsString())
				.read("$.id", Long.class);
			this.mvc.perform(post("/api/webhooks/" + failing + "/deliveries:test").with(as("admin")))
				.andExpect(status().isAccepted());

			Awaitility.await("delivered on the third attempt")
				.atMost(Duration.ofSeconds(30))
				.until(() -> "DELIVERED".equals(delivery(recovering, test).read("$.state", String.class)));
			DocumentContext delivered = delivery(recovering, test);
			assertThat(delivered.read("$.attempts", Integer.class)).isEqualTo(3);
			assertThat(delivered.read("$.statusCode", Integer.class)).isEqualTo(200);
			assertThat(flaky.received()).hasSize(3)
				.extracting((r) -> r.header("X-Refstore-Delivery"))
				.containsOnly(delivered.read("$.guid", String.class));

			Awaitility.await("failed after the last attempt")
				.atMost(Duration.ofSeconds(30))
				.until(() -> "FAILED".equals(deliveries(failing).read("$[0].state", String.class)));
			DocumentContext failed = deliveries(failing);
			assertThat(failed.read("$[0].attempts", Integer.class)).isEqualTo(3);
			assertThat(failed.read("$[0].statusCode", Integer.class)).isEqualTo(503);
			assertThat(failed.read("$[0].response", String.class)).isEqualTo("down");
			assertThat(down.received()).hasSize(3);
			String scrape = prometheusScrape();
			assertThat(scrape).contains("# HELP refstore_webhook_attempts_total Webhook delivery attempts");
			assertThat(prometheusValue(scrape, "refstore_webhook_attempts_total", "outcome=\"delivered\""))
				.isGreaterThanOrEqualTo(1);
			assertThat(prometheusValue(scrape, "refstore_webhook_attempts_total", "outcome=\"retry\""))
				.isGreaterThanOrEqualTo(4);
			assertThat(prometheusValue(scrape, "refstore_webhook_attempts_total", "outcome=\"failed\""))
				.isGreaterThanOrEqualTo(1);

			// sent again by hand: a new delivery of the same payload and id header
			this.mvc
				.perform(post("/api/webhooks/" + recovering + "/deliveries/" + test + ":redeliver").with(as("admin")))
				.andExpect(status().isAccepted())
				.andExpect(jsonPath("$.guid").value(delivered.read("$.guid", String.class)));
			Awaitility.await("redelivered").atMost(Duration.ofSeconds(30)).until(() -> flaky.received().size() == 4);
			deleteAll(recovering, failing);
		}
	}

	@Test
	void aWebhooksDeliveriesArriveInTheOrderOfTheirEvents() throws Exception {
		try (WebhookReceiver receiver = WebhookReceiver.ok()) {
			long id = create(uniqueName("ordered"), receiver.url("/ordered"), SECRET, List.of("job.started"), "*");
			List<String> sent = new ArrayList<>();
			for (int i = 0; i < 8; i++) {
				sent.add(JsonPath
					.parse(this.mvc.perform(post("/api/webhooks/" + id + "/deliveries:test").with(as("admin")))
						.andExpect(status().isAccepted())
						.andReturn()
						.getResponse()
						.getContentAsString())
					.read("$.guid", String.class));
			}
			Awaitility.await("eight deliveries")
				.atMost(Duration.ofSeconds(30))
				.until(() -> receiver.received().size() == 8);
			assertThat(receiver.received()).extracting((r) -> r.header("X-Refstore-Delivery"))
				.containsExactlyElementsOf(sent);
			deleteAll(id);
		}
	}

	/** Counts the attempts of a request's delivery, this one included. */
	private static int countOf(WebhookReceiver.Received request) {
		return ATTEMPTS.merge(request.header("X-Refstore-Delivery"), 1, Integer::sum);
	}

	@Test
	void aReceiverThatHangsDelaysNoJob() throws Exception {
		String repo = uniqueName("slow-hook");
		bareRepo(repo).commit("one", null);
		CountDownLatch release = new CountDownLatch(1);
		try (WebhookReceiver hanging = new WebhookReceiver((request) -> {
			try {
				release.await(60, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return new WebhookReceiver.Answer(200, "late");
		})) {
			long id = create(uniqueName("hanging"), hanging.url("/hook"), SECRET,
					List.of("job.started", "job.finished"), repo);
			long execution = completedInventory(repo);
			// the job completed while the receiver holds its deliveries: they time out
			Awaitility.await("timed out")
				.atMost(Duration.ofSeconds(30))
				.until(() -> deliveries(id).read("$[?(@.response == 'no answer within 2000 ms')].id", List.class)
					.size() == 2);
			release.countDown();
			Awaitility.await("delivered later")
				.atMost(Duration.ofSeconds(30))
				.until(() -> deliveries(id).read("$[?(@.state == 'DELIVERED')].id", List.class).size() == 2);
			assertThat(JsonPath.parse(hanging.received().get(0).body()).read("$.job.execution", Long.class))
				.isEqualTo(execution);
			deleteAll(id);
		}
	}

	@Test
	void campaignsAndSchedulesAreToldToo() throws Exception {
		String repo = uniqueName("campaigned");
		bareRepo(repo).commit("one", null);
		try (WebhookReceiver receiver = WebhookReceiver.ok()) {
			long id = create(uniqueName("all"), receiver.url("/all"), SECRET, List.of("campaign.started",
					"campaign.finished", "schedule.fired", "schedule.paused", "schedule.deleted"), repo);
			this.mvc
				.perform(post("/api/campaigns").with(as("operator")).contentType(MediaType.APPLICATION_JSON).content("""
						{"jobType":"inventory","targetKind":"REPOSITORY","target":"%s"}""".formatted(repo)))
				.andExpect(status().isCreated());
			String schedule = uniqueName("hooked-schedule");
			this.mvc
				.perform(post("/api/schedules").with(as("operator"))
					.contentType(MediaType.APPLICATION_JSON)
					.content("""
							{"name": "%s", "jobType": "inventory", "target": "%s", "onceAt": "%s"}"""
						.formatted(schedule, repo, Instant.now().plusSeconds(3))))
				.andExpect(status().isCreated());
			Awaitility.await("campaign and schedule")
				.atMost(Duration.ofSeconds(60))
				.until(() -> receiver.received()
					.stream()
					.map((r) -> r.header("X-Refstore-Event"))
					.distinct()
					.count() == 3);
			this.mvc.perform(post("/api/schedules/" + schedule + "/pause").with(as("operator")))
				.andExpect(status().isOk());
			this.mvc.perform(delete("/api/schedules/" + schedule).with(as("operator")))
				.andExpect(status().isNoContent());
			Awaitility.await("paused and deleted")
				.atMost(Duration.ofSeconds(30))
				.until(() -> receiver.received()
					.stream()
					.map((r) -> r.header("X-Refstore-Event"))
					.distinct()
					.count() == 5);
			assertThat(JsonPath.parse(body(receiver, "schedule.deleted")).read("$.actor", String.class))
				.isEqualTo("operator");
			String finished = body(receiver, "campaign.finished");
			assertThat(JsonPath.parse(finished).read("$.campaign.state", String.class)).isEqualTo("FINISHED");
			assertThat(JsonPath.parse(finished).read("$.campaign.repositories.done", Integer.class)).isOne();
			assertThat(JsonPath.parse(body(receiver, "schedule.fired")).read("$.schedule.name", String.class))
				.isEqualTo(schedule);
			assertThat(JsonPath.parse(body(receiver, "schedule.fired"))
				.read("$.schedule.repositories.queued", Integer.class)).isOne();
			deleteAll(id);
		}
	}

	@Test
	void forgedNodeCredentialsAreToldOnceInAWhileNotOnceEach() throws Exception {
		try (WebhookReceiver receiver = WebhookReceiver.ok()) {
			long id = create(uniqueName("forged"), receiver.url("/forged"), SECRET, List.of("security.node-refused"),
					"*");
			// another test's refusal may have started a quiet period: forge until one is
			// told
			Awaitility.await("a refusal told")
				.atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofSeconds(1))
				.until(() -> {
					forge();
					return !receiver.received().isEmpty();
				});
			for (int i = 0; i < 5; i++) {
				forge();
			}
			Thread.sleep(2000);
			assertThat(receiver.received()).hasSize(1);
			DocumentContext told = JsonPath.parse(receiver.received().get(0).body());
			assertThat(told.read("$.event", String.class)).isEqualTo("security.node-refused");
			assertThat(told.read("$.request.node", String.class)).isEqualTo("forger");
			assertThat(told.read("$.request.reason", String.class)).isEqualTo("this node has no refstore.fleet.secret");
			deleteAll(id);
		}
	}

	private void forge() throws Exception {
		this.mvc.perform(get("/api/repos").header("X-Refstore-Node", "forger").header("X-Refstore-Roles", "ROLE_ADMIN"))
			.andExpect(status().isUnauthorized());
	}

	@Test
	void badInputIsA400NamingItsFieldAndOnlyAnAdminSeesWebhooks() throws Exception {
		String name = uniqueName("checked");
		String good = """
				{"name": "%s", "url": "https://hooks.example.com/x", "events": ["job.failed"]}""".formatted(name);
		refused("{\"name\": \"a b\", \"url\": \"https://hooks.example.com/x\", \"events\": [\"job.failed\"]}", "name");
		refused("{\"name\": \"n1\", \"url\": \"ftp://hooks.example.com/x\", \"events\": [\"job.failed\"]}", "url");
		refused("{\"name\": \"n1\", \"url\": \"https://user:pw@hooks.example.com/x\", \"events\": [\"job.failed\"]}",
				"url");
		refused("{\"name\": \"n1\", \"url\": \"https://hooks.example.com/x\", \"events\": [\"job.exploded\"]}",
				"events");
		refused("{\"name\": \"n1\", \"url\": \"https://hooks.example.com/x\", \"events\": []}", "events");
		refused("{\"name\": \"n1\", \"url\": \"https://hooks.example.com/x\", \"events\": [\"job.failed\"],"
				+ " \"secret\": \"short\"}", "secret");
		refused("{\"name\": \"n1\", \"url\": \"https://hooks.example.com/x\", \"events\": [\"job.failed\"],"
				+ " \"repositories\": \"team/[a\"}", "repositories");
		for (String user : List.of("viewer", "operator")) {
			this.mvc.perform(post("/api/webhooks").with(as(user)).contentType(MediaType.APPLICATION_JSON).content(good))
				.andExpect(status().isForbidden());
			this.mvc.perform(get("/api/webhooks").with(as(user))).andExpect(status().isForbidden());
		}
		// no secret given: refstore makes one and shows it once
		String created = this.mvc
			.perform(post("/api/webhooks").with(as("admin")).contentType(MediaType.APPLICATION_JSON).content(good))
			.andExpect(status().isCreated())
			.andExpect(header().exists("Location"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		String secret = JsonPath.read(created, "$.secret");
		assertThat(secret).hasSize(64);
		long id = JsonPath.parse(created).read("$.webhook.id", Long.class);
		String shown = this.mvc.perform(get("/api/webhooks/" + id).with(as("admin")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.repositories").value("*"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(shown).doesNotContain(secret);
		this.mvc.perform(post("/api/webhooks").with(as("admin")).contentType(MediaType.APPLICATION_JSON).content(good))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("name"));
		this.mvc
			.perform(put("/api/webhooks/" + id).with(as("admin"))
				.contentType(MediaType.APPLICATION_JSON)
				.content(
						"""
								{"name": "%s", "url": "https://hooks.example.com/y", "events": ["job.failed", "job.stopped"], "active": false}"""
							.formatted(name)))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.url").value("https://hooks.example.com/y"))
			.andExpect(jsonPath("$.active").value(false))
			.andExpect(jsonPath("$.events.length()").value(2));
		this.mvc.perform(get("/api/webhooks/987654321").with(as("admin")))
			.andExpect(status().isNotFound())
			.andExpect(jsonPath("$.type").value(endsWith("webhook-not-found")));
		deleteAll(id);
	}

	private void refused(String body, String parameter) throws Exception {
		this.mvc.perform(post("/api/webhooks").with(as("admin")).contentType(MediaType.APPLICATION_JSON).content(body))
			.andExpect(status().isBadRequest())
			.andExpect(header().string("Content-Type", "application/problem+json"))
			.andExpect(jsonPath("$.parameter").value(parameter));
	}

	private long create(String name, String url, String secret, List<String> events, String repositories)
			throws Exception {
		String body = """
				{"name": "%s", "url": "%s", "secret": "%s", "events": [%s], "repositories": "%s"}""".formatted(name,
				url, secret, String.join(", ", events.stream().map((e) -> "\"" + e + "\"").toList()), repositories);
		ResultActions created = this.mvc
			.perform(post("/api/webhooks").with(as("admin")).contentType(MediaType.APPLICATION_JSON).content(body))
			.andExpect(status().isCreated())
			.andExpect(jsonPath("$.secret").doesNotExist());
		return JsonPath.parse(created.andReturn().getResponse().getContentAsString()).read("$.webhook.id", Long.class);
	}

	private DocumentContext deliveries(long id) throws Exception {
		return JsonPath.parse(this.mvc.perform(get("/api/webhooks/" + id + "/deliveries").with(as("admin")))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString());
	}

	private DocumentContext delivery(long id, long delivery) throws Exception {
		return JsonPath.parse(this.mvc.perform(get("/api/webhooks/" + id + "/deliveries/" + delivery).with(as("admin")))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString());
	}

	private void deleteAll(long... ids) throws Exception {
		for (long id : ids) {
			this.mvc.perform(delete("/api/webhooks/" + id).with(as("admin"))).andExpect(status().isNoContent());
		}
	}

	private static String body(WebhookReceiver receiver, String event) {
		return receiver.received()
			.stream()
			.filter((r) -> event.equals(r.header("X-Refstore-Event")))
			.findFirst()
			.orElseThrow()
			.body();
	}

}
