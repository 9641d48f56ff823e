package io.refstore.core.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.ref.UpdateBatch;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.core.testing.TestFiles;

/**
 * A transaction given its updates as one {@link UpdateBatch} (checked in bulk where the
 * store can) against the same updates added one by one: the same result (committed, first
 * rejection and its message), the same refs and reflogs afterwards, and a store that the
 * reftable-capable git reads and verifies as clean. Both formats.
 */
class BatchTransactionIT {

	@TempDir
	static Path temp;

	private static final GitCli GIT = GitCli.reftable();

	private static final Map<String, Path> BASES = new java.util.HashMap<>();

	private static String c1;

	private static String c2;

	private static String tag;

	private static String tree;

	private static int copies;

	@BeforeAll
	static void makeRepositories() {
		for (String format : List.of("files", "reftable")) {
			TempRepo repo = TempRepo.init(GIT, temp.resolve("base-" + format), "--ref-format=" + format);
			c1 = repo.commit("one", null);
			c2 = repo.commit("two", c1);
			tag = repo.tagObject("v1", c1, "commit");
			tree = repo.git("rev-parse", c1 + "^{tree}").trim();
			repo.git("update-ref", "refs/heads/main", c1);
			repo.git("update-ref", "refs/heads/topic", c1);
			repo.git("update-ref", "refs/heads/dir/leaf", c1);
			repo.git("update-ref", "refs/tags/v1", tag);
			repo.git("update-ref", "refs/remotes/origin/main", c2);
			repo.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main");
			repo.git("pack-refs", "--all");
			repo.git("update-ref", "refs/heads/loose", c2);
			BASES.put(format, repo.dir());
		}
	}

	static Stream<Arguments> sessions() {
		List<Arguments> sessions = new ArrayList<>();
		for (String format : List.of("files", "reftable")) {
			for (String session : List.of("create refs/heads/a $C1|create refs/heads/b $C2|create refs/tags/t $T",
					"create refs/heads/main $C2", "update refs/heads/topic $C2 $C1|update refs/heads/loose $C1 $C2",
					"update refs/heads/topic $C2 $C2", "update refs/heads/nothing $C2 $C1",
					"update refs/heads/main $C2", "update refs/heads/topic $C1",
					"delete refs/heads/topic $C1|delete refs/heads/loose", "delete refs/heads/nothing",
					"delete refs/heads/topic $C2", "verify refs/heads/topic $C1",
					"verify refs/heads/topic $C2|create refs/heads/x $C1", "verify refs/heads/nothing $Z",
					"create refs/heads/main/sub $C1", "create refs/heads/dir $C1",
					"create refs/heads/p $C1|create refs/heads/p/q $C1",
					"create refs/heads/p/q $C1|create refs/heads/p $C1",
					"delete refs/heads/dir/leaf|create refs/heads/dir $C1", "create refs/heads/x $MISSING",
					"create refs/heads/x $T", "create refs/heads/x $TREE|create refs/tags/y $TREE",
					"create refs/heads/x $C1|create refs/heads/x $C2", "create refs/heads/a..b $C1",
					"update refs/remotes/origin/HEAD $C1", "nd update refs/remotes/origin/HEAD $C1",
					"create refs/heads/z $C1|create refs/heads/y $C2|create refs/heads/a/b $C2|update refs/heads/main $C2 $C1")) {
				sessions.add(Arguments.of(format, session));
			}
		}
		return sessions.stream();
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("sessions")
	void batchHasTheEffectOfSingleUpdates(String format, String session) throws IOException {
		Path single = copy(BASES.get(format));
		Path batched = copy(BASES.get(format));
		Outcome single1 = run(single, session, false);
		Outcome batched1 = run(batched, session, true);
		assertThat(batched1).isEqualTo(single1);
		assertThat(state(batched)).isEqualTo(state(single));
		GitCli.Result verify = GIT.run(batched, "refs", "verify");
		assertThat(verify.exitCode()).as(verify.stderr()).isZero();
	}

	/**
	 * What a transaction reported: committed, and the first rejection (kind, message,
	 * ref).
	 */
	private record Outcome(boolean committed, String rejection) {
	}

	private static Outcome run(Path dir, String session, boolean batched) throws IOException {
		try (Repository repository = open(dir);
				RefStore store = RefStores.open(repository);
				RefTransaction transaction = store.newTransaction()) {
			transaction.message("batch  test\n");
			HashAlgorithm hash = store.hashAlgorithm();
			UpdateBatch batch = new UpdateBatch(hash);
			for (String line : session.split("\\|")) {
				RefUpdate update = parse(line, hash);
				if (batched) {
					batch.add(update);
				}
				else {
					transaction.add(update);
				}
			}
			if (batched) {
				transaction.addAll(batch);
			}
			TransactionResult result = transaction.commit();
			assertThat(result.results()).hasSize(session.split("\\|").length);
			return new Outcome(result.committed(),
					result.firstRejection()
						.map((r) -> r.rejection() + " " + r.update().name() + ": " + r.message())
						.orElse(null));
		}
	}

	private static RefUpdate parse(String line, HashAlgorithm hash) {
		boolean noDeref = line.startsWith("nd ");
		String[] f = (noDeref ? line.substring(3) : line).split(" ");
		RefUpdate update = switch (f[0]) {
			case "create" -> RefUpdate.create(f[1], id(f[2], hash));
			case "update" -> RefUpdate.update(f[1], id(f[2], hash), (f.length > 3) ? id(f[3], hash) : null);
			case "delete" -> RefUpdate.delete(f[1], (f.length > 2) ? id(f[2], hash) : null);
			default -> RefUpdate.verify(f[1], id(f[2], hash));
		};
		return noDeref ? update.withNoDeref() : update;
	}

	private static ObjectId id(String value, HashAlgorithm hash) {
		String hex = value.replace("$C1", c1)
			.replace("$C2", c2)
			.replace("$TREE", tree)
			.replace("$T", tag)
			.replace("$Z", "0".repeat(40))
			.replace("$MISSING", "1234567890".repeat(4));
		return ObjectId.fromHex(hash, hex);
	}

	/** Every ref (git's view) and every reflog (refstore's, entries in full). */
	private static String state(Path dir) throws IOException {
		StringBuilder state = new StringBuilder(
				GIT.ok(dir, "for-each-ref", "--format=%(refname) %(objectname) %(symref)"));
		state.append(GIT.ok(dir, "symbolic-ref", "HEAD"));
		try (Repository repository = open(dir); RefStore store = RefStores.open(repository)) {
			for (String name : store.reflogNames()) {
				for (ReflogEntry entry : store.reflog(name)) {
					state.append(name).append(' ').append(entry).append('\n');
				}
			}
		}
		return state.toString();
	}

	private static Repository open(Path dir) throws IOException {
		return Repository.open(dir,
				Map.of("GIT_CONFIG_NOSYSTEM", "1", "GIT_CONFIG_GLOBAL", "/dev/null", "GIT_COMMITTER_NAME", "C O Mitter",
						"GIT_COMMITTER_EMAIL", "committer@example.com", "GIT_COMMITTER_DATE", "@1700000000 +0000"));
	}

	private static Path copy(Path from) {
		return TestFiles.copyTree(from, temp.resolve("copy-" + (++copies)), false);
	}

}
