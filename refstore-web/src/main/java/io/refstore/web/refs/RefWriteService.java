package io.refstore.web.refs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.springframework.http.HttpStatus;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;
import org.springframework.web.ErrorResponseException;

import io.refstore.core.input.Printable;
import io.refstore.core.journal.WriterKind;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.InvalidRefNameException;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.Rejection;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.ref.UpdateResult;
import io.refstore.core.repo.GitHooks;
import io.refstore.core.repo.StoreSwappedException;
import io.refstore.web.audit.AuditEntry;
import io.refstore.web.audit.AuditEntry.Outcome;
import io.refstore.web.audit.AuditLog;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoRegistry;
import io.refstore.web.security.Actors;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Problems;
import io.refstore.web.system.Redaction;
import io.refstore.web.system.RefWebProperties;

/**
 * Writes refs through one core transaction per call, all or nothing, with git's locks (so
 * concurrent git processes and other instances are serialised by the store; this
 * application's own writers of a repository take turns first, {@link WriterTurns}).
 * Callers need the role ADMIN, checked here. Every call is audited with its outcome,
 * refused ones included. New values must name objects the repository has (422 otherwise).
 * Reflog entries carry the authenticated user as committer. Thread-safe.
 */
@Service
public class RefWriteService {

	/**
	 * The longest component of a ref name a files repository holds: 255 bytes, the usual
	 * file name limit, less the {@code .lock} of its lock file.
	 */
	private static final int MAX_FILE_NAME_BYTES = 255 - ".lock".length();

	private final RepoRegistry registry;

	private final AuditLog audit;

	private final int maxUpdates;

	private final WriterTurns turns;

	RefWriteService(RepoRegistry registry, AuditLog audit, RefWebProperties settings, WriterTurns turns) {
		this.registry = registry;
		this.audit = audit;
		this.maxUpdates = settings.api().maxBatchUpdates();
		this.turns = turns;
	}

	/**
	 * Applies every update or none.
	 * @return the per-update results of an applied batch
	 * @throws ErrorResponseException 400 for a malformed update (naming it), 409 listing
	 * mismatched expectations and conflicts, 413 for too many updates, 422 naming missing
	 * objects
	 */
	@PreAuthorize("hasRole('ADMIN')")
	public BatchResult batch(String repo, BatchRequest request) throws IOException {
		return batch("refs.batch", repo, request);
	}

	/**
	 * Applies every update or none, as {@link #batch(String, BatchRequest)}, audited as
	 * {@code action} (a restore from the journal, say).
	 */
	@PreAuthorize("hasRole('ADMIN')")
	public BatchResult batch(String action, String repo, BatchRequest request) throws IOException {
		List<RefUpdateRequest> updates = (request == null || request.updates() == null) ? List.of() : request.updates();
		Map<String, String> parameters = new LinkedHashMap<>();
		parameters.put("updates", Integer.toString(updates.size()));
		String target = targets(updates);
		return audited(action, repo, target, parameters, () -> {
			if (updates.isEmpty()) {
				throw new InvalidRequestException("updates", "[]", "at least one update is required");
			}
			if (updates.size() > this.maxUpdates) {
				throw Problems.exception(HttpStatus.CONTENT_TOO_LARGE, "too-many-updates",
						"a batch holds at most " + this.maxUpdates + " updates; this one has " + updates.size(),
						Map.of("parameter", "updates", "limit", this.maxUpdates));
			}
			try (OpenRepo open = this.registry.open(repo)) {
				List<RefUpdate> parsed = new ArrayList<>(updates.size());
				for (int i = 0; i < updates.size(); i++) {
					parsed.add(parse(open.store().hashAlgorithm(), updates.get(i), "updates[" + i + "]"));
					checkFileNames(open, parsed.get(i).name(), "updates[" + i + "].ref");
				}
				return new BatchResult(true, apply(open, parsed, message(request.message(), "batch update")));
			}
		});
	}

	/** The {@code expectedOld} of {@link #put} that requires the ref not to exist yet. */
	public static final String MUST_NOT_EXIST = "*";

	/**
	 * Sets one ref, if its current value is {@code expectedOld}.
	 * @param expectedOld the expected old value, or {@link #MUST_NOT_EXIST}
	 * @throws ErrorResponseException 412 if the expectation does not hold
	 */
	@PreAuthorize("hasRole('ADMIN')")
	public UpdateOutcome put(String repo, String ref, String value, String expectedOld) throws IOException {
		Map<String, String> parameters = new LinkedHashMap<>();
		parameters.put("new", String.valueOf(value));
		parameters.put("old", String.valueOf(expectedOld));
		return audited("ref.update", repo, ref, parameters,
				() -> single(repo, ref, value, expectedOld, "set by " + Actors.current(), (open, outcome) -> outcome));
	}

	/**
	 * Sets one ref as {@link #put} does and returns it as it reads right after the write,
	 * read under the same opening of the repository. A second opening could meet a swap
	 * of the store (a migration or rollback) that began after the write: it would wait at
	 * the gate and answer 503 "nothing was written" for a write that was made, and its
	 * writer, believing it, would retry with a value the ref no longer holds.
	 * @param expectedOld the expected old value, or {@link #MUST_NOT_EXIST}
	 * @throws ErrorResponseException 412 if the expectation does not hold
	 * @throws RefNotFoundException if another writer deleted the ref right after the
	 * write
	 */
	@PreAuthorize("hasRole('ADMIN')")
	public RefView putAndShow(String repo, String ref, String value, String expectedOld) throws IOException {
		Map<String, String> parameters = new LinkedHashMap<>();
		parameters.put("new", String.valueOf(value));
		parameters.put("old", String.valueOf(expectedOld));
		Optional<RefView> view = audited("ref.update", repo, ref, parameters,
				() -> single(repo, ref, value, expectedOld, "set by " + Actors.current(), (open, outcome) -> {
					Optional<Ref> written = open.store().exactRef(ref);
					return (written.isEmpty()) ? Optional.<RefView>empty()
							: Optional.of(RefViews.of(written.get(), open.store(), open.repository().objectDatabase()));
				}));
		// the write itself succeeded (and is audited so)
		return view.orElseThrow(() -> new RefNotFoundException(repo, ref, "ref"));
	}

	/**
	 * Deletes one ref, if its current value is {@code expectedOld}.
	 * @throws ErrorResponseException 412 if the expectation does not hold (including: the
	 * ref does not exist)
	 */
	@PreAuthorize("hasRole('ADMIN')")
	public UpdateOutcome delete(String repo, String ref, String expectedOld) throws IOException {
		Map<String, String> parameters = Map.of("old", String.valueOf(expectedOld));
		return audited("ref.delete", repo, ref, parameters, () -> single(repo, ref, null, expectedOld,
				"deleted by " + Actors.current(), (open, outcome) -> outcome));
	}

	/**
	 * One update; {@code value} {@code null} deletes. A failed expectation is a 412, as
	 * for If-Match.
	 */
	private <T> T single(String repo, String ref, String value, String expectedOld, String message, After<T> after)
			throws IOException {
		try (OpenRepo open = this.registry.open(repo)) {
			String zero = open.store().hashAlgorithm().zeroId().name();
			String old = MUST_NOT_EXIST.equals(expectedOld) ? zero : expectedOld;
			RefUpdate update = parse(open.store().hashAlgorithm(),
					new RefUpdateRequest(ref, old, (value == null) ? zero : value), "ref", "sha", "If-Match");
			checkFileNames(open, update.name(), "ref");
			try {
				return after.run(open, apply(open, List.of(update), message(null, message)).get(0));
			}
			catch (ErrorResponseException ex) {
				if (ex.getStatusCode().value() == HttpStatus.CONFLICT.value() && isMismatch(ex)) {
					ProblemDetailCopy copy = new ProblemDetailCopy(ex);
					throw Problems.exception(HttpStatus.PRECONDITION_FAILED, "precondition-failed", copy.detail(),
							copy.properties());
				}
				throw ex;
			}
		}
	}

	private static boolean isMismatch(ErrorResponseException ex) {
		return String.valueOf(ex.getBody().getType()).endsWith("/ref-mismatch");
	}

	/**
	 * Parses update {@code parameter} of a batch ({@code updates[3]}); errors name its
	 * member.
	 */
	static RefUpdate parse(HashAlgorithm hash, RefUpdateRequest request, String parameter) {
		return parse(hash, request, parameter + ".ref", parameter + ".new", parameter + ".old");
	}

	/**
	 * Parses one requested update; errors name the parameter that carried the culprit.
	 */
	static RefUpdate parse(HashAlgorithm hash, RefUpdateRequest request, String refParameter, String newParameter,
			String oldParameter) {
		if (request == null || request.ref() == null) {
			throw new InvalidRequestException(refParameter, null, "the ref name is missing");
		}
		try {
			RefService.checkName(request.ref());
		}
		catch (InvalidRefNameException ex) {
			throw Problems.exception(HttpStatus.BAD_REQUEST, "invalid-ref-name", refParameter + ": " + ex.getMessage(),
					Map.of("parameter", refParameter, "ref", RefName.printable(ex.refName()), "rule",
							ex.rule().name()));
		}
		ObjectId value = id(hash, request.value(), newParameter, false);
		ObjectId old = id(hash, request.old(), oldParameter, true);
		return RefUpdate.update(request.ref(), value, old);
	}

	/**
	 * Refuses a ref name a files repository cannot hold: each of its components becomes a
	 * file or directory name, and with the lock file's {@code .lock} it must fit the file
	 * system's limit (255 bytes on the usual ones), where git fails too. A reftable
	 * repository has no such limit.
	 */
	static void checkFileNames(OpenRepo open, String ref, String parameter) {
		if (open.repository().refFormat() != RefFormat.FILES) {
			return;
		}
		byte[] name = ref.getBytes(StandardCharsets.UTF_8);
		int start = 0;
		for (int i = 0; i <= name.length; i++) {
			if (i == name.length || name[i] == '/') {
				if (i - start > MAX_FILE_NAME_BYTES) {
					throw Problems.exception(HttpStatus.BAD_REQUEST, "invalid-ref-name",
							parameter + ": a component of the ref name is " + (i - start)
									+ " bytes long; a files repository keeps each as a file name of at most "
									+ MAX_FILE_NAME_BYTES + " bytes",
							Map.of("parameter", parameter, "ref", RefName.printable(ref), "rule",
									"FILE_NAME_TOO_LONG"));
				}
				start = i + 1;
			}
		}
	}

	private static ObjectId id(HashAlgorithm hash, String hex, String parameter, boolean optional) {
		if (hex == null) {
			if (optional) {
				return null;
			}
			throw new InvalidRequestException(parameter, null, "the new value is missing (all zeros deletes the ref)");
		}
		ObjectId id = ObjectId.tryParse(hash, hex);
		if (id == null || hex.length() != hash.hexLength()) {
			throw new InvalidRequestException(parameter, hex,
					"it is not a " + hash.hexLength() + "-digit hexadecimal " + hash.configName() + " object id");
		}
		return id;
	}

	/**
	 * Checks that new values exist, then commits; refusals become problems listing every
	 * update's result.
	 */
	private List<UpdateOutcome> apply(OpenRepo open, List<RefUpdate> updates, String message) throws IOException {
		requireObjects(open, updates);
		RefStore store = open.store();
		TransactionResult result = this.turns.inTurn(open.name(), open.repository().commonDir(), () -> {
			try (RefTransaction transaction = store.newTransaction()) {
				for (RefUpdate update : updates) {
					transaction.add(update);
				}
				transaction.committer(committer()).message(message);
				// the journal's hook records the change as the API's, by its user
				transaction.hook(GitHooks.referenceTransaction(open.repository(),
						Map.of(GitHooks.WRITER_KIND, WriterKind.API.word(), "REMOTE_USER", Actors.current())));
				return transaction.commit();
			}
		});
		List<UpdateOutcome> outcomes = outcomes(store, result);
		if (!result.committed()) {
			throw refusal(open.name(), result, outcomes);
		}
		return outcomes;
	}

	private static void requireObjects(OpenRepo open, List<RefUpdate> updates) throws IOException {
		ObjectDatabase objects = open.repository().objectDatabase();
		List<Map<String, String>> missing = new ArrayList<>();
		Set<ObjectId> seen = new HashSet<>();
		for (RefUpdate update : updates) {
			if (!update.isDelete() && seen.add(update.newId()) && !objects.exists(update.newId())) {
				missing.add(Map.of("ref", update.name(), "object", update.newId().name()));
			}
		}
		if (!missing.isEmpty()) {
			throw Problems.exception(HttpStatus.UNPROCESSABLE_CONTENT, "missing-object",
					"object " + missing.get(0).get("object") + " (new value of " + missing.get(0).get("ref")
							+ ") does not exist in repository '" + Problems.printable(open.name()) + "'"
							+ ((missing.size() > 1) ? " (and " + (missing.size() - 1) + " more)" : ""),
					Map.of("missing", missing));
		}
	}

	private static List<UpdateOutcome> outcomes(RefStore store, TransactionResult result) throws IOException {
		List<UpdateOutcome> outcomes = new ArrayList<>(result.results().size());
		for (UpdateResult update : result.results()) {
			RefUpdate asked = update.update();
			String expected = (asked.expectedOld() == null) ? null : asked.expectedOld().name();
			if (update.isOk()) {
				outcomes.add(new UpdateOutcome(asked.name(), "ok", expected, null, null));
				continue;
			}
			String actual = null;
			if (isMismatch(update.rejection())) {
				actual = store.exactRef(asked.name())
					.filter(DirectRef.class::isInstance)
					.map((ref) -> ((DirectRef) ref).id().name())
					.orElse(null);
			}
			outcomes.add(new UpdateOutcome(asked.name(), update.rejection().name().toLowerCase(Locale.ROOT), expected,
					actual, Redaction.paths(update.message())));
		}
		return outcomes;
	}

	private static boolean isMismatch(Rejection rejection) {
		return rejection == Rejection.INCORRECT_OLD_VALUE || rejection == Rejection.CREATE_EXISTS
				|| rejection == Rejection.NONEXISTENT_REF;
	}

	private static ErrorResponseException refusal(String repo, TransactionResult result, List<UpdateOutcome> outcomes) {
		UpdateResult first = result.firstRejection().orElseThrow();
		String detail = (first.message() != null) ? Redaction.paths(first.message())
				: "update of '" + first.update().name() + "' refused: " + first.rejection();
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("repository", repo);
		properties.put("results", outcomes);
		List<UpdateOutcome> mismatches = outcomes.stream()
			.filter((outcome) -> !outcome.status().equals("ok") && !outcome.status().equals("not_attempted"))
			.toList();
		properties.put("mismatches", mismatches);
		return switch (first.rejection()) {
			case INCORRECT_OLD_VALUE, CREATE_EXISTS, NONEXISTENT_REF ->
				Problems.exception(HttpStatus.CONFLICT, "ref-mismatch", detail, properties);
			case NAME_CONFLICT -> Problems.exception(HttpStatus.CONFLICT, "name-conflict", detail, properties);
			case LOCK_FAILURE -> Problems.exception(HttpStatus.CONFLICT, "lock-failure", detail, properties);
			// the ref's loose file holds no ref (git refuses it too): the repository
			// needs repair, not a retry
			case BROKEN_REF -> Problems.exception(HttpStatus.CONFLICT, "broken-ref", detail, properties);
			case MISSING_OBJECT ->
				Problems.exception(HttpStatus.UNPROCESSABLE_CONTENT, "missing-object", detail, properties);
			case INVALID_NAME, DUPLICATE_UPDATE ->
				Problems.exception(HttpStatus.BAD_REQUEST, "invalid-update", detail, properties);
			default -> Problems.exception(HttpStatus.INTERNAL_SERVER_ERROR, "io-error",
					"the ref store could not be written; the server log has the details", Map.of());
		};
	}

	private static PersonIdent committer() {
		String actor = Actors.current();
		return new PersonIdent(actor, actor + "@refstore", Instant.now().getEpochSecond(), 0);
	}

	/**
	 * The reflog message of a write: the requested one with its whitespace folded as git
	 * folds it (a line break or tab becomes a space, as {@code git update-ref -m} stores
	 * it), other control characters escaped. Its length is left to the store: a files
	 * reflog keeps all of it, a reftable the first half block, as git.
	 */
	private static String message(String requested, String fallback) {
		String text = (requested == null || requested.isBlank()) ? "refstore: " + fallback : requested;
		return Printable.of(ReflogEntry.normalizeMessage(text));
	}

	private static String targets(List<RefUpdateRequest> updates) {
		StringBuilder names = new StringBuilder();
		for (RefUpdateRequest update : updates) {
			if (names.length() > 1000) {
				return names.append(" …").toString();
			}
			names.append((names.length() == 0) ? "" : " ").append((update == null) ? "null" : update.ref());
		}
		return names.toString();
	}

	/** Runs a write and records its outcome, refused and failed ones included. */
	private <T> T audited(String action, String repo, String target, Map<String, String> parameters, Write<T> write)
			throws IOException {
		String actor = Actors.current();
		try {
			T result;
			try {
				result = write.run();
			}
			catch (StoreSwappedException ex) {
				// the store was swapped between opening and locking: nothing was written,
				// and opening the
				// repository again gets the new store
				result = write.run();
			}
			this.audit.record(AuditEntry.of(actor, action, repo, target, parameters, Outcome.SUCCESS, null));
			return result;
		}
		catch (ErrorResponseException ex) {
			this.audit.record(
					AuditEntry.of(actor, action, repo, target, parameters, Outcome.REJECTED, ex.getBody().getDetail()));
			throw ex;
		}
		catch (IOException | RuntimeException ex) {
			this.audit.record(AuditEntry.of(actor, action, repo, target, parameters,
					(ex instanceof IllegalArgumentException) ? Outcome.REJECTED : Outcome.ERROR, ex.getMessage()));
			throw ex;
		}
	}

	/**
	 * What a single update returns, made while the repository it wrote is still open.
	 */
	@FunctionalInterface
	private interface After<T> {

		T run(OpenRepo open, UpdateOutcome outcome) throws IOException;

	}

	@FunctionalInterface
	private interface Write<T> {

		T run() throws IOException;

	}

	/**
	 * The detail and extension members of a problem, to re-issue it with another status.
	 */
	private record ProblemDetailCopy(String detail, Map<String, Object> properties) {

		ProblemDetailCopy(ErrorResponseException ex) {
			this(ex.getBody().getDetail(),
					(ex.getBody().getProperties() == null) ? Map.of() : ex.getBody().getProperties());
		}

	}

}
