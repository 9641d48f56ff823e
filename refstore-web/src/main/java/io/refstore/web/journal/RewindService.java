package io.refstore.web.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.http.HttpStatus;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

import io.refstore.batch.api.JobResults;
import io.refstore.batch.api.JobSummary;
import io.refstore.core.journal.JournalBase;
import io.refstore.core.journal.PointInTime;
import io.refstore.core.journal.RefAtTime;
import io.refstore.core.journal.RewindPlan;
import io.refstore.core.repo.RepositoryId;
import io.refstore.web.jobs.JobService;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoRegistry;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Problems;

/**
 * Point-in-time restore: "put {@code refs/heads/} of this repository back as they were at
 * 14:03". A preview works out, from the journal around that moment, its base and the refs
 * now ({@link RefAtTime}), which refs would be created, deleted and moved and which
 * cannot be (an object gone, or a value the journal cannot tell). A confirmed restore
 * works it out again, writes the plan and the plan that undoes it ({@link RewindPlan}, in
 * the repository's {@value JobResults#PLANS_DIR}) and launches {@code rewindRefsJob} over
 * the first; launching it over the second undoes the restore. Previewing needs VIEWER,
 * restoring ADMIN. Thread-safe.
 */
@Service
public class RewindService {

	private final JournalStore store;

	private final JournalIngester ingester;

	private final RepoRegistry registry;

	private final JobService jobs;

	private final JournalNames names;

	RewindService(JournalStore store, JournalIngester ingester, RepoRegistry registry, JobService jobs,
			JournalNames names) {
		this.names = names;
		this.store = store;
		this.ingester = ingester;
		this.registry = registry;
		this.jobs = jobs;
	}

	/**
	 * What restoring the refs under {@code prefix} to their values at {@code at} would
	 * do.
	 * @throws InvalidRequestException naming {@code at} if it is missing or to come
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public RewindPreview preview(String repo, Instant at, String prefix) throws IOException {
		return work(repo, at, prefix).preview();
	}

	/**
	 * Writes the plan that restores the refs under {@code prefix} to their values at
	 * {@code at}, and the plan that undoes it, and launches {@code rewindRefsJob} over
	 * the first.
	 * @return the launched job, whose parameters name the plan; the undo plan is beside
	 * it, named as {@link RewindPlan#undoName} says
	 * @throws org.springframework.web.ErrorResponseException 409 if nothing would change
	 */
	@PreAuthorize("hasRole('ADMIN')")
	public JobSummary restore(String repo, Instant at, String prefix, String actor) throws IOException {
		Work work = work(repo, at, prefix);
		if (work.steps().isEmpty()) {
			throw Problems.exception(HttpStatus.CONFLICT, "nothing-to-restore",
					"the refs of repository '" + Problems.printable(repo) + "' under '" + Problems.printable(prefix)
							+ "' that the journal can" + " restore hold their values of " + at + " already",
					Map.of("at", at.toString()));
		}
		String name;
		Path plans;
		try (OpenRepo open = this.registry.open(repo)) {
			RewindPlan plan = new RewindPlan(open.store().hashAlgorithm(),
					RepositoryId.find(open.repository()).orElse(null), at, prefix, work.steps());
			plans = open.repository().gitDir().resolve(JobResults.PLANS_DIR);
			name = plan.saveIn(plans);
		}
		try {
			return this.jobs.rewind(repo, name, actor);
		}
		catch (RuntimeException ex) {
			// not launched (another job holds the repository, say): no plan is left
			// behind
			Files.deleteIfExists(plans.resolve(name));
			Files.deleteIfExists(plans.resolve(RewindPlan.undoName(name)));
			throw ex;
		}
	}

	/**
	 * Launches {@code rewindRefsJob} over the plan that undoes a restore.
	 * @param plan the restore's plan, as its job's parameters name it
	 */
	@PreAuthorize("hasRole('ADMIN')")
	public JobSummary undo(String repo, String plan, String actor) {
		if (!RewindPlan.isPlanName(plan)) {
			throw new InvalidRequestException("plan", plan, "it is not a point-in-time restore's plan");
		}
		return this.jobs.rewind(repo, RewindPlan.undoName(plan), actor);
	}

	/** A preview and the plan's steps. */
	private record Work(RewindPreview preview, List<RewindPlan.Step> steps) {

	}

	private Work work(String repo, Instant at, String prefix) throws IOException {
		if (at == null) {
			throw new InvalidRequestException("at", null, "name the moment to restore to (an ISO-8601 instant)");
		}
		if (at.isAfter(Instant.now())) {
			throw new InvalidRequestException("at", at.toString(), "it is still to come");
		}
		if (prefix.indexOf('\n') >= 0) {
			throw new InvalidRequestException("prefix", prefix, "a prefix holds no line break");
		}
		String key = this.names.key(repo);
		this.ingester.ingest(key);
		Instant pruned = this.store.source(key).map(JournalStore.Source::prunedBefore).orElse(null);
		if (pruned != null && at.isBefore(pruned)) {
			throw new InvalidRequestException("at", at.toString(),
					"the journal keeps the changes from " + pruned + " on (its retention pruned older ones)");
		}
		long boundary = this.store.boundary(key, at);
		PointInTime.Around around = new PointInTime.Around(
				changes(this.store.aroundBoundary(key, prefix, boundary, true)),
				changes(this.store.aroundBoundary(key, prefix, boundary, false)));
		Lists lists = new Lists();
		List<RewindPlan.Step> steps;
		Instant baseTime;
		try (OpenRepo open = this.registry.open(repo)) {
			Optional<JournalBase> base = JournalBase.read(open.repository().commonDir());
			baseTime = base.map(JournalBase::time).orElse(null);
			steps = PointInTime.sort(around, at, base, open.store(), open.repository().objectDatabase(), lists);
		}
		return new Work(lists.preview(at, prefix, baseTime), steps);
	}

	private static Map<String, RefAtTime.Change> changes(Map<String, JournalEntryView> entries) {
		Map<String, RefAtTime.Change> changes = new HashMap<>();
		entries.forEach((ref, entry) -> changes.put(ref, new RefAtTime.Change(entry.oldValue(), entry.newValue())));
		return changes;
	}

	/** The preview's lists, as the refs are sorted into them. */
	private static final class Lists implements PointInTime.Sink {

		private final List<RewindPreview.Change> creates = new ArrayList<>();

		private final List<RewindPreview.Change> deletes = new ArrayList<>();

		private final List<RewindPreview.Change> moves = new ArrayList<>();

		private final List<RewindPreview.Change> missing = new ArrayList<>();

		private final List<String> unknown = new ArrayList<>();

		private final long[] counts = new long[6];

		@Override
		public void create(String ref, String target) {
			this.counts[0]++;
			add(this.creates, new RewindPreview.Change(ref, null, target));
		}

		@Override
		public void delete(String ref, String current) {
			this.counts[1]++;
			add(this.deletes, new RewindPreview.Change(ref, current, null));
		}

		@Override
		public void move(String ref, String current, String target) {
			this.counts[2]++;
			add(this.moves, new RewindPreview.Change(ref, current, target));
		}

		@Override
		public void missing(String ref, String current, String target) {
			this.counts[3]++;
			add(this.missing, new RewindPreview.Change(ref, current, target));
		}

		@Override
		public void unknown(String ref) {
			this.counts[4]++;
			add(this.unknown, ref);
		}

		@Override
		public void unchanged(String ref) {
			this.counts[5]++;
		}

		private static <T> void add(List<T> list, T item) {
			if (list.size() < RewindPreview.SHOWN) {
				list.add(item);
			}
		}

		RewindPreview preview(Instant at, String prefix, Instant baseTime) {
			return new RewindPreview(at, prefix, baseTime, this.creates, this.deletes, this.moves, this.missing,
					this.unknown, new RewindPreview.Counts(this.counts[0], this.counts[1], this.counts[2],
							this.counts[3], this.counts[4], this.counts[5]));
		}

	}

}
