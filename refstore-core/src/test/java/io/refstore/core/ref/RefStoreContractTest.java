package io.refstore.core.ref;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The behaviour every {@link RefStore} backend shares, checked on repositories made by a
 * real git, with that git reading back what the store wrote. Subclasses pick the format
 * and the git that speaks it.
 */
public abstract class RefStoreContractTest {

	@TempDir
	protected Path tmp;

	protected TempRepo repo;

	protected Repository repository;

	protected RefStore store;

	protected List<String> commits;

	protected String tag;

	/** Makes an empty repository of the format under test in {@code dir}. */
	protected abstract TempRepo newRepo(Path dir);

	@BeforeEach
	void setUp() throws IOException {
		this.repo = newRepo(this.tmp.resolve("repo"));
		this.commits = this.repo.commits(8, "c");
		this.tag = this.repo.tagObject("v1", this.commits.get(0), "commit");
		reopen();
	}

	@AfterEach
	void tearDown() throws IOException {
		this.store.close();
		this.repository.close();
	}

	protected void reopen() throws IOException {
		if (this.store != null) {
			this.store.close();
			this.repository.close();
		}
		this.repository = Repository.open(this.repo.dir(), Map.of("GIT_COMMITTER_NAME", "C O Mitter",
				"GIT_COMMITTER_EMAIL", "committer@example.com", "GIT_COMMITTER_DATE", GitCli.FIXED_DATE));
		this.store = RefStores.open(this.repository);
	}

	protected ObjectId id(int commit) {
		return ObjectId.fromHex(this.store.hashAlgorithm(), this.commits.get(commit));
	}

	protected TransactionResult apply(RefUpdate... updates) throws IOException {
		try (RefTransaction transaction = this.store.newTransaction()) {
			for (RefUpdate update : updates) {
				transaction.add(update);
			}
			return transaction.commit();
		}
	}

	protected String showRef() {
		GitCli.Result result = this.repo.run(new byte[0], "show-ref", "-d", "--head");
		return result.stdout();
	}

	protected List<String> names(RefQuery query) throws IOException {
		List<String> names = new ArrayList<>();
		try (RefCursor cursor = this.store.refs(query)) {
			while (cursor.next()) {
				names.add(cursor.name());
			}
		}
		return names;
	}

	@Test
	void createdRefsReadBackAndGitSeesThem() throws IOException {
		TransactionResult result = apply(RefUpdate.create("refs/heads/topic", id(1)),
				RefUpdate.create("refs/tags/v1", ObjectId.fromHex(this.store.hashAlgorithm(), this.tag)));
		assertThat(result.committed()).isTrue();
		assertThat(this.store.exactRef("refs/heads/topic")).contains(new DirectRef("refs/heads/topic", id(1)));
		assertThat(this.repo.git("rev-parse", "refs/heads/topic").trim()).isEqualTo(this.commits.get(1));
		assertThat(this.repo.git("show-ref", "-d", "refs/tags/v1"))
			.isEqualTo(this.tag + " refs/tags/v1\n" + this.commits.get(0) + " refs/tags/v1^{}\n");
	}

	@Test
	void exactRefsAndWithReflogsReadWhatExactRefAndHasReflogReadOneByOne() throws IOException {
		apply(RefUpdate.create("refs/heads/topic", id(1)), RefUpdate.create("refs/heads/a/b", id(2)),
				RefUpdate.create("refs/tags/v1", ObjectId.fromHex(this.store.hashAlgorithm(), this.tag)));
		List<String> names = List.of("refs/heads/topic", "HEAD", "refs/heads/a/b", "refs/heads/a", "refs/heads/missing",
				"refs/tags/v1", "not a ref", "ORIG_HEAD");
		Map<String, Ref> expected = new HashMap<>();
		for (String name : names) {
			this.store.exactRef(name).ifPresent((ref) -> expected.put(name, ref));
		}
		assertThat(expected).containsOnlyKeys("refs/heads/topic", "HEAD", "refs/heads/a/b", "refs/tags/v1");
		assertThat(this.store.exactRefs(names)).isEqualTo(expected);
		assertThat(this.store.exactRefs(List.of())).isEmpty();
		java.util.Set<String> logged = new java.util.HashSet<>();
		for (String name : names) {
			if (!name.contains(" ") && this.store.hasReflog(name)) {
				logged.add(name);
			}
		}
		List<String> valid = names.stream().filter((name) -> !name.contains(" ")).toList();
		assertThat(this.store.withReflogs(valid)).isEqualTo(logged);
	}

	@Test
	void headIsASymbolicRefToAnUnbornBranch() throws IOException {
		assertThat(this.store.exactRef("HEAD")).contains(new SymbolicRef("HEAD", "refs/heads/main"));
		assertThat(this.store.resolve("HEAD")).isEmpty();
		apply(RefUpdate.update("HEAD", id(2), null));
		assertThat(this.store.resolve("HEAD")).contains(new DirectRef("refs/heads/main", id(2)));
		assertThat(this.repo.git("rev-parse", "refs/heads/main").trim()).isEqualTo(this.commits.get(2));
	}

	@Test
	void iteratesInBytewiseOrderWithPrefixAndStartAfter() throws IOException {
		String[] names = { "refs/heads/a/b", "refs/heads/a-b", "refs/heads/a.b", "refs/heads/a",
				"refs/heads/\u00e9t\u00e9", "refs/heads/\uD83D\uDE00", "refs/heads/\uE000", "refs/tags/t",
				"refs/pull/1/head" };
		// a and a/b cannot coexist: create a/b in a second repository state
		for (String name : names) {
			if (!name.equals("refs/heads/a/b")) {
				assertThat(apply(RefUpdate.create(name, id(3))).committed()).as(name).isTrue();
			}
		}
		assertThat(names(RefQuery.ALL)).containsExactly("refs/heads/a", "refs/heads/a-b", "refs/heads/a.b",
				"refs/heads/\u00e9t\u00e9", "refs/heads/\uE000", "refs/heads/\uD83D\uDE00", "refs/pull/1/head",
				"refs/tags/t");
		assertThat(names(RefQuery.prefix("refs/heads/a"))).containsExactly("refs/heads/a", "refs/heads/a-b",
				"refs/heads/a.b");
		assertThat(names(RefQuery.prefix("refs/heads/").after("refs/heads/a-b"))).containsExactly("refs/heads/a.b",
				"refs/heads/\u00e9t\u00e9", "refs/heads/\uE000", "refs/heads/\uD83D\uDE00");
		assertThat(names(RefQuery.ALL.after("refs/pull/1/head"))).containsExactly("refs/tags/t");
		String gitOrder = this.repo.git("for-each-ref", "--format=%(refname)");
		assertThat(String.join("\n", names(RefQuery.ALL)) + "\n").isEqualTo(gitOrder);
	}

	@Test
	void rootRefsComeOnlyWhenAsked() throws IOException {
		apply(RefUpdate.update("HEAD", id(1), null), RefUpdate.create("ORIG_HEAD", id(2)));
		assertThat(names(RefQuery.ALL)).containsExactly("refs/heads/main");
		assertThat(names(RefQuery.ALL.withRootRefs())).containsExactly("HEAD", "ORIG_HEAD", "refs/heads/main");
	}

	@Test
	void staleOldValueRejectsTheWholeTransaction() throws IOException {
		apply(RefUpdate.create("refs/heads/x", id(1)));
		String before = showRef();
		TransactionResult result = apply(RefUpdate.create("refs/heads/y", id(2)),
				RefUpdate.update("refs/heads/x", id(3), id(2)));
		assertThat(result.committed()).isFalse();
		assertThat(result.firstRejection().orElseThrow().rejection()).isEqualTo(Rejection.INCORRECT_OLD_VALUE);
		assertThat(result.firstRejection().orElseThrow().message()).contains("refs/heads/x");
		assertThat(showRef()).isEqualTo(before);
		assertThat(this.store.exactRef("refs/heads/y")).isEmpty();
	}

	@Test
	void rejectionsAreTyped() throws IOException {
		apply(RefUpdate.create("refs/heads/x", id(1)));
		ObjectId missing = ObjectId.fromHex(this.store.hashAlgorithm(),
				"1234567890123456789012345678901234567890123456789012345678901234".substring(0,
						this.store.hashAlgorithm().hexLength()));
		assertThat(rejection(RefUpdate.create("refs/heads/x", id(2)))).isEqualTo(Rejection.CREATE_EXISTS);
		assertThat(rejection(RefUpdate.delete("refs/heads/nope", id(2)))).isEqualTo(Rejection.NONEXISTENT_REF);
		assertThat(rejection(RefUpdate.create("refs/heads/x/y", id(2)))).isEqualTo(Rejection.NAME_CONFLICT);
		assertThat(rejection(RefUpdate.create("refs/heads/m", missing))).isEqualTo(Rejection.MISSING_OBJECT);
		assertThat(rejection(RefUpdate.create("refs/heads/bad..name", id(2)))).isEqualTo(Rejection.INVALID_NAME);
		assertThat(rejection(RefUpdate.create("refs/heads/q", id(2)), RefUpdate.create("refs/heads/q/r", id(2))))
			.isEqualTo(Rejection.NAME_CONFLICT);
		assertThat(rejection(RefUpdate.create("refs/heads/d", id(2)), RefUpdate.delete("refs/heads/d", null)))
			.isEqualTo(Rejection.DUPLICATE_UPDATE);
		assertThat(rejection(RefUpdate.verify("refs/heads/x", id(3)))).isEqualTo(Rejection.INCORRECT_OLD_VALUE);
		assertThat(names(RefQuery.ALL)).containsExactly("refs/heads/x");
	}

	private Rejection rejection(RefUpdate... updates) throws IOException {
		TransactionResult result = apply(updates);
		assertThat(result.committed()).isFalse();
		return result.firstRejection().orElseThrow().rejection();
	}

	@Test
	void deletingPackedRefsKeepsTheRestAndGitAgrees() throws IOException {
		for (int i = 0; i < 5; i++) {
			apply(RefUpdate.create("refs/heads/b" + i, id(i)));
		}
		this.store.packRefs(new RefStore.PackOptions(true, true));
		apply(RefUpdate.update("refs/heads/b1", id(7), id(1)));
		TransactionResult result = apply(RefUpdate.delete("refs/heads/b1", id(7)),
				RefUpdate.delete("refs/heads/b3", null));
		assertThat(result.committed()).isTrue();
		assertThat(names(RefQuery.ALL)).containsExactly("refs/heads/b0", "refs/heads/b2", "refs/heads/b4");
		assertThat(this.repo.git("for-each-ref", "--format=%(refname) %(objectname)"))
			.isEqualTo("refs/heads/b0 " + this.commits.get(0) + "\nrefs/heads/b2 " + this.commits.get(2)
					+ "\nrefs/heads/b4 " + this.commits.get(4) + "\n");
	}

	@Test
	void reflogRecordsUpdatesThroughHead() throws IOException {
		try (RefTransaction transaction = this.store.newTransaction()) {
			transaction.add(RefUpdate.update("HEAD", id(1), null)).message("first").commit();
		}
		try (RefTransaction transaction = this.store.newTransaction()) {
			transaction.add(RefUpdate.update("refs/heads/main", id(2), id(1))).message("second").commit();
		}
		List<ReflogEntry> head = this.store.reflog("HEAD");
		List<ReflogEntry> main = this.store.reflog("refs/heads/main");
		assertThat(head).extracting(ReflogEntry::message).containsExactly("first", "second");
		assertThat(main).isEqualTo(head);
		assertThat(main.get(1).oldId()).isEqualTo(id(1));
		assertThat(main.get(0).oldId().isZero()).isTrue();
		assertThat(main.get(0).who()).isEqualTo(new PersonIdent("C O Mitter", "committer@example.com", 1700000000L, 0));
		assertThat(this.repo.git("reflog", "show", "--format=%H %gs", "refs/heads/main"))
			.isEqualTo(this.commits.get(2) + " second\n" + this.commits.get(1) + " first\n");
	}

	@Test
	void appendedReflogsFollowEachLogInOrder() throws IOException {
		try (RefTransaction transaction = this.store.newTransaction()) {
			transaction.add(RefUpdate.update("HEAD", id(1), null)).message("first").commit();
		}
		// no log yet: the append makes it, and its directories
		this.repo.git("-c", "core.logAllRefUpdates=false", "update-ref", "refs/heads/deep/er/topic",
				this.commits.get(3));
		assertThat(this.store.hasReflog("refs/heads/deep/er/topic")).isFalse();
		PersonIdent who = new PersonIdent("A U Thor", "author@example.com", 1700000100L, 60);
		Map<String, List<ReflogEntry>> logs = new LinkedHashMap<>();
		logs.put("refs/heads/main", List.of(new ReflogEntry(id(1), id(2), who, "two"),
				new ReflogEntry(id(2), id(1), who, "back"), new ReflogEntry(id(1), id(2), who, "again")));
		logs.put("refs/heads/deep/er/topic", List.of(new ReflogEntry(id(0), id(3), who, "made")));
		logs.put("refs/heads/b0", List.of());
		this.store.appendReflogs(logs, true);
		assertThat(this.store.reflog("refs/heads/main")).extracting(ReflogEntry::message)
			.containsExactly("first", "two", "back", "again");
		assertThat(this.store.reflog("refs/heads/deep/er/topic"))
			.containsExactly(logs.get("refs/heads/deep/er/topic").get(0));
		assertThat(this.store.exactRef("refs/heads/main")).contains(new DirectRef("refs/heads/main", id(1)));
		assertThat(this.repo.git("reflog", "show", "--format=%H %gs", "refs/heads/main"))
			.isEqualTo(this.commits.get(2) + " again\n" + this.commits.get(1) + " back\n" + this.commits.get(2)
					+ " two\n" + this.commits.get(1) + " first\n");
		assertThat(this.repo.git("reflog", "show", "--format=%H %gn %gs", "refs/heads/deep/er/topic"))
			.isEqualTo(this.commits.get(3) + " A U Thor made\n");
	}

	@Test
	void everyReflogInOnePassIsWhatEachNameReadsAlone() throws IOException {
		try (RefTransaction transaction = this.store.newTransaction()) {
			transaction.add(RefUpdate.update("HEAD", id(1), null)).message("first").commit();
		}
		this.repo.git("update-ref", "-m", "made", "refs/heads/deep/er/topic", this.commits.get(3));
		this.repo.git("update-ref", "-m", "moved", "refs/heads/deep/er/topic", this.commits.get(2));
		this.repo.git("update-ref", "-m", "short-lived", "refs/heads/gone", this.commits.get(1));
		this.repo.git("update-ref", "-d", "refs/heads/gone");
		// a log without entries
		this.repo.git("update-ref", "-m", "expired", "refs/heads/emptied", this.commits.get(1));
		this.repo.git("reflog", "expire", "--expire=all", "refs/heads/emptied");
		Map<String, List<ReflogEntry>> alone = new LinkedHashMap<>();
		for (String name : this.store.reflogNames()) {
			alone.put(name, this.store.reflog(name));
		}
		Map<String, List<ReflogEntry>> inOnePass = new LinkedHashMap<>();

		this.store.forEachReflog(inOnePass::put);

		assertThat(inOnePass).containsExactlyEntriesOf(alone);
		assertThat(inOnePass.get("refs/heads/deep/er/topic")).extracting(ReflogEntry::message)
			.containsExactly("made", "moved");
		assertThat(inOnePass).containsKeys("HEAD", "refs/heads/main").doesNotContainKey("refs/heads/gone");
	}

	@Test
	void theLogsOfGivenNamesAreWhatEachNameReadsAloneInTheirOrder() throws IOException {
		this.repo.git("update-ref", "-m", "a", "refs/heads/a", this.commits.get(1));
		this.repo.git("update-ref", "-m", "b", "refs/heads/b", this.commits.get(2));
		this.repo.git("update-ref", "-m", "c", "refs/heads/c", this.commits.get(3));
		// a name left out, one without a log before the first, between and after the last
		List<String> names = List.of("refs/heads/0", "refs/heads/a", "refs/heads/bb", "refs/heads/c", "refs/heads/z");
		Map<String, List<ReflogEntry>> read = new LinkedHashMap<>();

		this.store.forEachReflog(names, read::put);

		assertThat(read.keySet()).containsExactlyElementsOf(names);
		for (String name : names) {
			assertThat(read.get(name)).as(name).isEqualTo(this.store.reflog(name));
		}
		assertThat(read.get("refs/heads/a")).extracting(ReflogEntry::message).containsExactly("a");
		assertThat(read.get("refs/heads/c")).extracting(ReflogEntry::message).containsExactly("c");
		assertThat(read.get("refs/heads/bb")).isEmpty();
	}

	@Test
	void packingKeepsEveryRefAndPeelsTags() throws IOException {
		ObjectId tagId = ObjectId.fromHex(this.store.hashAlgorithm(), this.tag);
		apply(RefUpdate.create("refs/heads/a", id(1)), RefUpdate.create("refs/tags/v1", tagId),
				RefUpdate.create("refs/custom/annotated", tagId),
				RefUpdate.symref("refs/remotes/o/HEAD", "refs/heads/a"));
		String before = showRef();
		this.store.packRefs(new RefStore.PackOptions(true, true));
		assertThat(showRef()).isEqualTo(before);
		assertThat(this.store.exactRef("refs/custom/annotated"))
			.contains(new DirectRef("refs/custom/annotated", tagId, id(0)));
		assertThat(this.store.exactRef("refs/remotes/o/HEAD"))
			.contains(new SymbolicRef("refs/remotes/o/HEAD", "refs/heads/a"));
	}

	@Test
	void aStoreThatServedManyLookupsSeesEachNextWriteOfGit() throws IOException {
		this.repo.git("update-ref", "refs/heads/x", this.commits.get(1));
		this.repo.git("pack-refs", "--all");
		ageDirectories();
		for (int i = 0; i < 10; i++) {
			assertThat(this.store.exactRef("refs/heads/x")).contains(new DirectRef("refs/heads/x", id(1)));
		}
		this.repo.git("update-ref", "refs/heads/x", this.commits.get(2));
		this.repo.git("pack-refs", "--all");
		assertThat(this.store.exactRef("refs/heads/x")).contains(new DirectRef("refs/heads/x", id(2)));
		ageDirectories();
		for (int i = 0; i < 10; i++) {
			assertThat(this.store.exactRef("refs/heads/x")).contains(new DirectRef("refs/heads/x", id(2)));
		}
		this.repo.git("update-ref", "-d", "refs/heads/x");
		assertThat(this.store.exactRef("refs/heads/x")).isEmpty();
	}

	/**
	 * Sets every directory of the git directory an hour back, as in a repository nobody
	 * wrote to lately: only then may a store trust that an unchanged directory means
	 * unchanged files (recent times are "racy").
	 */
	private void ageDirectories() throws IOException {
		java.nio.file.attribute.FileTime hourAgo = java.nio.file.attribute.FileTime
			.from(java.time.Instant.now().minusSeconds(3600));
		try (var paths = java.nio.file.Files.walk(this.repo.gitDir())) {
			for (Path path : (Iterable<Path>) paths::iterator) {
				if (java.nio.file.Files.isDirectory(path)) {
					java.nio.file.Files.setLastModifiedTime(path, hourAgo);
				}
			}
		}
	}

}
