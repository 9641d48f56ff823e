package io.refstore.web.refs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

import io.refstore.batch.api.RefJobs;
import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.graph.CommitHistory;
import io.refstore.core.graph.TipFacts;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoRegistry;
import io.refstore.web.system.InvalidRequestException;

/**
 * The Branches view's reading of a repository's branches ({@code refs/heads/}), as
 * GitLab's and GitHub's branch pages show them: the active, stale and all tabs with their
 * counts, a name search, an order by name or by last commit, and one page of rows, each
 * with its last commit, whether the branch {@code HEAD} names has merged it, how far it
 * is ahead and behind that branch, and whether a deletion plan would keep it (the
 * configured protection, {@code refstore.deletion.protected-refs}, read from the jobs'
 * API so that the view and a plan never disagree).
 *
 * <p>
 * Counting and ordering read {@link RefFactsService}'s index of the branches (names back
 * to back, dates and merged flags; read once per store fingerprint) and the
 * {@link BranchFacts} kept with it (the branches' date orders, and the merged summary): a
 * tab's count is a binary search of the dates in order, a page a slice of an order, and
 * only the page's rows are read from the store and the object database and counted ahead
 * and behind (one walk of the base's history and each row's own commits). A search finds
 * its matches in one pass over the names kept in lower case, reads them in the order
 * asked until it has its page and more than {@value #SEARCH_COUNT} branches of the tab,
 * then stops counting and says "more than". Callers need the role VIEWER. Thread-safe.
 */
@Service
public class BranchService {

	/** Rows per page. */
	public static final int PAGE_SIZE = 50;

	/** The longest search text. */
	public static final int MAX_QUERY = 200;

	/**
	 * How many branches of the tab a search counts before it stops counting (and says
	 * "more than").
	 */
	public static final int SEARCH_COUNT = 1_000;

	/** How many names {@link #merged} lists of the branches it counts. */
	public static final int MERGED_SAMPLE = 20;

	static final String BRANCHES = "refs/heads/";

	private static final byte[] BRANCH_BYTES = BRANCHES.getBytes(StandardCharsets.UTF_8);

	private static final long DAY = 86_400;

	private final RepoRegistry registry;

	private final RefFactsService facts;

	private final HygieneProperties hygiene;

	private final RefJobs jobs;

	BranchService(RepoRegistry registry, RefFactsService facts, HygieneProperties hygiene, RefJobs jobs) {
		this.registry = registry;
		this.facts = facts;
		this.hygiene = hygiene;
		this.jobs = jobs;
	}

	/** The view's tabs: a stale branch's last commit is older than the hygiene age. */
	public enum Tab {

		/** Branches with a commit newer than the stale age, and those with no date. */
		ACTIVE,
		/** Branches whose last commit is older than the stale age. */
		STALE,
		/** Every branch. */
		ALL;

		/**
		 * The tab a query parameter names ({@code active}, {@code stale}, {@code all}).
		 */
		public static Tab of(String text) {
			for (Tab tab : values()) {
				if (tab.word().equals(text)) {
					return tab;
				}
			}
			throw new InvalidRequestException("tab", text, "it must be active, stale or all");
		}

		/** The tab as its query parameter says it. */
		public String word() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	/** The view's orders. */
	public enum Sort {

		/** By name, as git orders names (bytewise). */
		NAME("name"),
		/** By name, backwards. */
		NAME_DESC("name-desc"),
		/** Newest last commit first (ties by name), as GitLab's "Last updated". */
		NEWEST("newest"),
		/** Oldest last commit first (ties by name). */
		OLDEST("oldest");

		private final String word;

		Sort(String word) {
			this.word = word;
		}

		/** The order a query parameter names. */
		public static Sort of(String text) {
			for (Sort sort : values()) {
				if (sort.word.equals(text)) {
					return sort;
				}
			}
			throw new InvalidRequestException("sort", text, "it must be name, name-desc, newest or oldest");
		}

		/** The order as its query parameter says it. */
		public String word() {
			return this.word;
		}

	}

	/**
	 * One page of the branches a tab and a search hold, in the order asked, with the
	 * counts of each tab for the same search. A page past the last shows the last.
	 * @param query text the branch's name (after {@code refs/heads/}) contains, ASCII
	 * letters matched without case; empty for every branch
	 * @param page the page, from 1
	 * @throws InvalidRequestException naming {@code q} or {@code page}
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public BranchList list(String repo, Tab tab, String query, Sort sort, int page) throws IOException {
		if (query.length() > MAX_QUERY) {
			throw new InvalidRequestException("q", query.substring(0, 40) + "…",
					"it must be at most " + MAX_QUERY + " characters");
		}
		if (page < 1) {
			throw new InvalidRequestException("page", Integer.toString(page), "it must be 1 or more");
		}
		try (OpenRepo open = this.registry.open(repo)) {
			RefFactsService.BranchIndex branches = this.facts.branchIndex(open);
			TipIndex index = branches.index();
			BranchFacts facts = index.branches();
			long cutoff = staleCutoff();
			Found found = query.isEmpty() ? all(facts, tab, sort, cutoff, page)
					: search(facts, tab, sort, cutoff, lower(query), page);
			int shown = found.page();
			int start = (shown - 1) * PAGE_SIZE;
			int end = (int) Math.min(found.total(), start + PAGE_SIZE);
			List<BranchRow> rows = rows(open, index, found.positions(), 0, found.positions().length, cutoff);
			int pages = found.capped() ? shown + 1 : Math.max(1, (int) ((found.total() + PAGE_SIZE - 1) / PAGE_SIZE));
			return new BranchList(rows, shown, pages, (found.total() == 0) ? 0 : start + 1, end, found.total(),
					found.active(), found.stale(), facts.count(), index.hasMerged() ? index.base : null,
					branches.note(), this.hygiene.staleAfterDays(), found.capped());
		}
	}

	/**
	 * What a request found: the page shown (a page past the last shows the last), its
	 * rows' index positions, the tab's count and each tab's, and whether counting stopped
	 * early (the counts are then at least these).
	 */
	private record Found(int page, int[] positions, long total, long active, long stale, boolean capped) {
	}

	/**
	 * A page without a search: the counts from the kept facts' dates in order, the rows a
	 * slice of the kept orders.
	 */
	private static Found all(BranchFacts facts, Tab tab, Sort sort, long cutoff, int page) {
		long stale = facts.stale(cutoff);
		long active = facts.count() - stale;
		long total = switch (tab) {
			case ALL -> facts.count();
			case STALE -> stale;
			case ACTIVE -> active;
		};
		int pages = Math.max(1, (int) ((total + PAGE_SIZE - 1) / PAGE_SIZE));
		int shown = Math.min(page, pages);
		int start = (shown - 1) * PAGE_SIZE;
		int end = (int) Math.min(total, start + PAGE_SIZE);
		return new Found(shown, facts.page(tab, sort, cutoff, start, end), total, active, stale, false);
	}

	/**
	 * A page of a search: the names matching are found in one pass over the kept names
	 * ({@link BranchFacts#matching}), then read in the order asked until the page is
	 * full, one more of the tab is seen (so that there is a next page) and more than
	 * {@value #SEARCH_COUNT} of the tab are counted; counting then stops, and the counts
	 * say "more than". A search that matches fewer is counted exactly.
	 */
	private static Found search(BranchFacts facts, Tab tab, Sort sort, long cutoff, byte[] needle, int page) {
		BitSet hits = facts.matching(needle);
		int count = facts.count();
		int from = facts.from();
		long wanted = Math.max((long) page * PAGE_SIZE, SEARCH_COUNT) + 1;
		int[] tabbed = new int[(int) Math.min(hits.cardinality(), wanted)];
		int inTab = 0;
		long active = 0;
		long stale = 0;
		boolean capped = false;
		boolean byName = sort == Sort.NAME || sort == Sort.NAME_DESC;
		int k = byName ? ((sort == Sort.NAME) ? hits.nextSetBit(0) : hits.previousSetBit(count - 1)) : 0;
		while (byName ? k >= 0 : k < count) {
			int i = byName ? from + k : facts.at(sort, k);
			if (byName || hits.get(i - from)) {
				if (inTab == wanted) {
					capped = true;
					break;
				}
				boolean old = facts.isStale(i, cutoff);
				if (old) {
					stale++;
				}
				else {
					active++;
				}
				if (tab == Tab.ALL || (tab == Tab.STALE) == old) {
					tabbed[inTab++] = i;
				}
			}
			k = !byName ? k + 1 : (sort == Sort.NAME) ? hits.nextSetBit(k + 1) : hits.previousSetBit(k - 1);
		}
		int pages = Math.max(1, (inTab + PAGE_SIZE - 1) / PAGE_SIZE);
		int shown = capped ? page : Math.min(page, pages);
		int start = (shown - 1) * PAGE_SIZE;
		int end = Math.min(inTab, start + PAGE_SIZE);
		return new Found(shown, Arrays.copyOfRange(tabbed, start, end), inTab, active, stale, capped);
	}

	/**
	 * The branches "Delete merged branches" plans: those the branch {@code HEAD} names
	 * has merged, less that branch and those the protection keeps, counted from the same
	 * index as the view (a plan of them, made now, lists the same).
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public MergedBranches merged(String repo) throws IOException {
		try (OpenRepo open = this.registry.open(repo)) {
			RefFactsService.BranchIndex branches = this.facts.branchIndex(open);
			TipIndex index = branches.index();
			if (!index.hasMerged()) {
				return new MergedBranches(null, 0, 0, List.of(), branches.note());
			}
			List<String> chain = headChain(open.store());
			ProtectedRefs protection = this.jobs.protection();
			return index.branches().merged(chain, protection, () -> mergedOf(index, chain, protection));
		}
	}

	/**
	 * The merged branches that would go, counted over the index (once per index, HEAD
	 * chain and protection: {@link BranchFacts#merged}).
	 */
	private static MergedBranches mergedOf(TipIndex index, List<String> chain, ProtectedRefs protection) {
		long count = 0;
		long kept = 0;
		List<String> sample = new ArrayList<>();
		for (int i = index.lowerBound(BRANCH_BYTES); i < index.count() && index.startsWith(i, BRANCH_BYTES); i++) {
			if (!index.merged(i)) {
				continue;
			}
			String name = index.name(i);
			if (chain.contains(name) || protection.protecting(name, chain) != null) {
				kept++;
				continue;
			}
			count++;
			if (sample.size() < MERGED_SAMPLE) {
				sample.add(name);
			}
		}
		return new MergedBranches(index.base, count, kept, List.copyOf(sample), null);
	}

	/**
	 * One branch, as its row shows it, for the page that confirms its deletion.
	 * @param name its full name, under {@code refs/heads/}
	 * @throws InvalidRequestException naming {@code branch} if the name is no branch's
	 * @throws RefNotFoundException if there is no such branch
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public BranchRow branch(String repo, String name) throws IOException {
		checkBranch("branch", name);
		try (OpenRepo open = this.registry.open(repo)) {
			RefFactsService.BranchIndex branches = this.facts.branchIndex(open);
			TipIndex index = branches.index();
			int i = index.lowerBound(name.getBytes(StandardCharsets.UTF_8));
			if (i >= index.count() || !index.name(i).equals(name)) {
				// not in the index of the store as it is now
				throw new RefNotFoundException(repo, name, "branch");
			}
			List<BranchRow> rows = rows(open, index, new int[] { i }, 0, 1, staleCutoff());
			if (rows.isEmpty()) {
				throw new RefNotFoundException(repo, name, "branch");
			}
			return rows.get(0);
		}
	}

	/**
	 * Why a deletion would keep a branch: {@value ProtectedRefs#HEAD} for the branch
	 * {@code HEAD} names, the protecting pattern, or {@code null} if it would not.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public String protection(String repo, String name) throws IOException {
		try (OpenRepo open = this.registry.open(repo)) {
			List<String> chain = headChain(open.store());
			return chain.contains(name) ? ProtectedRefs.HEAD : this.jobs.protection().protecting(name, chain);
		}
	}

	/**
	 * Checks that {@code name} is a full branch name.
	 * @throws InvalidRequestException naming {@code parameter} otherwise
	 */
	public static void checkBranch(String parameter, String name) {
		if (name == null || !name.startsWith(BRANCHES) || name.length() == BRANCHES.length()) {
			throw new InvalidRequestException(parameter, name, "it must be a branch's full name, under refs/heads/");
		}
		RefService.checkName(name);
	}

	/**
	 * The rows {@code matches[start .. end)}: each ref read from the store as it is now
	 * (one deleted since the index was taken is left out), its commit described, and all
	 * of them counted ahead and behind the base in one {@code facts} call.
	 */
	private List<BranchRow> rows(OpenRepo open, TipIndex index, int[] matches, int start, int end, long cutoff)
			throws IOException {
		RefStore store = open.store();
		HashAlgorithm hash = store.hashAlgorithm();
		List<RefView> views = new ArrayList<>(end - start);
		List<Integer> positions = new ArrayList<>(end - start);
		for (int k = start; k < end; k++) {
			Optional<Ref> ref = store.exactRef(index.name(matches[k]));
			if (ref.isPresent()) {
				views.add(RefViews.of(ref.get(), store, open.repository().objectDatabase()));
				positions.add(matches[k]);
			}
		}
		if (views.isEmpty()) {
			return List.of();
		}
		CommitHistory history = CommitHistory.open(open.repository());
		int rawLength = hash.rawLength();
		byte[] ids = new byte[views.size() * rawLength];
		ObjectId[] values = new ObjectId[views.size()];
		for (int r = 0; r < values.length; r++) {
			values[r] = RefFactsService.value(hash, views.get(r));
			if (values[r] != null) {
				values[r].copyRawTo(ids, r * rawLength);
			}
		}
		boolean counts = index.hasMerged();
		TipFacts facts = counts ? history.facts(ids, values.length, index.baseId, true) : null;
		List<String> chain = headChain(store);
		ProtectedRefs protection = this.jobs.protection();
		List<BranchRow> rows = new ArrayList<>(views.size());
		for (int r = 0; r < values.length; r++) {
			RefView view = views.get(r);
			int i = positions.get(r);
			Boolean merged = index.hasMerged() ? index.merged(i) : null;
			RefCommit commit = (values[r] != null) ? RefFactsService.commit(history, values[r], index.date(i), merged)
					: RefCommit.NONE;
			boolean known = facts != null && values[r] != null && facts.ahead(r) >= 0;
			boolean head = chain.contains(view.ref());
			String protectedBy = head ? ProtectedRefs.HEAD : protection.protecting(view.ref(), chain);
			rows.add(new BranchRow(view.ref(), (view.object() != null) ? view.object().sha() : null, view.symref(),
					commit, merged, known ? facts.ahead(r) : -1, known ? facts.behind(r) : -1, head, protectedBy,
					isStale(index, i, cutoff)));
		}
		return rows;
	}

	/**
	 * The refs {@code HEAD} leads to: the branch it names, and on through symbolic refs;
	 * empty for a detached {@code HEAD}.
	 */
	private static List<String> headChain(RefStore store) throws IOException {
		List<String> chain = new ArrayList<>();
		String at = "HEAD";
		for (int hops = 0; hops < 5; hops++) {
			Optional<Ref> ref = store.exactRef(at);
			if (ref.isEmpty() || !(ref.get() instanceof SymbolicRef symbolic) || chain.contains(symbolic.target())) {
				break;
			}
			chain.add(symbolic.target());
			at = symbolic.target();
		}
		return chain;
	}

	private long staleCutoff() {
		return Instant.now().getEpochSecond() - this.hygiene.staleAfterDays() * DAY;
	}

	private static boolean isStale(TipIndex index, int i, long cutoff) {
		long date = index.date(i);
		return date != TipFacts.NO_DATE && date < cutoff;
	}

	private static byte[] lower(String query) {
		byte[] bytes = query.getBytes(StandardCharsets.UTF_8);
		for (int k = 0; k < bytes.length; k++) {
			bytes[k] = TipIndex.lower(bytes[k]);
		}
		return bytes;
	}

}
