package io.refstore.core.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStoreContractTest;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.Rejection;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The RefStore contract on the files backend, plus what only the files backend has: loose
 * files, {@code packed-refs}, lock files and directories.
 */
class FilesRefStoreIT extends RefStoreContractTest {

	@Override
	protected TempRepo newRepo(Path dir) {
		return TempRepo.init(GitCli.system(), dir);
	}

	private Path gitDir() {
		return this.repo.gitDir();
	}

	@Test
	void looseRefHidesThePackedValue() throws IOException {
		this.repo.git("update-ref", "refs/heads/x", this.commits.get(1));
		this.repo.git("pack-refs", "--all");
		Files.writeString(gitDir().resolve("refs/heads/x"), this.commits.get(2) + "\n");
		assertThat(this.store.exactRef("refs/heads/x").orElseThrow()).extracting("id").isEqualTo(id(2));
		assertThat(names(RefQuery.ALL)).containsExactly("refs/heads/x");
	}

	/**
	 * A listing of the whole store reads {@code packed-refs} a megabyte at a time
	 * ({@link MappedPackedRefs.Chunks}): across the chunks' edges, with annotated tags'
	 * peeled lines and loose refs that hide, add to and delete packed ones, it lists what
	 * git lists.
	 */
	@Test
	void aListingOfAPackedRefsFileOfManyChunksIsGits() throws IOException {
		this.repo.git("tag", "-a", "-m", "annotated", "base", this.commits.get(1));
		String tag = this.repo.git("rev-parse", "refs/tags/base").strip();
		StringBuilder create = new StringBuilder();
		for (int i = 0; i < 30_000; i++) {
			create.append("create refs/heads/some/long/branch/name/number/")
				.append(String.format("%06d", i))
				.append(' ')
				.append(this.commits.get(i % 3))
				.append('\n');
			if (i % 5 == 0) {
				create.append("create refs/tags/v")
					.append(String.format("%06d", i))
					.append(' ')
					.append(tag)
					.append('\n');
			}
		}
		this.repo.run(create.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		this.repo.git("pack-refs", "--all");
		assertThat(Files.size(gitDir().resolve("packed-refs"))).isGreaterThan(2L * MappedPackedRefs.Chunks.SIZE);
		this.repo.git("update-ref", "refs/heads/some/long/branch/name/number/005000", this.commits.get(2));
		this.repo.git("update-ref", "refs/heads/some/long/branch/name/number/029999x", this.commits.get(1));
		this.repo.git("update-ref", "-d", "refs/heads/some/long/branch/name/number/018000");
		this.repo.git("update-ref", "refs/tags/v012345", this.commits.get(0));
		this.repo.git("update-ref", "refs/heads/a", this.commits.get(1));

		StringBuilder listed = new StringBuilder();
		try (RefCursor cursor = this.store.refs(RefQuery.ALL)) {
			while (cursor.next()) {
				listed.append(ObjectId.fromRaw(this.store.hashAlgorithm(), cursor.idBuffer(), 0).toString())
					.append(' ')
					.append(new String(cursor.nameBuffer(), 0, cursor.nameLength(), StandardCharsets.UTF_8))
					.append('\n');
			}
		}
		assertThat(listed.toString()).isEqualTo(this.repo.git("for-each-ref", "--format=%(objectname) %(refname)"));
	}

	@Test
	void staleLockIsRefusedAndChangesNothing() throws IOException {
		this.repo.git("update-ref", "refs/heads/x", this.commits.get(1));
		Files.writeString(gitDir().resolve("refs/heads/x.lock"), "");
		TransactionResult result = apply(RefUpdate.update("refs/heads/x", id(2), null));
		assertThat(result.committed()).isFalse();
		assertThat(result.firstRejection().orElseThrow().rejection()).isEqualTo(Rejection.LOCK_FAILURE);
		assertThat(result.firstRejection().orElseThrow().message()).contains("refs/heads/x.lock");
		assertThat(this.repo.git("rev-parse", "refs/heads/x").trim()).isEqualTo(this.commits.get(1));
		assertThat(gitDir().resolve("refs/heads/x.lock")).exists();
	}

	/**
	 * The lock files of a large transaction are made on several threads; the refusal is
	 * still the first in submission order (refs/pull/40 before refs/pull/150, though the
	 * name order is the other way), and every lock the transaction made is gone.
	 */
	@Test
	void aLargeTransactionReportsItsFirstLockFailureInSubmissionOrderAndReleasesEveryOtherLock() throws IOException {
		StringBuilder create = new StringBuilder();
		RefUpdate[] deletes = new RefUpdate[200];
		for (int i = 0; i < deletes.length; i++) {
			create.append("create refs/pull/").append(i).append("/head ").append(this.commits.get(1)).append('\n');
			deletes[i] = RefUpdate.delete("refs/pull/" + i + "/head", id(1));
		}
		this.repo.run(create.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin");
		this.repo.git("pack-refs", "--all");
		String before = showRef();
		Files.createDirectories(gitDir().resolve("refs/pull/150"));
		Files.writeString(gitDir().resolve("refs/pull/150/head.lock"), "");
		Files.createDirectories(gitDir().resolve("refs/pull/40"));
		Files.writeString(gitDir().resolve("refs/pull/40/head.lock"), "");

		TransactionResult result = apply(deletes);

		assertThat(result.committed()).isFalse();
		assertThat(result.firstRejection().orElseThrow().rejection()).isEqualTo(Rejection.LOCK_FAILURE);
		assertThat(result.firstRejection().orElseThrow().message()).contains("refs/pull/40/head.lock")
			.doesNotContain("refs/pull/150/");
		assertThat(showRef()).isEqualTo(before);
		try (Stream<Path> files = Files.walk(gitDir())) {
			assertThat(files.filter((file) -> file.getFileName().toString().endsWith(".lock"))
				.map((file) -> gitDir().relativize(file).toString()))
				.containsExactlyInAnyOrder("refs/pull/150/head.lock", "refs/pull/40/head.lock");
		}
	}

	@Test
	void deletingTheLastPackedRefLeavesAHeaderOnlyFile() throws IOException {
		this.repo.git("update-ref", "refs/heads/x", this.commits.get(1));
		this.repo.git("pack-refs", "--all");
		assertThat(apply(RefUpdate.delete("refs/heads/x", id(1))).committed()).isTrue();
		assertThat(Files.readString(gitDir().resolve("packed-refs")))
			.isEqualTo("# pack-refs with: peeled fully-peeled sorted \n");
		assertThat(gitDir().resolve("refs/heads/x")).doesNotExist();
	}

	@Test
	void deletionRemovesEmptyParentsButKeepsTheTopLevels() throws IOException {
		this.repo.git("update-ref", "refs/heads/d1/d2/d3", this.commits.get(1));
		this.repo.git("update-ref", "refs/custom/x", this.commits.get(1));
		assertThat(apply(RefUpdate.delete("refs/heads/d1/d2/d3", null), RefUpdate.delete("refs/custom/x", null))
			.committed()).isTrue();
		assertThat(gitDir().resolve("refs/heads/d1")).doesNotExist();
		assertThat(gitDir().resolve("refs/heads")).isDirectory();
		assertThat(gitDir().resolve("refs/custom")).isDirectory();
		assertThat(gitDir().resolve("logs/refs/heads")).isDirectory();
		assertThat(gitDir().resolve("logs/refs/heads/d1")).doesNotExist();
	}

	@Test
	void emptyDirectoriesAtARefPathAreRemovedButNonEmptyOnesConflict() throws IOException {
		Files.createDirectories(gitDir().resolve("refs/heads/e/f/g"));
		assertThat(apply(RefUpdate.create("refs/heads/e", id(1))).committed()).isTrue();
		this.repo.git("update-ref", "refs/heads/n/m", this.commits.get(1));
		TransactionResult result = apply(RefUpdate.create("refs/heads/n", id(1)));
		assertThat(result.firstRejection().orElseThrow().rejection()).isEqualTo(Rejection.NAME_CONFLICT);
		assertThat(result.firstRejection().orElseThrow().message())
			.isEqualTo("cannot lock ref 'refs/heads/n': 'refs/heads/n/m' exists; cannot create 'refs/heads/n'");
	}

	@Test
	void nameConflictsWithPackedRefsAreRejectedAsGitDoes() throws IOException {
		this.repo.git("update-ref", "refs/heads/p/q", this.commits.get(1));
		this.repo.git("update-ref", "refs/heads/r", this.commits.get(1));
		this.repo.git("pack-refs", "--all");
		assertThat(apply(RefUpdate.create("refs/heads/p", id(2))).firstRejection().orElseThrow().message())
			.isEqualTo("cannot lock ref 'refs/heads/p': 'refs/heads/p/q' exists; cannot create 'refs/heads/p'");
		assertThat(apply(RefUpdate.create("refs/heads/r/s", id(2))).firstRejection().orElseThrow().message())
			.isEqualTo("cannot lock ref 'refs/heads/r/s': 'refs/heads/r' exists; cannot create 'refs/heads/r/s'");
		assertThat(apply(RefUpdate.delete("refs/heads/r", null), RefUpdate.create("refs/heads/r/s", id(2))).committed())
			.isFalse();
		assertThat(this.repo.git("for-each-ref", "--format=%(refname)")).isEqualTo("refs/heads/p/q\nrefs/heads/r\n");
	}

	@Test
	void iterationReportsADamagedIdOrPeeledLineWithItsLine() throws IOException {
		String header = "# pack-refs with: peeled fully-peeled sorted \n";
		String good = this.commits.get(1) + " refs/heads/a\n";
		String badHex = this.commits.get(2).substring(0, 39) + "g refs/heads/b\n";
		String noName = this.commits.get(2) + " \n";
		String shortPeeled = this.commits.get(2) + " refs/tags/t\n^" + this.commits.get(3).substring(1) + "\n";
		String badPeeled = this.commits.get(2) + " refs/tags/t\n^" + this.commits.get(3).substring(1) + "x\n";
		for (String damaged : new String[] { badHex, noName }) {
			Files.writeString(gitDir().resolve("packed-refs"), header + good + damaged, StandardCharsets.UTF_8);
			assertThatThrownBy(() -> names(RefQuery.ALL)).isInstanceOf(CorruptRefStoreException.class)
				.hasMessageContaining("line 3: not a ref line");
		}
		for (String damaged : new String[] { shortPeeled, badPeeled }) {
			Files.writeString(gitDir().resolve("packed-refs"), header + good + damaged, StandardCharsets.UTF_8);
			assertThatThrownBy(() -> names(RefQuery.ALL)).isInstanceOf(CorruptRefStoreException.class)
				.hasMessageContaining("line 4: not a peeled line");
		}
	}

	@Test
	void aPrefixListingReadsItsPartOfPackedRefsAndNamesDamageByItsLineInTheFile() throws IOException {
		String header = "# pack-refs with: peeled fully-peeled sorted \n";
		StringBuilder text = new StringBuilder(header);
		for (int i = 0; i < 300; i++) {
			text.append(this.commits.get(1)).append(String.format(" refs/heads/b%03d%n", i));
		}
		text.append(this.commits.get(2)).append(" refs/tags/t1\n");
		text.append(this.tag).append(" refs/tags/t2\n^").append(this.commits.get(0)).append('\n');
		text.append(this.commits.get(3)).append(" refs/tagsx\n");
		Files.writeString(gitDir().resolve("packed-refs"), text, StandardCharsets.UTF_8);
		assertThat(names(RefQuery.prefix("refs/tags/"))).containsExactly("refs/tags/t1", "refs/tags/t2");
		assertThat(names(RefQuery.prefix("refs/heads/b29"))).hasSize(10)
			.allMatch((name) -> name.startsWith("refs/heads/b29"));
		try (var cursor = this.store.refs(RefQuery.prefix("refs/tags/t2"))) {
			assertThat(cursor.next()).isTrue();
			assertThat(cursor.hasPeeled()).isTrue();
			assertThat(((io.refstore.core.ref.DirectRef) cursor.ref()).peeled()).isEqualTo(id(0));
			assertThat(cursor.next()).isFalse();
		}
		assertThat(names(RefQuery.prefix("refs/zzz/"))).isEmpty();
		Files.writeString(gitDir().resolve("packed-refs"),
				text.toString().replace(" refs/tags/t2\n^", " refs/tags/t2\n^x"), StandardCharsets.UTF_8);
		assertThatThrownBy(() -> names(RefQuery.prefix("refs/tags/"))).isInstanceOf(CorruptRefStoreException.class)
			.hasMessageContaining("line 304: not a peeled line");
	}

	@Test
	void corruptPackedRefsLineIsReportedWithFileAndLine() throws IOException {
		Files.writeString(gitDir().resolve("packed-refs"), "# pack-refs with: peeled fully-peeled sorted \n"
				+ this.commits.get(1) + " refs/heads/a\nnot a ref line\n", StandardCharsets.UTF_8);
		assertThatThrownBy(() -> names(RefQuery.ALL)).isInstanceOf(CorruptRefStoreException.class)
			.hasMessageContaining(gitDir().resolve("packed-refs").toString())
			.hasMessageContaining("line 3");
	}

	@Test
	void verifyFindsNothingInASoundRepositoryAndNamesEachDamage() throws IOException {
		this.repo.git("update-ref", "refs/heads/a", this.commits.get(1));
		this.repo.git("update-ref", "refs/tags/v1", this.tag);
		this.repo.git("pack-refs", "--all");
		this.repo.git("update-ref", "refs/heads/b", this.commits.get(2));
		assertThat(this.store.verify()).isEmpty();

		Files.writeString(gitDir().resolve("refs/heads/.hidden"), this.commits.get(1) + "\n");
		Files.writeString(gitDir().resolve("refs/heads/broken"), "nonsense\n");
		Files.writeString(gitDir().resolve("refs/heads/nolf"), this.commits.get(1));
		Files.writeString(gitDir().resolve("refs/heads/gone"), "1234567890123456789012345678901234567890\n");
		Files.writeString(gitDir().resolve("packed-refs"),
				"# pack-refs with: peeled fully-peeled sorted \n" + this.commits.get(1) + " refs/heads/z\n"
						+ this.commits.get(1) + " refs/heads/y\n" + this.tag + " refs/tags/v1\n");
		// git's checks (loose files in directory order), then refstore's deeper ones
		assertThat(this.store.verify()).extracting((problem) -> problem.format())
			.containsExactlyInAnyOrder("error: refs/heads/.hidden: badRefName: invalid refname format",
					"error: refs/heads/broken: badRefContent: nonsense",
					"warning: refs/heads/nolf: refMissingNewline: misses LF at the end",
					"error: packed-refs line 3: packedRefUnsorted: refname 'refs/heads/y' is less than previous refname 'refs/heads/z'",
					"error: refs/heads/gone: missingRefObject: points to missing object 1234567890123456789012345678901234567890",
					"error: refs/tags/v1: badPackedRefPeeled: peels to " + this.commits.get(0)
							+ " but packed-refs has no peeled value");
	}

}
