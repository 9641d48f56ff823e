package io.refstore.core.ref;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.refstore.core.ref.WorktreeRef.Scope;

/** Names parsed as git's {@code parse_worktree_ref} parses them. */
class WorktreeRefTest {

	@Test
	void sharedAndCurrentWorktreeNames() {
		assertThat(WorktreeRef.parse("refs/heads/main"))
			.isEqualTo(new WorktreeRef(Scope.SHARED, null, "refs/heads/main"));
		assertThat(WorktreeRef.parse("HEAD")).isEqualTo(new WorktreeRef(Scope.CURRENT, null, "HEAD"));
		assertThat(WorktreeRef.parse("ORIG_HEAD").scope()).isEqualTo(Scope.CURRENT);
		assertThat(WorktreeRef.parse("refs/bisect/bad").scope()).isEqualTo(Scope.CURRENT);
		assertThat(WorktreeRef.parse("refs/worktree/x").scope()).isEqualTo(Scope.CURRENT);
		assertThat(WorktreeRef.parse("refs/rewritten/x").scope()).isEqualTo(Scope.CURRENT);
		// only the directories, not names that merely start alike
		assertThat(WorktreeRef.parse("refs/bisectx").scope()).isEqualTo(Scope.SHARED);
		assertThat(WorktreeRef.parse("refs/worktrees/x").scope()).isEqualTo(Scope.SHARED);
		assertThat(WorktreeRef.parse("foo/bar").scope()).isEqualTo(Scope.SHARED);
	}

	@Test
	void otherWorktreesOwnRefsByPrefix() {
		assertThat(WorktreeRef.parse("worktrees/wt1/refs/bisect/good"))
			.isEqualTo(new WorktreeRef(Scope.OTHER, "wt1", "refs/bisect/good"));
		assertThat(WorktreeRef.parse("worktrees/wt1/HEAD")).isEqualTo(new WorktreeRef(Scope.OTHER, "wt1", "HEAD"));
		assertThat(WorktreeRef.parse("main-worktree/HEAD")).isEqualTo(new WorktreeRef(Scope.MAIN, null, "HEAD"));
		assertThat(WorktreeRef.parse("main-worktree/refs/worktree/x"))
			.isEqualTo(new WorktreeRef(Scope.MAIN, null, "refs/worktree/x"));
	}

	@Test
	void prefixesBeforeSharedNamesAreNamesOfTheirOwn() {
		assertThat(WorktreeRef.parse("worktrees/wt1/refs/heads/x"))
			.isEqualTo(new WorktreeRef(Scope.SHARED, null, "worktrees/wt1/refs/heads/x"));
		assertThat(WorktreeRef.parse("main-worktree/refs/heads/x"))
			.isEqualTo(new WorktreeRef(Scope.SHARED, null, "main-worktree/refs/heads/x"));
		assertThat(WorktreeRef.parse("worktrees/wt1").scope()).isEqualTo(Scope.SHARED);
	}

	@Test
	void bytesAgreeWithStrings() {
		for (String name : new String[] { "HEAD", "AUTO_MERGE", "refs/bisect/a", "refs/worktree/b", "refs/rewritten/c",
				"refs/heads/d", "refs/bisectx", "head", "", "A-B_C", "refs/" }) {
			byte[] bytes = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
			assertThat(WorktreeRef.isPerWorktree(bytes, bytes.length)).as(name)
				.isEqualTo(WorktreeRef.isPerWorktree(name));
		}
	}

}
