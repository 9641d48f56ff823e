package io.refstore.core.files;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

import io.refstore.core.io.LockOwner;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.ReflogPolicy;

/**
 * What the files backend needs to know about its repository.
 *
 * @param gitDir the git directory of the worktree ({@code HEAD}, root refs and
 * per-worktree refs live here)
 * @param commonDir the common git directory ({@code refs/}, {@code packed-refs},
 * {@code logs/refs/}); equal to {@code gitDir} without linked worktrees
 * @param hash the object hash
 * @param reflogPolicy which refs get a reflog ({@code core.logAllRefUpdates})
 * @param looseLockTimeout how long to wait for a ref's lock
 * ({@code core.filesRefLockTimeout}, git's default 100 ms; {@code null} waits forever)
 * @param packedLockTimeout how long to wait for {@code packed-refs.lock}
 * ({@code core.packedRefsTimeout}, git's default 1 s)
 * @param fsync whether to flush ref files to disk before renaming them
 * ({@code core.fsync} covering references; off by default, as in git)
 * @param objects the object database, to check new values and peel tags
 * @param committer who reflog entries name, asked once per transaction
 * @param owner the run whose locks these are ({@link LockOwner}), or {@code null} for
 * locks as git takes them
 */
public record FilesOptions(Path gitDir, Path commonDir, HashAlgorithm hash, ReflogPolicy reflogPolicy,
		Duration looseLockTimeout, Duration packedLockTimeout, boolean fsync, ObjectDatabase objects,
		Supplier<PersonIdent> committer, LockOwner owner) {

	public FilesOptions {
		Objects.requireNonNull(gitDir, "gitDir");
		Objects.requireNonNull(commonDir, "commonDir");
		Objects.requireNonNull(hash, "hash");
		Objects.requireNonNull(reflogPolicy, "reflogPolicy");
		Objects.requireNonNull(objects, "objects");
		Objects.requireNonNull(committer, "committer");
	}

}
