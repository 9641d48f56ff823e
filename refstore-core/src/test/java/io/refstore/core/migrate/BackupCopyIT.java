package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.refstore.core.migrate.MigrationRepos.Maker;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.ReflogPolicy;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.TempRepo;

/**
 * A rollback's copy of a backup links the backup's files instead of copying their bytes,
 * except a files store's reflogs, which writers append to; and writing into the copy as a
 * rollback's catch-up does (an update with its log entry, a deletion, the packing after)
 * leaves the backup as it was, byte for byte.
 */
class BackupCopyIT {

	@ParameterizedTest
	@EnumSource(value = Maker.class, names = { "NEWEST_FILES", "NEWEST_REFTABLE" })
	void linksTheStoreCopiesTheReflogsAndWritesIntoTheCopyLeaveTheBackupAsItWas(Maker maker, @TempDir Path dir)
			throws IOException {
		TempRepo repo = MigrationRepos.create(maker, dir.resolve("repo"), false, false);
		RefFormat other = (maker.format == RefFormat.FILES) ? RefFormat.REFTABLE : RefFormat.FILES;
		MigrationReport migrated = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(other));
		Path backup = migrated.backup();
		Map<String, String> before = DirSnapshot.of(backup, Set.of());
		Path copy = dir.resolve("copy");

		BackupCopy.copy(backup, copy);

		List<Path> files;
		try (Stream<Path> walk = Files.walk(copy)) {
			files = walk.filter((path) -> Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)).toList();
		}
		assertThat(files).isNotEmpty().allSatisfy((file) -> {
			Path relative = copy.relativize(file);
			boolean sameFile = key(file).equals(key(backup.resolve(relative.toString())));
			assertThat(sameFile).as(relative + " linked").isEqualTo(!relative.startsWith("logs"));
		});
		if (maker.format == RefFormat.FILES) {
			assertThat(files).as("reflogs copied")
				.anySatisfy((file) -> assertThat(copy.relativize(file)).startsWithRaw(Path.of("logs")));
		}

		try (Repository repository = Repository.open(repo.dir());
				RefStore store = RefStores.openAt(repository, maker.format, copy, ReflogPolicy.ALWAYS)) {
			ObjectId main = ((DirectRef) store.exactRef("refs/heads/main").orElseThrow()).id();
			ObjectId feature = ((DirectRef) store.exactRef("refs/heads/feature").orElseThrow()).id();
			try (RefTransaction transaction = store.newTransaction()) {
				transaction.add(RefUpdate.update("refs/heads/main", feature, main));
				transaction.add(RefUpdate.create("refs/heads/written-into-the-copy", main));
				transaction.add(RefUpdate.delete("refs/tags/v1", null));
				assertThat(transaction.message("into the copy").commit().committed()).isTrue();
			}
			store.packRefs(new RefStore.PackOptions(true, true));
			assertThat(store.reflog("refs/heads/main")).last()
				.satisfies((entry) -> assertThat(entry.message()).isEqualTo("into the copy"));
		}

		assertThat(DirSnapshot.of(backup, Set.of())).isEqualTo(before);
	}

	private static Object key(Path file) {
		try {
			return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
