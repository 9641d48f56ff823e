package io.refstore.web.fleet;

import java.sql.DriverManager;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.sql.DataSource;

import org.postgresql.jdbc.PgConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpStatus;
import org.springframework.integration.jdbc.channel.PostgresChannelMessageTableSubscriber;
import org.springframework.integration.jdbc.channel.PostgresSubscribableChannel;
import org.springframework.integration.jdbc.store.JdbcChannelMessageStore;
import org.springframework.integration.jdbc.store.channel.PostgresChannelMessageStoreQueryProvider;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.GenericMessage;
import org.springframework.stereotype.Component;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import io.refstore.batch.api.InvalidJobParameterException;
import io.refstore.batch.api.JobConflictException;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobStateException;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Problems;

/**
 * Hands a job to the node holding its repository, through the database: the request is a
 * row of {@code refstore_job_handoff} and a message on that node's channel (Spring
 * Integration's {@link PostgresSubscribableChannel}: a row of {@code INT_CHANNEL_MESSAGE}
 * whose trigger notifies the node listening, so no node polls); the node takes the row at
 * most once, launches or restarts the job as if it had been asked directly (its
 * parameters checked, its lease taken, its launch audited), and answers on the asking
 * node's channel. The asking node waits {@link #TAKE_WAIT} for the request to be taken
 * and cancels it otherwise (then nothing was launched, and it says so); once taken, it
 * waits {@link #DONE_WAIT} for the answer. PostgreSQL only (the {@code postgres}
 * profile): a single node on H2 runs every job itself. Thread-safe.
 */
@Component
@Profile("postgres")
public class JobHandoff implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(JobHandoff.class);

	/** The region of the fleet's messages in {@code INT_CHANNEL_MESSAGE}. */
	static final String REGION = "refstore-fleet";

	/** How long the asking node waits for the holding node to take a request. */
	static final Duration TAKE_WAIT = Duration.ofSeconds(10);

	/** How long it then waits for the launch's outcome. */
	static final Duration DONE_WAIT = Duration.ofSeconds(60);

	private final JobHandoffStore store;

	private final RefJobs jobs;

	private final JsonMapper json;

	private final String node;

	private final JdbcChannelMessageStore messages;

	private final PostgresChannelMessageTableSubscriber subscriber;

	private final PostgresSubscribableChannel requests;

	private final PostgresSubscribableChannel replies;

	private final Map<String, CompletableFuture<Void>> waiting = new ConcurrentHashMap<>();

	private volatile boolean running;

	JobHandoff(JobHandoffStore store, RefJobs jobs, JsonMapper json, DataSource dataSource, Environment environment,
			BeanFactory beans) {
		this.store = store;
		this.jobs = jobs;
		this.json = json;
		this.node = jobs.instanceId();
		this.messages = new JdbcChannelMessageStore(dataSource);
		this.messages.setChannelMessageStoreQueryProvider(new PostgresChannelMessageStoreQueryProvider());
		this.messages.setRegion(REGION);
		this.messages.afterPropertiesSet();
		String url = environment.getRequiredProperty("spring.datasource.url");
		String user = environment.getProperty("spring.datasource.username");
		String password = environment.getProperty("spring.datasource.password");
		this.subscriber = new PostgresChannelMessageTableSubscriber(
				() -> DriverManager.getConnection(url, user, password).unwrap(PgConnection.class));
		this.requests = channel(requestsOf(this.node), beans);
		this.replies = channel(repliesOf(this.node), beans);
	}

	private PostgresSubscribableChannel channel(String group, BeanFactory beans) {
		PostgresSubscribableChannel channel = new PostgresSubscribableChannel(this.messages, group, this.subscriber);
		channel.setBeanName("refstore-fleet-" + group);
		channel.setBeanFactory(beans);
		channel.afterPropertiesSet();
		return channel;
	}

	private static String requestsOf(String node) {
		return "jobs:" + node;
	}

	private static String repliesOf(String node) {
		return "replies:" + node;
	}

	@Override
	public void start() {
		this.requests.subscribe(this::onRequest);
		this.replies.subscribe(this::onReply);
		this.subscriber.start();
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		this.subscriber.stop();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Launches a job on {@code target}, which holds {@code repository}.
	 * @param parameters the job's parameters by {@code JobParameterNames} key, without
	 * the repository
	 * @return the new execution, as the shared job repository has it
	 */
	public JobSummary launch(String target, RefJobType type, String repository, Map<String, String> parameters,
			String actor) {
		return handOff(new JobHandoffRequest(UUID.randomUUID().toString(), JobHandoffRequest.Kind.LAUNCH, this.node,
				target, type.name(), repository, this.json.writeValueAsString(parameters), null, actor));
	}

	/**
	 * Restarts execution {@code executionId} on {@code target}, which holds its
	 * repository.
	 */
	public JobSummary restart(String target, long executionId, String repository, String actor) {
		return handOff(new JobHandoffRequest(UUID.randomUUID().toString(), JobHandoffRequest.Kind.RESTART, this.node,
				target, null, repository, null, executionId, actor));
	}

	private JobSummary handOff(JobHandoffRequest request) {
		CompletableFuture<Void> answered = new CompletableFuture<>();
		this.waiting.put(request.id(), answered);
		try {
			this.store.create(request);
			this.messages.addMessageToGroup(requestsOf(request.target()), new GenericMessage<>(request.id()));
			if (!await(answered, TAKE_WAIT) && this.store.cancel(request.id())) {
				throw Problems.exception(HttpStatus.SERVICE_UNAVAILABLE, "node-unresponsive",
						"node '" + request.target() + "', which holds repository '" + request.repository()
								+ "', did not take the job within " + TAKE_WAIT.toSeconds()
								+ " s: nothing was launched",
						Map.of("node", request.target(), "repository", request.repository()));
			}
			await(answered, DONE_WAIT);
			JobHandoffOutcome outcome = this.store.outcome(request.id())
				.orElseThrow(() -> Problems.exception(HttpStatus.GATEWAY_TIMEOUT, "node-unresponsive",
						"node '" + request.target() + "' took the job but did not say within " + DONE_WAIT.toSeconds()
								+ " s whether it launched it: see the jobs of repository '" + request.repository()
								+ "'",
						Map.of("node", request.target(), "repository", request.repository())));
			return this.jobs.find(executionOf(outcome, request)).orElseThrow();
		}
		finally {
			this.waiting.remove(request.id());
		}
	}

	/** Whether the answer came (or the outcome is recorded) within {@code wait}. */
	private boolean await(CompletableFuture<Void> answered, Duration wait) {
		try {
			answered.get(wait.toMillis(), TimeUnit.MILLISECONDS);
			return true;
		}
		catch (TimeoutException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		catch (ExecutionException ex) {
			return false;
		}
	}

	/** The new execution's id, or the refusal as the asking node would have said it. */
	private static long executionOf(JobHandoffOutcome outcome, JobHandoffRequest request) {
		if (outcome.executionId() != null) {
			return outcome.executionId();
		}
		switch (String.valueOf(outcome.errorKind())) {
			case "parameter" ->
				throw new InvalidRequestException(outcome.parameter(), outcome.value(), outcome.message());
			case "conflict" -> throw new JobConflictException(outcome.message(), outcome.conflictingExecution());
			case "state" -> throw Problems.exception(HttpStatus.CONFLICT, "job-state", outcome.message(),
					Map.of("execution", request.restartOf()));
			default -> throw Problems.exception(HttpStatus.BAD_GATEWAY, "node-failure",
					"node '" + request.target() + "' could not "
							+ request.kind().name().toLowerCase(java.util.Locale.ROOT)
							+ " the job; its log has the cause (request " + request.id() + ")",
					Map.of("node", request.target()));
		}
	}

	/** On the holding node: a request to take. */
	private void onRequest(Message<?> message) {
		String id = String.valueOf(message.getPayload());
		JobHandoffRequest request = this.store.take(id, this.node).orElse(null);
		if (request == null) {
			return;
		}
		JobHandoffOutcome outcome;
		try {
			JobSummary started = switch (request.kind()) {
				case LAUNCH -> {
					Map<String, String> parameters = new LinkedHashMap<>(
							this.json.readValue(request.parameters(), new TypeReference<Map<String, String>>() {
							}));
					parameters.put(JobParameterNames.REPOSITORY, request.repository());
					yield this.jobs.launch(RefJobType.valueOf(request.jobType()), parameters, request.actor());
				}
				case RESTART -> this.jobs.restart(request.restartOf(), request.actor());
			};
			outcome = JobHandoffOutcome.launched(started.executionId());
		}
		catch (InvalidJobParameterException ex) {
			outcome = new JobHandoffOutcome(null, "parameter", ex.parameter(), ex.value(), ex.reason(), null);
		}
		catch (JobConflictException ex) {
			outcome = new JobHandoffOutcome(null, "conflict", null, null, ex.getMessage(), ex.executionId());
		}
		catch (JobStateException ex) {
			outcome = new JobHandoffOutcome(null, "state", null, null, ex.getMessage(), null);
		}
		catch (RuntimeException ex) {
			logger.warn("Handed-off job request {} from node '{}' failed", id, request.origin(), ex);
			outcome = new JobHandoffOutcome(null, "error", null, null, null, null);
		}
		this.store.done(id, outcome);
		this.messages.addMessageToGroup(repliesOf(request.origin()), new GenericMessage<>(id));
	}

	/** On the asking node: an answer. */
	private void onReply(Message<?> message) {
		CompletableFuture<Void> answered = this.waiting.get(String.valueOf(message.getPayload()));
		if (answered != null) {
			answered.complete(null);
		}
	}

}
