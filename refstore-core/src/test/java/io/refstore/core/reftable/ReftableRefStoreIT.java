package io.refstore.core.reftable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefStoreContractTest;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.Rejection;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The RefStore contract on the reftable backend, judged by a git that speaks reftable,
 * plus what only the stack has: one table per transaction, compaction, the stack's lock.
 */
class ReftableRefStoreIT extends RefStoreContractTest {

	@Override
	protected TempRepo newRepo(Path dir) {
		return TempRepo.init(GitCli.reftable(), dir, "--ref-format=reftable");
	}

	private List<String> tables() throws IOException {
		return Files.readAllLines(this.repo.gitDir().resolve("reftable/tables.list"));
	}

	@Test
	void eachTransactionAppendsOneTableAndCompactionKeepsTheStackSmall() throws IOException {
		for (int i = 0; i < 40; i++) {
			assertThat(apply(RefUpdate.create("refs/heads/b" + i, id(i % 8))).committed()).isTrue();
		}
		assertThat(tables().size()).isLessThanOrEqualTo(8);
		assertThat(this.repo.git("for-each-ref", "--format=%(refname)").lines()).hasSize(40);
		assertThat(this.repo.git("refs", "verify", "--strict")).isEmpty();
		this.store.packRefs(RefStore.PackOptions.DEFAULT);
		assertThat(tables()).hasSize(1);
		assertThat(names(RefQuery.prefix("refs/heads/b1"))).hasSize(11);
		assertThat(this.store.verify()).isEmpty();
	}

	@Test
	void aBatchUnderOneDirectoryIsCheckedAgainstItsParentsForEachRef() throws IOException {
		assertThat(apply(RefUpdate.create("refs/pull/1", id(1))).committed()).isTrue();
		TransactionResult conflict = apply(RefUpdate.create("refs/pull/0/head", id(2)),
				RefUpdate.create("refs/pull/1/head", id(2)), RefUpdate.create("refs/pull/2/head", id(2)));
		assertThat(conflict.firstRejection().orElseThrow().rejection()).isEqualTo(Rejection.NAME_CONFLICT);
		assertThat(conflict.firstRejection().orElseThrow().message())
			.endsWith("'refs/pull/1' exists; cannot create 'refs/pull/1/head'");
		assertThat(apply(RefUpdate.create("refs/pull/0/head", id(2)), RefUpdate.create("refs/pull/0/merge", id(3)),
				RefUpdate.create("refs/pull/2/head", id(2)))
			.committed()).isTrue();
		assertThat(names(RefQuery.prefix("refs/pull/"))).containsExactly("refs/pull/0/head", "refs/pull/0/merge",
				"refs/pull/1", "refs/pull/2/head");
	}

	@Test
	void updatesCheckedOneByOneStoreATagsPeeledValueAndNoneForACommit() throws IOException {
		ObjectId tagId = ObjectId.fromHex(this.store.hashAlgorithm(), this.tag);
		// a message of their own keeps the updates out of the bulk path: each is checked
		// alone, its object's type found once for both the check and the peeled value
		assertThat(apply(RefUpdate.create("refs/tags/v1", tagId).withMessage("tag"),
				RefUpdate.create("refs/heads/topic", id(1)).withMessage("branch"))
			.committed()).isTrue();
		reopen();
		assertThat(this.store.exactRef("refs/tags/v1")).contains(new DirectRef("refs/tags/v1", tagId, id(0)));
		assertThat(this.store.exactRef("refs/heads/topic")).contains(new DirectRef("refs/heads/topic", id(1)));
		assertThat(this.repo.git("refs", "verify", "--strict")).isEmpty();
	}

	@Test
	void heldStackLockIsRefusedAndChangesNothing() throws IOException {
		Path lock = this.repo.gitDir().resolve("reftable/tables.list.lock");
		Files.writeString(lock, "");
		List<String> before = tables();
		TransactionResult result = apply(RefUpdate.create("refs/heads/x", id(1)));
		assertThat(result.firstRejection().orElseThrow().rejection()).isEqualTo(Rejection.LOCK_FAILURE);
		assertThat(tables()).isEqualTo(before);
		Files.delete(lock);
	}

	@Test
	void deletionsWrittenByRefstoreHideRefsOfOlderTablesForGit() throws IOException {
		this.repo.git("update-ref", "refs/heads/old", this.commits.get(1));
		this.repo.git("update-ref", "refs/heads/keep", this.commits.get(2));
		reopen();
		assertThat(apply(RefUpdate.delete("refs/heads/old", id(1))).committed()).isTrue();
		assertThat(this.repo.git("for-each-ref", "--format=%(refname)")).isEqualTo("refs/heads/keep\n");
		assertThat(this.repo.run(new byte[0], "reflog", "exists", "refs/heads/old").exitCode()).isNotZero();
	}

}
