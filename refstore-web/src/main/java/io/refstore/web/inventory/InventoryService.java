package io.refstore.web.inventory;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoRegistry;
import io.refstore.web.system.InvalidRequestException;

/**
 * The inventory history as the API, the console and the gauges read it: a repository's
 * runs over a period with its growth ({@link Growth}), and the newest run of every
 * repository. VIEWER reads it all. Thread-safe.
 */
@Service
public class InventoryService {

	/** The most runs one read returns: the newest of the period. */
	public static final int MAX_RUNS = 1000;

	/** The period a read covers when the caller names no start: 90 days. */
	public static final Duration DEFAULT_PERIOD = Duration.ofDays(90);

	/** The end of a period without one: later than any run. */
	private static final Instant NO_END = Instant.parse("9999-12-31T00:00:00Z");

	private final InventoryStore store;

	private final RepoRegistry registry;

	private final long alertPerWeek;

	InventoryService(InventoryStore store, RepoRegistry registry, InventorySettings settings) {
		this.store = store;
		this.registry = registry;
		this.alertPerWeek = settings.growthAlertPerWeek();
	}

	/**
	 * A repository's runs and its growth now.
	 *
	 * @param repository the repository's name
	 * @param growth its growth by the newest run and the oldest of the week before it
	 * @param alertPerWeek the rate above which growth is fast
	 * @param runs the runs of the period, oldest first
	 */
	public record History(String repository, Growth growth, long alertPerWeek, List<InventoryRecord> runs) {

		/** The growth at each run, by the same rule, in the order of {@link #runs}. */
		public List<Growth> growthSeries() {
			return Growth.series(this.runs, this.alertPerWeek);
		}

	}

	/**
	 * A repository's newest run with its growth.
	 *
	 * @param repository the repository's name
	 * @param growth its growth
	 * @param newest its newest run
	 */
	public record Latest(String repository, Growth growth, InventoryRecord newest) {

	}

	/**
	 * The runs of {@code repository} recorded in {@code [from, to)}, the newest
	 * {@link #MAX_RUNS} of them, and its growth now.
	 * @param from the period's start, or {@code null} for {@link #DEFAULT_PERIOD} before
	 * now
	 * @param to the period's end (exclusive), or {@code null} for none
	 * @throws InvalidRequestException naming {@code from} if it is not before {@code to}
	 * @throws io.refstore.web.repos.RepoNotFoundException 404 for a repository that has
	 * no run in the period and does not exist
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public History history(String repository, Instant from, Instant to) {
		Instant end = (to != null) ? to : NO_END;
		Instant start = (from != null) ? from : Instant.now().minus(DEFAULT_PERIOD);
		if (!start.isBefore(end)) {
			throw new InvalidRequestException("from", String.valueOf(from), "it must be before to (" + end + ")");
		}
		List<InventoryRecord> runs = this.store.history(repository, start, end, MAX_RUNS);
		if (runs.isEmpty()) {
			requireRepository(repository);
		}
		return new History(repository, growth(repository), this.alertPerWeek, runs);
	}

	/** The newest run of every repository that has one, with its growth, by name. */
	@PreAuthorize("hasRole('VIEWER')")
	public List<Latest> latest() {
		return latestRuns();
	}

	/**
	 * The growth of each of {@code repositories} that has a run; the others are absent.
	 * Reads the runs of those repositories only (a dashboard page's), never every
	 * repository's.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public Map<String, Growth> growth(Collection<String> repositories) {
		Map<String, Growth> out = new LinkedHashMap<>();
		for (String repository : new LinkedHashSet<>(repositories)) {
			this.store.newest(repository).ifPresent((newest) -> out.put(repository, growth(newest)));
		}
		return out;
	}

	/**
	 * The rate above which growth is fast
	 * ({@code refstore.inventory.growth-alert-per-week}).
	 */
	public long alertPerWeek() {
		return this.alertPerWeek;
	}

	/**
	 * {@link #latest()} without the role check, for the gauges, which the application
	 * itself computes.
	 */
	List<Latest> latestRuns() {
		return this.store.newest()
			.stream()
			.map((newest) -> new Latest(newest.repository(), growth(newest), newest))
			.toList();
	}

	private Growth growth(String repository) {
		return this.store.newest(repository).map(this::growth).orElse(Growth.unknown(null));
	}

	/** The growth from the oldest run of the week before {@code newest} to it. */
	private Growth growth(InventoryRecord newest) {
		InventoryRecord oldest = this.store.oldestSince(newest.repository(), newest.recordedAt().minus(Growth.WINDOW))
			.orElse(newest);
		if (oldest.jobExecutionId() == newest.jobExecutionId()) {
			return Growth.unknown(newest.recordedAt());
		}
		return Growth.between(oldest.refs(), oldest.recordedAt(), newest.refs(), newest.recordedAt(),
				this.alertPerWeek);
	}

	private void requireRepository(String repository) {
		try (OpenRepo repo = this.registry.open(repository)) {
			// it exists: it simply has no run yet
		}
		catch (IOException ex) {
			throw new InvalidRequestException("repository", repository, "it cannot be read");
		}
	}

}
