package io.refstore.web.refs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

import io.refstore.core.delete.DeletionPlan;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.web.jobs.PlanFiles;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoRegistry;
import io.refstore.web.system.InvalidRequestException;

/**
 * A deletion plan's whole list in the ref browser: one page of the refs the plan
 * selected, read from the plan file as a stream (the pages before it are read past, the
 * list is never in memory whole: a plan may hold a million refs), each with the value the
 * plan recorded and the value it holds now, so that a ref that moved or went since the
 * plan stands out before the plan is confirmed (an execution deletes nothing while a ref
 * it selects holds another value than the plan's). Callers need the role VIEWER.
 * Thread-safe.
 */
@Service
public class PlanRefService {

	/** Refs per page. */
	public static final int PAGE_SIZE = 100;

	private final PlanFiles plans;

	private final RepoRegistry registry;

	PlanRefService(PlanFiles plans, RepoRegistry registry) {
		this.plans = plans;
		this.registry = registry;
	}

	/**
	 * Page {@code page} of plan {@code plan}'s refs in {@code repo}; a page past the last
	 * shows the last.
	 * @throws InvalidRequestException naming {@code plan} (no completed deletion plan),
	 * {@code name} (the plan is another repository's) or {@code page}
	 * @throws org.springframework.web.ErrorResponseException 404 if this node does not
	 * keep the plan's file
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public PlanRefPage page(String repo, long plan, int page) throws IOException {
		if (page < 1) {
			throw new InvalidRequestException("page", Integer.toString(page), "it must be 1 or more");
		}
		PlanFiles.KeptPlan kept = this.plans.of(plan);
		if (!kept.job().repository().equals(repo)) {
			throw new InvalidRequestException("name", repo,
					"plan " + plan + " is of the repository " + kept.job().repository());
		}
		long total = kept.count();
		int pages = (int) Math.max(1, (total + PAGE_SIZE - 1) / PAGE_SIZE);
		int shown = Math.min(page, pages);
		long skip = (long) (shown - 1) * PAGE_SIZE;
		List<DeletionPlan.Entry> entries = new ArrayList<>(PAGE_SIZE);
		try (DeletionPlan.Reader reader = new DeletionPlan.Reader(kept.file(), null)) {
			long at = 0;
			for (DeletionPlan.Entry entry = reader.next(); entry != null
					&& entries.size() < PAGE_SIZE; entry = reader.next()) {
				if (at++ >= skip) {
					entries.add(entry);
				}
			}
		}
		List<PlanRefRow> rows = new ArrayList<>(entries.size());
		try (OpenRepo open = this.registry.open(repo)) {
			RefStore store = open.store();
			for (DeletionPlan.Entry entry : entries) {
				Optional<Ref> now = store.exactRef(entry.name());
				rows.add(
						new PlanRefRow(entry.name(), entry.value(), now.map(DeletionPlan.Entry::valueOf).orElse(null)));
			}
		}
		return new PlanRefPage(plan, repo, rows, shown, pages, rows.isEmpty() ? 0 : skip + 1, skip + rows.size(),
				total);
	}

}
