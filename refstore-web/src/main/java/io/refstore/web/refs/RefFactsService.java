package io.refstore.web.refs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

import io.refstore.core.graph.CommitHistory;
import io.refstore.core.graph.TipFacts;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoRegistry;

/**
 * The facts about refs that the console judges them by: a page's commit columns (date,
 * author, subject), pages filtered by merged and age or sorted by date, a ref's
 * divergence from {@code HEAD}'s branch, and the branches by age.
 *
 * <p>
 * A page in name order without a filter costs its own rows only: the caller reads the
 * page ({@link RefService#page}) and asks {@link #commits} for its columns (one
 * {@link CommitHistory#facts} call and one object read per row). A filter or a date order
 * needs the facts of every ref the search covers: they are read once into a
 * {@link TipIndex} (one scan, one {@code facts} call over raw ids) and kept between
 * requests until the store's fingerprint changes, so paging, counting and changing the
 * filter read nothing again. An index of a shorter prefix serves the longer ones inside
 * it. Callers need the role VIEWER. Thread-safe.
 */
@Service
class RefFactsService {

	private static final long DAY = 86_400;

	/** The repository page's age buckets, as their lower bounds in days. */
	private static final int[] BUCKET_DAYS = { 0, 30, 90, 180, 365 };

	private static final String[] BUCKET_LABELS = { "< 30 days", "30–90 days", "90–180 days", "180–365 days",
			"> 1 year" };

	private static final String BRANCHES = "refs/heads/";

	private final RepoRegistry registry;

	private final HygieneProperties properties;

	/** The indexes kept, least recently used first. */
	private final List<Cached> cache = new ArrayList<>();

	public RefFactsService(RepoRegistry registry, HygieneProperties properties) {
		this.registry = registry;
		this.properties = properties;
	}

	private record Cached(Path gitDir, TipIndex index) {
	}

	/** A branch to judge merged against, and its commit ({@code null}: none). */
	private record Base(String name, ObjectId id, String note) {
	}

	/** What a filter matched: indexes into the index, in the listing's order. */
	private record Selection(TipIndex index, int[] matches, Base base) {
	}

	/**
	 * The commit columns of a page of refs, by index: one {@code facts} call for the
	 * dates and one object read per ref.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public List<RefCommit> commits(String repo, List<RefView> refs) throws IOException {
		return commits(repo, refs, false);
	}

	/**
	 * {@link #commits(String, List)}, with {@code merged} also whether the branch
	 * {@code HEAD} names reaches each ref: the same {@code facts} call then walks that
	 * branch's history once (on 100,000 commits without a commit-graph, a few hundred
	 * milliseconds), which is why it is asked for.
	 * @return the columns by index, {@link RefCommit#merged()} {@code null} when
	 * {@code HEAD} names no commit
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public List<RefCommit> commits(String repo, List<RefView> refs, boolean merged) throws IOException {
		if (refs.isEmpty()) {
			return List.of();
		}
		try (OpenRepo open = this.registry.open(repo)) {
			HashAlgorithm hash = open.store().hashAlgorithm();
			int rawLength = hash.rawLength();
			byte[] ids = new byte[refs.size() * rawLength];
			ObjectId[] values = new ObjectId[refs.size()];
			for (int i = 0; i < values.length; i++) {
				values[i] = value(hash, refs.get(i));
				if (values[i] != null) {
					values[i].copyRawTo(ids, i * rawLength);
				}
			}
			CommitHistory history = CommitHistory.open(open.repository());
			ObjectId base = merged ? baseCommit(history, base(open.store(), "")) : null;
			TipFacts facts = history.facts(ids, values.length, base, false);
			List<RefCommit> commits = new ArrayList<>(values.length);
			for (int i = 0; i < values.length; i++) {
				Boolean isMerged = (base != null) ? facts.merged(i) : null;
				commits.add((values[i] != null) ? commit(history, values[i], facts.date(i), isMerged)
						: new RefCommit(null, null, null, null, isMerged));
			}
			return commits;
		}
	}

	/**
	 * A page of the refs under {@code prefix} matching {@code glob} that the filter
	 * keeps, in its order, with their commit columns and the number of refs matched in
	 * all. Paging is by cursor as for {@link RefService#page}: {@code after} is the
	 * previous page's last name (with its date for a date order); {@code before}, when
	 * given, asks for the page that ends just before that ref instead.
	 * @param afterDate the date of {@code after}'s ref in a date order (seconds)
	 * @param beforeDate the date of {@code before}'s ref in a date order (seconds)
	 * @throws org.springframework.web.ErrorResponseException 400 naming a refused
	 * parameter
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public RefFactsPage page(String repo, String prefix, String glob, RefFilter filter, String after, long afterDate,
			String before, long beforeDate, int limit) throws IOException {
		RefService.checkParameters(prefix, glob, after, limit);
		RefService.checkParameters(prefix, glob, before, limit);
		try (OpenRepo open = this.registry.open(repo)) {
			Selection selection = select(open, prefix, glob, filter);
			if (selection.index() == null) {
				return new RefFactsPage(new RefPage(List.of(), null, RefService.etag("", List.of(), null)), List.of(),
						true, 0, 0, selection.base().name(), selection.base().note());
			}
			TipIndex index = selection.index();
			int[] matches = selection.matches();
			int start;
			if (!before.isEmpty()) {
				start = Math.max(0, position(selection, filter.order(), before, beforeDate, true) - limit);
			}
			else {
				start = after.isEmpty() ? 0 : position(selection, filter.order(), after, afterDate, false);
			}
			int end = Math.min(matches.length, start + limit);
			CommitHistory history = CommitHistory.open(open.repository());
			List<RefView> views = new ArrayList<>(end - start);
			List<RefCommit> commits = new ArrayList<>(end - start);
			for (int k = start; k < end; k++) {
				int i = matches[k];
				Optional<Ref> ref = open.store().exactRef(index.name(i));
				if (ref.isEmpty()) {
					// deleted since the index was taken: the next request takes a new one
					continue;
				}
				RefView view = RefViews.of(ref.get(), open.store(), open.repository().objectDatabase());
				ObjectId value = value(open.store().hashAlgorithm(), view);
				views.add(view);
				commits.add((value != null)
						? commit(history, value, index.date(i), index.hasMerged() ? index.merged(i) : null)
						: RefCommit.NONE);
			}
			String next = (end < matches.length && end > start) ? index.name(matches[end - 1]) : null;
			long nextDate = (next != null) ? index.date(matches[end - 1]) : 0;
			String etag = RefService.etag(open.store().format().name() + ' ' + filter, views, next);
			return new RefFactsPage(new RefPage(views, next, etag), commits, start == 0, matches.length, nextDate,
					index.hasMerged() ? index.base : null, null);
		}
	}

	/**
	 * How many refs under {@code prefix} matching {@code glob} the filter keeps: from the
	 * same index as the pages, so counting after a page costs no second read.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public long count(String repo, String prefix, String glob, RefFilter filter) throws IOException {
		RefService.checkParameters(prefix, glob, "", 1);
		try (OpenRepo open = this.registry.open(repo)) {
			Selection selection = select(open, prefix, glob, filter);
			return (selection.index() == null) ? 0 : selection.matches().length;
		}
	}

	/**
	 * The branches by age bucket (under 30 days, 30 to 90, 90 to 180, 180 to 365, over a
	 * year) and whether {@code HEAD}'s branch has merged them: one index of
	 * {@code refs/heads/}, shared with the ref browser's filters.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public BranchAges branchAges(String repo) throws IOException {
		try (OpenRepo open = this.registry.open(repo)) {
			Base base = base(open.store(), "");
			// merged into HEAD's branch, never into the one a browser filter last judged
			// against
			TipIndex index = index(open, BRANCHES, base, true);
			long now = Instant.now().getEpochSecond();
			long[] merged = new long[BUCKET_DAYS.length];
			long[] notMerged = new long[BUCKET_DAYS.length];
			long undated = 0;
			long total = 0;
			byte[] branches = BRANCHES.getBytes(StandardCharsets.UTF_8);
			for (int i = index.lowerBound(branches); i < index.count() && index.startsWith(i, branches); i++) {
				total++;
				long date = index.date(i);
				if (date == TipFacts.NO_DATE) {
					undated++;
					continue;
				}
				int bucket = 0;
				while (bucket + 1 < BUCKET_DAYS.length && date < now - BUCKET_DAYS[bucket + 1] * DAY) {
					bucket++;
				}
				if (index.merged(i)) {
					merged[bucket]++;
				}
				else {
					notMerged[bucket]++;
				}
			}
			List<BranchAges.Bucket> buckets = new ArrayList<>();
			for (int k = 0; k < BUCKET_DAYS.length; k++) {
				int newer = (k + 1 < BUCKET_DAYS.length) ? BUCKET_DAYS[k + 1] : 0;
				buckets.add(new BranchAges.Bucket(BUCKET_LABELS[k], BUCKET_DAYS[k], newer, merged[k], notMerged[k]));
			}
			return new BranchAges(index.hasMerged() ? index.base : null, buckets, undated, total);
		}
	}

	/**
	 * The index of the branches ({@code refs/heads/}) judged against the branch
	 * {@code HEAD} names, the one {@link #branchAges} reads, for the Branches view to
	 * count, filter and page in memory.
	 * @param open the repository, open for the caller's request
	 */
	BranchIndex branchIndex(OpenRepo open) throws IOException {
		Base base = base(open.store(), "");
		TipIndex index = index(open, BRANCHES, base, true);
		return new BranchIndex(index, base.note());
	}

	/**
	 * The branches' index and, when nothing is judged merged, why ({@code null}
	 * otherwise).
	 */
	record BranchIndex(TipIndex index, String note) {
	}

	/**
	 * One ref's commit columns, and how it relates to {@code HEAD}'s branch: merged, and
	 * the commits ahead and behind.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public RefTipDetails details(String repo, RefView ref) throws IOException {
		try (OpenRepo open = this.registry.open(repo)) {
			Base base = base(open.store(), "");
			ObjectId value = value(open.store().hashAlgorithm(), ref);
			if (value == null) {
				return new RefTipDetails(RefCommit.NONE, base.id() != null ? base.name() : null, false, -1, -1);
			}
			CommitHistory history = CommitHistory.open(open.repository());
			byte[] raw = value.toRaw();
			ObjectId baseCommit = baseCommit(history, base);
			TipFacts facts = history.facts(raw, 1, baseCommit, baseCommit != null);
			RefCommit commit = commit(history, value, facts.date(0), (baseCommit != null) ? facts.merged(0) : null);
			return new RefTipDetails(commit, (baseCommit != null) ? base.name() : null, facts.merged(0), facts.ahead(0),
					facts.behind(0));
		}
	}

	/** The filter's matches, in its order, from the index that covers the search. */
	private Selection select(OpenRepo open, String prefix, String glob, RefFilter filter) throws IOException {
		Base base = base(open.store(), filter.into());
		if (filter.needsBase() && base.id() == null) {
			return new Selection(null, new int[0], base);
		}
		TipIndex index = index(open, prefix, base, filter.needsBase());
		long now = Instant.now().getEpochSecond();
		long olderCutoff = (filter.olderThanDays() > 0) ? now - filter.olderThanDays() * DAY : Long.MAX_VALUE;
		long newerCutoff = (filter.newerThanDays() > 0) ? now - filter.newerThanDays() * DAY : Long.MIN_VALUE;
		boolean dated = filter.olderThanDays() > 0 || filter.newerThanDays() > 0;
		byte[] start = prefix.getBytes(StandardCharsets.UTF_8);
		byte[] pattern = glob.isEmpty() ? null : glob.getBytes(StandardCharsets.UTF_8);
		byte[][] scratch = { new byte[256] };
		int from = index.lowerBound(start);
		int to = from;
		while (to < index.count() && index.startsWith(to, start)) {
			to++;
		}
		int[] matches = new int[to - from];
		int count = 0;
		int[] order = filter.byDate() ? index.byDate(filter.order() == RefFilter.Order.NEWEST) : null;
		int length = (order != null) ? order.length : to - from;
		ScanDeadline deadline = ScanDeadline.start(glob);
		for (int k = 0; k < length; k++) {
			deadline.step();
			int i = (order != null) ? order[k] : from + k;
			if (i < from || i >= to || (pattern != null && !index.matches(i, pattern, scratch))) {
				continue;
			}
			if (filter.merged() != RefFilter.Merged.ANY
					&& index.merged(i) != (filter.merged() == RefFilter.Merged.MERGED)) {
				continue;
			}
			long date = index.date(i);
			if (dated && (date == TipFacts.NO_DATE || date >= olderCutoff || date < newerCutoff)) {
				continue;
			}
			matches[count++] = i;
		}
		return new Selection(index, Arrays.copyOf(matches, count), base);
	}

	/**
	 * Where a cursor falls among the matches: the first match after it, or with
	 * {@code inclusive} the first at or after it, in the listing's order.
	 */
	private static int position(Selection selection, RefFilter.Order order, String name, long date, boolean inclusive) {
		TipIndex index = selection.index();
		int[] matches = selection.matches();
		byte[] cursor = name.getBytes(StandardCharsets.UTF_8);
		int low = 0;
		int high = matches.length;
		while (low < high) {
			int middle = (low + high) >>> 1;
			int i = matches[middle];
			int compared = 0;
			if (order != RefFilter.Order.NAME) {
				compared = Long.compare(index.date(i), date);
				compared = (order == RefFilter.Order.NEWEST) ? -compared : compared;
			}
			if (compared == 0) {
				compared = index.compareName(i, cursor);
			}
			if (compared < 0 || (compared == 0 && !inclusive)) {
				low = middle + 1;
			}
			else {
				high = middle;
			}
		}
		return low;
	}

	/**
	 * The index of the refs under {@code prefix} at the store's current fingerprint: a
	 * kept one that covers it (its prefix starts {@code prefix}; judged against the same
	 * branch, unless merged is not asked for), or a new one, then kept.
	 */
	private TipIndex index(OpenRepo open, String prefix, Base base, boolean needsBase) throws IOException {
		String fingerprint = open.store().fingerprint();
		Path gitDir = open.repository().gitDir();
		TipIndex found = cached(gitDir, fingerprint, prefix, base, needsBase);
		if (found != null) {
			return found;
		}
		CommitHistory history = CommitHistory.open(open.repository());
		ObjectId baseCommit = baseCommit(history, base);
		TipIndex index = TipIndex.build(open.store(), history, prefix, fingerprint, base.name(), baseCommit);
		keep(gitDir, index);
		return index;
	}

	private synchronized TipIndex cached(Path gitDir, String fingerprint, String prefix, Base base, boolean needsBase) {
		Cached best = null;
		for (Cached cached : this.cache) {
			TipIndex index = cached.index();
			// the same branch at the same commit, or the same branch that has none (HEAD
			// unborn, as in a bare repository whose HEAD names a branch never pushed):
			// an index built without a base commit serves such a request too
			boolean sameBase = java.util.Objects.equals(base.name(), index.base)
					&& java.util.Objects.equals(base.id(), index.baseId);
			if (cached.gitDir().equals(gitDir) && index.fingerprint.equals(fingerprint)
					&& prefix.startsWith(index.prefix) && (sameBase || !needsBase)
					&& (best == null || index.count() < best.index().count())) {
				best = cached;
			}
		}
		if (best == null) {
			return null;
		}
		this.cache.remove(best);
		this.cache.add(best);
		return best.index();
	}

	/**
	 * Keeps an index, dropping those of the repository's earlier fingerprints and, past
	 * the budget, the least recently used.
	 */
	private synchronized void keep(Path gitDir, TipIndex index) {
		long budget = this.properties.cachedRefs();
		if (index.count() > budget) {
			return;
		}
		this.cache.removeIf((cached) -> cached.gitDir().equals(gitDir)
				&& (!cached.index().fingerprint.equals(index.fingerprint) || (cached.index().prefix.equals(index.prefix)
						&& java.util.Objects.equals(cached.index().base, index.base))));
		this.cache.add(new Cached(gitDir, index));
		long held = 0;
		for (Cached cached : this.cache) {
			held += cached.index().count();
		}
		Iterator<Cached> eldest = this.cache.iterator();
		while (held > budget && eldest.hasNext()) {
			Cached cached = eldest.next();
			held -= cached.index().count();
			eldest.remove();
		}
	}

	/**
	 * The branch to judge merged against: {@code into} (a full name, or a branch's short
	 * name), or the branch {@code HEAD} names ({@code HEAD} itself when detached).
	 */
	private static Base base(RefStore store, String into) throws IOException {
		String name;
		if (into.isEmpty()) {
			Optional<Ref> head = store.exactRef("HEAD");
			if (head.isEmpty()) {
				return new Base(null, null, "This repository has no HEAD, so no ref can be judged merged.");
			}
			name = (head.get() instanceof SymbolicRef symbolic) ? symbolic.target() : "HEAD";
		}
		else {
			name = (into.equals("HEAD") || into.startsWith("refs/")) ? into : BRANCHES + into;
			RefService.checkName(name);
		}
		Optional<DirectRef> value = store.resolve(name);
		if (value.isEmpty()) {
			return new Base(name, null, into.isEmpty() ? name + " has no commit yet, so no ref is merged into it."
					: "There is no ref " + name + " to judge merged against.");
		}
		return new Base(name, value.get().id(), null);
	}

	/**
	 * The base's value if it peels to a commit (what {@code facts} judges against), else
	 * {@code null}: no ref is then merged.
	 */
	private static ObjectId baseCommit(CommitHistory history, Base base) throws IOException {
		return (base.id() != null && history.walk().commitOf(base.id()) >= 0) ? base.id() : null;
	}

	/** The object a ref's view points to, or {@code null} for none or a missing one. */
	static ObjectId value(HashAlgorithm hash, RefView view) {
		if (view.object() == null || view.object().type() == null) {
			return null;
		}
		return ObjectId.fromHex(hash, view.object().sha());
	}

	static RefCommit commit(CommitHistory history, ObjectId value, long date, Boolean merged) throws IOException {
		Instant when = (date == TipFacts.NO_DATE) ? null : Instant.ofEpochSecond(date);
		CommitHistory.Description description = history.describe(value);
		if (description == null) {
			return new RefCommit(when, null, null, null, merged);
		}
		return new RefCommit(when, description.name(), description.email(), description.subject(), merged);
	}

}
