package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.refstore.core.io.FileMoves;
import io.refstore.core.ref.InitialRefWriter;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * Builds the new store of a migration beside the live one, in bulk, and verifies it: refs
 * stream from the source straight into one {@code packed-refs} or one reftable (no
 * per-ref file or table), reflogs follow, and the source is digested in the same pass;
 * then the new store is read back through its own backend and the digests compared.
 */
final class StoreBuilder {

	/** How many refs pass between two progress updates. */
	private static final int PROGRESS_STEP = 1024;

	private final Repository repository;

	private final MigrationProgress progress;

	StoreBuilder(Repository repository) {
		this(repository, MigrationProgress.NONE);
	}

	StoreBuilder(Repository repository, MigrationProgress progress) {
		this.repository = repository;
		this.progress = progress;
	}

	/**
	 * Builds the store of {@code source} in {@code staged} in bulk, then reads it back
	 * and compares.
	 */
	BuiltStore buildAndVerify(RefStore source, Path staged, MigrationOptions options) throws IOException {
		return buildAndVerify(source, null, staged, options);
	}

	/**
	 * {@link #buildAndVerify(RefStore, Path, MigrationOptions)} with the names of the
	 * source's logs listed already.
	 * @param reflogNames what {@code source.reflogNames()} gives, or {@code null} to ask
	 * it
	 */
	BuiltStore buildAndVerify(RefStore source, List<String> reflogNames, Path staged, MigrationOptions options)
			throws IOException {
		Map<String, List<ReflogEntry>> reflogs = new LinkedHashMap<>();
		long maxEntries = 0;
		List<String> names = List.of();
		if (options.reflogs()) {
			// one pass: a reftable's log blocks are read once, not sought per ref; the
			// names, listed once, count them first
			names = (reflogNames != null) ? reflogNames : source.reflogNames();
			this.progress.start("Reading reflogs", names.size());
			long[] longest = { 0 };
			source.forEachReflog(names, (name, entries) -> {
				reflogs.put(name, entries);
				longest[0] = Math.max(longest[0], entries.size());
				this.progress.update(reflogs.size());
			});
			maxEntries = longest[0];
			this.progress.stop();
		}
		RefDigest sourceDigest = new RefDigest(this.repository.objectDatabase());
		Files.createDirectories(staged);
		try (InitialRefWriter writer = RefStores.initialWriter(this.repository, options.target(), staged, maxEntries);
				RefCursor refs = source.refs(RefQuery.ALL.withRootRefs())) {
			this.progress.start("Copying refs",
					(this.progress != MigrationProgress.NONE) ? StagedMigration.estimateRefs(source) : 0);
			writeRefs(refs, sourceDigest, writer, this.progress);
			this.progress.stop();
			if (!reflogs.isEmpty()) {
				// a file each in the files format: seconds on a large store, with the
				// forcing that ends it
				this.progress.start("Writing reflogs", reflogs.size());
			}
			long written = 0;
			for (Map.Entry<String, List<ReflogEntry>> log : reflogs.entrySet()) {
				sourceDigest.addReflog(log.getKey(), writer.addReflog(log.getKey(), log.getValue()));
				if (++written % PROGRESS_STEP == 0) {
					this.progress.update(written);
				}
			}
			writer.finish();
			if (!reflogs.isEmpty()) {
				this.progress.update(written);
				this.progress.stop();
			}
		}
		// the logs read back are those of the names written, each looked up by its name:
		// a listing would walk a directory per log of the files format once more
		return verify(new BuiltStore(sourceDigest, null), staged, options, names);
	}

	/**
	 * A swap's refresh for a store built from {@code source}: a writer got in before the
	 * swap's locks, so the store is built again from what the locks now freeze.
	 */
	Swap.Refresh rebuild(RefStore source, Path staged, MigrationOptions options) {
		return () -> {
			FileMoves.deleteTree(staged);
			return buildAndVerify(source, staged, options);
		};
	}

	/**
	 * Streams every ref of {@code refs} into the digest and the writer, in the cursor's
	 * order.
	 */
	static void writeRefs(RefCursor refs, RefDigest digest, InitialRefWriter writer) throws IOException {
		writeRefs(refs, digest, writer, MigrationProgress.NONE);
	}

	private static void writeRefs(RefCursor refs, RefDigest digest, InitialRefWriter writer, MigrationProgress progress)
			throws IOException {
		long count = 0;
		while (refs.next()) {
			if (++count % PROGRESS_STEP == 0) {
				progress.update(count);
			}
			byte[] peeled = digest.addRef(refs);
			if (refs.isSymbolic()) {
				writer.addSymbolic(refs.nameBuffer(), refs.nameLength(),
						new String(refs.targetBuffer(), 0, refs.targetLength(), StandardCharsets.UTF_8));
			}
			else {
				writer.addDirect(refs.nameBuffer(), refs.nameLength(), refs.idBuffer(), peeled);
			}
		}
		progress.update(count);
	}

	/**
	 * Reads the store staged in {@code staged} back through its own backend.
	 * @return {@code built} with the digest read back
	 * @throws MigrationException if it reads differently from the source
	 */
	BuiltStore verify(BuiltStore built, Path staged, MigrationOptions options) throws IOException {
		return verify(built, staged, options, null);
	}

	/**
	 * {@link #verify(BuiltStore, Path, MigrationOptions)} reading the logs of the names
	 * given (the names the store was written from), or, if {@code null}, of the names the
	 * staged store lists.
	 */
	private BuiltStore verify(BuiltStore built, Path staged, MigrationOptions options, List<String> reflogNames)
			throws IOException {
		String targetDigest;
		try (RefStore target = RefStores.openAt(this.repository, options.target(), staged)) {
			this.progress.start("Verifying refs", built.refs);
			RefDigest digest = (options.reflogs() && reflogNames != null)
					? RefDigest.of(target, this.repository.objectDatabase(), reflogNames, this.progress)
					: RefDigest.of(target, this.repository.objectDatabase(), options.reflogs(), this.progress);
			targetDigest = digest.finish();
			this.progress.stop();
		}
		if (!built.sourceDigest.equals(targetDigest)) {
			throw new MigrationException("verification failed: the new " + options.target().configName() + " store at '"
					+ staged + "' reads differently from the source (digest " + built.sourceDigest + " vs "
					+ targetDigest + "); the repository is unchanged");
		}
		return new BuiltStore(built.sourceDigest, targetDigest, built.refs, built.logEntries);
	}

}
