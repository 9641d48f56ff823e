package io.refstore.web.journal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.springframework.http.HttpStatus;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;
import org.springframework.web.ErrorResponseException;

import io.refstore.core.journal.JournalHook;
import io.refstore.core.journal.WriterKind;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.web.audit.AuditEntry;
import io.refstore.web.audit.AuditEntry.Outcome;
import io.refstore.web.audit.AuditLog;
import io.refstore.web.refs.BatchRequest;
import io.refstore.web.refs.BatchResult;
import io.refstore.web.refs.RefUpdateRequest;
import io.refstore.web.refs.RefWriteService;
import io.refstore.web.refs.UpdateOutcome;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoRegistry;
import io.refstore.web.security.Actors;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Problems;

/**
 * The ref journal of a repository, as the API and the console show it: its timeline (or
 * one ref's history), the refs it saw deleted that do not exist now, and undoing a change
 * (restoring a deleted ref at its last value, or moving a ref back to the value before a
 * change). Every query first ingests the repository's new entries, so it sees every
 * change its journal file holds. Reading needs VIEWER, undoing ADMIN; an undo is a
 * compare-and-swap write through {@link RefWriteService}, audited there, that refuses
 * (409 or 412) when the ref changed since. Thread-safe.
 */
@Service
public class JournalService {

	/** The largest page a query returns. */
	public static final int MAX_LIMIT = 1000;

	/** The audit log's action for a restore from the journal. */
	static final String RESTORE = "journal.restore";

	private final JournalStore store;

	private final JournalIngester ingester;

	private final RepoRegistry registry;

	private final RefWriteService writes;

	private final AuditLog audit;

	private final JournalNames names;

	JournalService(JournalStore store, JournalIngester ingester, RepoRegistry registry, RefWriteService writes,
			AuditLog audit, JournalNames names) {
		this.names = names;
		this.store = store;
		this.ingester = ingester;
		this.registry = registry;
		this.writes = writes;
		this.audit = audit;
	}

	/**
	 * A page of a repository's journal, newest first.
	 * @param ref only this ref's changes, or {@code null}
	 * @param prefix only refs whose names start with this, or empty
	 * @param writer only this writer's ({@code git}, {@code refstore-cli}, {@code api},
	 * {@code job}), or {@code null}
	 * @param before only entries older than this id (a page's {@code next}); 0 for the
	 * newest
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public JournalPage<JournalEntryView> timeline(String repo, String ref, String prefix, String writer, long before,
			int limit) throws IOException {
		checkPage(before, limit);
		checkWriter(writer);
		String key = this.names.key(repo);
		this.ingester.ingest(key);
		List<JournalEntryView> entries = this.store.timeline(key, ref, prefix, writer, before, limit + 1);
		return page(entries, limit, shown(entries));
	}

	/** Every repository's journal in the database, in figures. */
	@PreAuthorize("hasRole('VIEWER')")
	public JournalStore.Totals totals() {
		return this.store.totals();
	}

	/** Whether the repository journals its changes, and how much of it was ingested. */
	@PreAuthorize("hasRole('VIEWER')")
	public JournalStatus status(String repo) throws IOException {
		String key = this.names.key(repo);
		this.ingester.ingest(key);
		boolean installed;
		try (OpenRepo open = this.registry.open(repo)) {
			installed = JournalHook.installed(open.repository());
		}
		return this.store.source(key)
			.map((source) -> new JournalStatus(installed, source.entries(), source.skipped(), source.ingestedAt()))
			.orElse(new JournalStatus(installed, 0, 0, null));
	}

	/**
	 * A page of the journal of every repository in the database, newest first, as of the
	 * last ingestion (the sweep's, every {@code refstore.journal.ingest-interval}, or a
	 * query's of one repository): which refs ever pointed at an object, who deleted refs
	 * of a pattern. With {@code deletions}, deletions of refs that exist now in a
	 * repository of this node are left out (git reports the loose refs a
	 * {@code pack-refs} prunes as deleted), so a page can hold fewer than {@code limit}.
	 * @param object only changes from or to this object id (full hex), or {@code null}
	 * @param prefix only refs whose names start with this, or empty
	 * @param writer only this writer's, or {@code null}
	 * @param deletions only deletions
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public JournalPage<JournalEntryView> fleet(String object, String prefix, String writer, boolean deletions,
			long before, int limit) throws IOException {
		checkPage(before, limit);
		checkWriter(writer);
		if (object != null && !object.matches("[0-9a-fA-F]{40}|[0-9a-fA-F]{64}")) {
			throw new InvalidRequestException("object", object, "it is not a full object id (40 or 64 hex digits)");
		}
		List<JournalEntryView> rows = this.store.fleet((object == null) ? null : object.toLowerCase(Locale.ROOT),
				prefix, writer, deletions, before, limit + 1);
		if (!deletions) {
			return page(rows, limit, shown(rows));
		}
		List<JournalEntryView> deleted = new ArrayList<>();
		for (JournalEntryView entry : rows.subList(0, Math.min(limit, rows.size()))) {
			if (!existsHere(entry.repository(), entry.ref())) {
				deleted.add(entry);
			}
		}
		return page(rows, limit, shown(deleted));
	}

	/** The entries, each repository named as the console names it. */
	private List<JournalEntryView> shown(List<JournalEntryView> entries) {
		JournalNames.Shown shown = this.names.shown();
		return entries.stream().map(shown::entry).toList();
	}

	/**
	 * Whether a repository of this node holds the ref now.
	 * @param repo the name the journal keeps the repository under
	 */
	private boolean existsHere(String repo, String ref) throws IOException {
		if (!this.names.here(repo)) {
			return false;
		}
		try (OpenRepo open = this.registry.open(repo)) {
			return open.store().exactRef(ref).isPresent();
		}
	}

	/**
	 * A page of the refs whose last journaled change is a deletion and which do not exist
	 * now, newest deletion first, each with the last value the journal knows and whether
	 * its object is still there. A ref the journal shows deleted that exists (created
	 * again by a writer that was not journaled, or a {@code pack-refs} that git reports
	 * as deleting loose refs) is left out, so a page can hold fewer than {@code limit}.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public JournalPage<DeletedRefView> deleted(String repo, String prefix, long before, int limit) throws IOException {
		checkPage(before, limit);
		String key = this.names.key(repo);
		this.ingester.ingest(key);
		List<JournalEntryView> deletions = this.store.lastDeletions(key, prefix, before, limit + 1);
		List<DeletedRefView> deleted = new ArrayList<>();
		try (OpenRepo open = this.registry.open(repo)) {
			for (JournalEntryView deletion : deletions.subList(0, Math.min(limit, deletions.size()))) {
				if (open.store().exactRef(deletion.ref()).isEmpty()) {
					deleted.add(deleted(key, open, deletion));
				}
			}
		}
		return page(deletions, limit, deleted);
	}

	/**
	 * Creates deleted refs again at the last value the journal knows, each only if it
	 * does not exist (all or none).
	 * @throws org.springframework.web.ErrorResponseException 409 naming a ref the journal
	 * does not show deleted, or whose value it does not know; 409 from the write if one
	 * exists now; 422 if an object is gone
	 */
	@PreAuthorize("hasRole('ADMIN')")
	public BatchResult restore(String repo, List<String> refs) throws IOException {
		List<RefUpdateRequest> updates;
		try {
			updates = restoring(repo, refs);
		}
		catch (ErrorResponseException ex) {
			String target = (refs == null) ? "" : String.join(" ", refs.subList(0, Math.min(refs.size(), 100)));
			this.audit.record(AuditEntry.of(Actors.current(), RESTORE, repo, target,
					Map.of("refs", (refs == null) ? "0" : Integer.toString(refs.size())), Outcome.REJECTED,
					ex.getBody().getDetail()));
			throw ex;
		}
		String message = "refstore: restored "
				+ ((updates.size() == 1) ? updates.get(0).ref() : updates.size() + " refs") + " from the journal";
		return this.writes.batch(RESTORE, repo, new BatchRequest(updates, message));
	}

	/** The creations that restore {@code refs} at their last values. */
	private List<RefUpdateRequest> restoring(String repo, List<String> refs) throws IOException {
		if (refs == null || refs.isEmpty()) {
			throw new InvalidRequestException("refs", "[]", "name at least one deleted ref to restore");
		}
		String key = this.names.key(repo);
		this.ingester.ingest(key);
		Set<String> names = new LinkedHashSet<>(refs);
		List<RefUpdateRequest> updates = new ArrayList<>(names.size());
		for (String ref : names) {
			if (ref == null) {
				throw new InvalidRequestException("refs", null, "a ref name is missing");
			}
			JournalEntryView last = this.store.timeline(key, ref, "", null, 0, 1)
				.stream()
				.findFirst()
				.filter(JournalEntryView::deletion)
				.orElseThrow(() -> Problems.exception(HttpStatus.CONFLICT, "not-deleted",
						"the journal of repository '" + Problems.printable(repo) + "' does not show '"
								+ Problems.printable(ref) + "' deleted as its last change",
						Map.of("ref", Problems.printable(ref))));
			String value = knownValue(key, last)
				.orElseThrow(() -> Problems.exception(HttpStatus.CONFLICT, "value-unknown",
						"the journal knows no object id '" + Problems.printable(ref) + "' held before it was deleted",
						Map.of("ref", Problems.printable(ref))));
			updates.add(new RefUpdateRequest(ref, "0".repeat(value.length()), value));
		}
		return updates;
	}

	/**
	 * Undoes one journaled change: a move (a force-push, say) is set back to the value
	 * before it, if the ref still holds the value the change set; a deletion is restored
	 * as {@link #restore} does.
	 * @throws org.springframework.web.ErrorResponseException 404 for no such entry, 409
	 * for a change that is neither, 412 if the ref changed since
	 */
	@PreAuthorize("hasRole('ADMIN')")
	public UpdateOutcome undo(String repo, long entryId) throws IOException {
		String key = this.names.key(repo);
		this.ingester.ingest(key);
		JournalEntryView entry = this.store.entry(key, entryId)
			.orElseThrow(() -> Problems.notFound("journal-entry-not-found",
					"the journal of repository '" + Problems.printable(repo) + "' has no entry " + entryId,
					Map.of("entry", entryId)));
		if (entry.deletion()) {
			return restore(repo, List.of(entry.ref())).results().get(0);
		}
		if (!entry.isMove()) {
			throw Problems.exception(HttpStatus.CONFLICT, "not-undoable",
					"entry " + entryId + " created '" + Problems.printable(entry.ref())
							+ "' or changed a symbolic ref: only a move or a deletion can be undone here",
					Map.of("entry", entryId));
		}
		return this.writes.put(repo, entry.ref(), entry.oldValue(), entry.newValue());
	}

	private DeletedRefView deleted(String key, OpenRepo open, JournalEntryView deletion) throws IOException {
		Optional<String> value = knownValue(key, deletion);
		boolean exists = false;
		if (value.isPresent()) {
			HashAlgorithm hash = open.store().hashAlgorithm();
			ObjectId id = ObjectId.tryParse(hash, value.get());
			exists = id != null && open.repository().objectDatabase().exists(id);
		}
		return new DeletedRefView(deletion.ref(), deletion.time(), deletion.writer(), deletion.identity(),
				value.orElse(null), exists, deletion.id());
	}

	/**
	 * The last object id the ref held up to a deletion; never a symbolic ref.
	 * @param key the name the journal keeps the repository under
	 */
	private Optional<String> knownValue(String key, JournalEntryView deletion) {
		return this.store.lastValue(key, deletion.ref(), deletion.id()).filter((value) -> !value.startsWith("ref:"));
	}

	private static void checkWriter(String writer) {
		if (writer != null && WriterKind.of(writer).isEmpty()) {
			throw new InvalidRequestException("writer", writer, "it is none of git, refstore-cli, api and job");
		}
	}

	private static void checkPage(long before, int limit) {
		if (limit < 1 || limit > MAX_LIMIT) {
			throw new InvalidRequestException("limit", Integer.toString(limit), "it must be 1 to " + MAX_LIMIT);
		}
		if (before < 0) {
			throw new InvalidRequestException("before", Long.toString(before), "it must be an entry id (positive)");
		}
	}

	/** A page of {@code items}, with a next position when the query had more rows. */
	private static <T> JournalPage<T> page(List<JournalEntryView> rows, int limit, List<T> items) {
		if (rows.size() <= limit) {
			return new JournalPage<>(items.subList(0, Math.min(limit, items.size())), null);
		}
		return new JournalPage<>(items.subList(0, Math.min(limit, items.size())), rows.get(limit - 1).id());
	}

}
