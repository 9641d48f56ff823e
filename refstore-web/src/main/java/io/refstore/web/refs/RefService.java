package io.refstore.web.refs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.Wildmatch;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoRegistry;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Problems;

/**
 * Reads refs for the API and the console: keyset pages, one ref, a ref's log. Callers
 * need the role VIEWER (checked here, not only on URLs). Thread-safe; each call opens the
 * repository afresh, so it sees the store as it is now, git's own writes included.
 */
@Service
public class RefService {

	/** The page size when none is asked for. */
	public static final int DEFAULT_LIMIT = 100;

	/** The largest page size accepted. */
	public static final int MAX_LIMIT = 1000;

	private static final byte[] REFS = "refs/".getBytes(StandardCharsets.US_ASCII);

	private final RepoRegistry registry;

	public RefService(RepoRegistry registry) {
		this.registry = registry;
	}

	/**
	 * A page of refs under {@code refs/}, in bytewise name order.
	 * @param prefix only names starting with it (empty: all)
	 * @param glob only names matching this {@code for-each-ref} pattern (empty: all)
	 * @param after only names sorting after it: the {@code next} cursor of the previous
	 * page (empty: from the start)
	 * @param limit the page size, 1 to {@value #MAX_LIMIT}
	 * @throws org.springframework.web.ErrorResponseException 400 naming the parameter
	 * that is refused
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public RefPage page(String repo, String prefix, String glob, String after, int limit) throws IOException {
		checkParameters(prefix, glob, after, limit);
		byte[] pattern = glob.isEmpty() ? null : glob.getBytes(StandardCharsets.UTF_8);
		byte[] suffix = (pattern == null) ? null : Wildmatch.requiredSuffix(pattern);
		try (OpenRepo open = this.registry.open(repo);
				RefCursor cursor = open.store().refs(new RefQuery(prefix, after, false))) {
			ObjectDatabase objects = open.repository().objectDatabase();
			List<RefView> refs = new ArrayList<>();
			String next = null;
			ScanDeadline deadline = ScanDeadline.start(glob);
			while (cursor.next()) {
				deadline.step();
				if (pattern != null && !matches(pattern, suffix, cursor)) {
					continue;
				}
				if (refs.size() == limit) {
					next = refs.get(limit - 1).ref();
					break;
				}
				refs.add(RefViews.of(cursor, open.store(), objects));
			}
			return new RefPage(refs, next, etag(open.store().format().name(), refs, next));
		}
	}

	/**
	 * The root refs ({@code HEAD} and the pseudorefs beside it), in name order: the names
	 * before {@code refs/} in the store's order.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public List<RefView> rootRefs(String repo) throws IOException {
		try (OpenRepo open = this.registry.open(repo);
				RefCursor cursor = open.store().refs(new RefQuery("", "", true))) {
			ObjectDatabase objects = open.repository().objectDatabase();
			List<RefView> roots = new ArrayList<>();
			while (cursor.next() && !startsWith(cursor.nameBuffer(), cursor.nameLength(), REFS)) {
				roots.add(RefViews.of(cursor, open.store(), objects));
			}
			return roots;
		}
	}

	/**
	 * Where the page of {@code limit} matching refs that ends just before {@code before}
	 * starts, as the {@code after} cursor of {@link #page} (empty: from the first ref),
	 * for a Previous link. Reads the names from the start of {@code prefix} up to
	 * {@code before}, keeping the last {@code limit}: a cost that grows with how far the
	 * page is, paid only when paging back.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public String pageBefore(String repo, String prefix, String glob, String before, int limit) throws IOException {
		checkParameters(prefix, glob, before, limit);
		byte[] pattern = glob.isEmpty() ? null : glob.getBytes(StandardCharsets.UTF_8);
		byte[] suffix = (pattern == null) ? null : Wildmatch.requiredSuffix(pattern);
		byte[] end = before.getBytes(StandardCharsets.UTF_8);
		String[] last = new String[limit + 1];
		long seen = 0;
		ScanDeadline deadline = ScanDeadline.start(glob);
		try (OpenRepo open = this.registry.open(repo);
				RefCursor cursor = open.store().refs(new RefQuery(prefix, "", false))) {
			while (cursor.next()) {
				deadline.step();
				if (compare(cursor.nameBuffer(), cursor.nameLength(), end) >= 0) {
					break;
				}
				if (pattern != null && !matches(pattern, suffix, cursor)) {
					continue;
				}
				last[(int) (seen++ % last.length)] = new String(cursor.nameBuffer(), 0, cursor.nameLength(),
						StandardCharsets.UTF_8);
			}
		}
		// the page is the last `limit` names seen; it starts after the one before them
		return (seen <= limit) ? "" : last[(int) ((seen - limit - 1) % last.length)];
	}

	/**
	 * How many refs under {@code refs/} start with {@code prefix} and match {@code glob}
	 * (empty: all): a count over the whole store, names only.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public long count(String repo, String prefix, String glob) throws IOException {
		checkParameters(prefix, glob, "", 1);
		byte[] pattern = glob.isEmpty() ? null : glob.getBytes(StandardCharsets.UTF_8);
		byte[] suffix = (pattern == null) ? null : Wildmatch.requiredSuffix(pattern);
		long count = 0;
		ScanDeadline deadline = ScanDeadline.start(glob);
		try (OpenRepo open = this.registry.open(repo);
				RefCursor cursor = open.store().refs(new RefQuery(prefix, "", false))) {
			while (cursor.next()) {
				deadline.step();
				if (pattern == null || matches(pattern, suffix, cursor)) {
					count++;
				}
			}
		}
		return count;
	}

	/**
	 * Whether the cursor's name matches: names without the pattern's required suffix are
	 * refused by one comparison, so a search that matches little costs little more than
	 * reading the names, whatever its pattern.
	 */
	private static boolean matches(byte[] pattern, byte[] suffix, RefCursor cursor) {
		return Wildmatch.endsWith(cursor.nameBuffer(), cursor.nameLength(), suffix)
				&& Wildmatch.matches(pattern, cursor.nameBuffer(), cursor.nameLength());
	}

	private static boolean startsWith(byte[] name, int length, byte[] prefix) {
		return length >= prefix.length && Arrays.equals(name, 0, prefix.length, prefix, 0, prefix.length);
	}

	/** Bytewise unsigned comparison, as the stores order names. */
	private static int compare(byte[] name, int length, byte[] other) {
		return Arrays.compareUnsigned(name, 0, length, other, 0, other.length);
	}

	static void checkParameters(String prefix, String glob, String after, int limit) {
		if (limit < 1 || limit > MAX_LIMIT) {
			throw new InvalidRequestException("limit", Integer.toString(limit),
					"it must be between 1 and " + MAX_LIMIT);
		}
		checkText("prefix", prefix);
		checkText("after", after);
		checkText("glob", glob);
		String problem = glob.isEmpty() ? null : Wildmatch.inputProblem(glob.getBytes(StandardCharsets.UTF_8));
		if (problem != null) {
			throw new InvalidRequestException("glob", glob, problem);
		}
	}

	private static void checkText(String parameter, String value) {
		for (int i = 0; i < value.length(); i++) {
			if (value.charAt(i) < 0x20 || value.charAt(i) == 0x7f) {
				throw new InvalidRequestException(parameter, value, "it contains a control character");
			}
		}
	}

	/**
	 * One ref: a full name under {@code refs/} or a root ref such as {@code HEAD}.
	 * @throws RefNotFoundException if it does not exist
	 * @throws io.refstore.core.ref.InvalidRefNameException if the name breaks a rule of
	 * {@link #checkName}
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public RefView ref(String repo, String name) throws IOException {
		checkName(name);
		try (OpenRepo open = this.registry.open(repo)) {
			Optional<Ref> ref = open.store().exactRef(name);
			if (ref.isEmpty()) {
				throw new RefNotFoundException(repo, name, "ref");
			}
			return RefViews.of(ref.get(), open.store(), open.repository().objectDatabase());
		}
	}

	/**
	 * A ref's log, newest entry first, at most {@code limit} entries.
	 * @throws RefNotFoundException if the ref has no log
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public List<ReflogView> reflog(String repo, String name, int limit) throws IOException {
		checkName(name);
		if (limit < 1 || limit > MAX_LIMIT) {
			throw new InvalidRequestException("limit", Integer.toString(limit),
					"it must be between 1 and " + MAX_LIMIT);
		}
		try (OpenRepo open = this.registry.open(repo)) {
			if (!open.store().hasReflog(name)) {
				throw new RefNotFoundException(repo, name, "reflog");
			}
			List<ReflogEntry> entries = open.store().reflog(name);
			List<ReflogView> views = new ArrayList<>(Math.min(limit, entries.size()));
			for (int i = entries.size() - 1; i >= 0 && views.size() < limit; i--) {
				views.add(view(entries.get(i)));
			}
			return views;
		}
	}

	/**
	 * Checks a ref name given by a client: a full name under {@code refs/}, or a root ref
	 * such as {@code HEAD} ({@link RefName#checkWritable}: a name such as
	 * {@code objects/info/alternates} is a file git keeps something else in).
	 * @throws io.refstore.core.ref.InvalidRefNameException naming the rule it breaks
	 */
	static void checkName(String name) {
		RefName.checkWritable(name);
	}

	private static ReflogView view(ReflogEntry entry) {
		var who = entry.who();
		int offsetMinutes = who.tzMinutes();
		// git accepts offsets beyond +-18:00, which java.time cannot represent: such
		// times are shown in UTC
		ZoneOffset offset = (Math.abs(offsetMinutes) <= 18 * 60) ? ZoneOffset.ofTotalSeconds(offsetMinutes * 60)
				: ZoneOffset.UTC;
		OffsetDateTime time = Instant.ofEpochSecond(who.epochSeconds()).atOffset(offset);
		return new ReflogView(entry.oldId().name(), entry.newId().name(), who.name(), who.email(), time.toString(),
				entry.message());
	}

	/**
	 * A strong entity tag over everything the page shows, so it changes exactly when the
	 * page would.
	 */
	static String etag(String format, List<RefView> refs, String next) {
		MessageDigest digest = sha256();
		update(digest, format);
		for (RefView ref : refs) {
			update(digest, ref.ref());
			update(digest, (ref.object() == null) ? null : ref.object().sha());
			update(digest, (ref.object() == null) ? null : ref.object().type());
			update(digest, ref.peeled());
			update(digest, ref.symref());
		}
		update(digest, next);
		return "\"" + HexFormat.of().formatHex(digest.digest(), 0, 16) + "\"";
	}

	private static void update(MessageDigest digest, String value) {
		if (value == null) {
			digest.update((byte) 1);
			return;
		}
		digest.update((byte) 0);
		digest.update(value.getBytes(StandardCharsets.UTF_8));
		digest.update((byte) 0);
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java platform has SHA-256", ex);
		}
	}

}
