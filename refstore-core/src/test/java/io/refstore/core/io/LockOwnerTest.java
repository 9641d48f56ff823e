package io.refstore.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LockOwner} and the locks taken for it, on the real file system: each lock is a
 * link to the owner's record, content goes through a staged file, and only the locks of
 * owners that are gone are ever removed.
 */
class LockOwnerTest {

	@TempDir
	Path gitDir;

	@Test
	void anOwnedLockIsALinkToTheRecordAndItsContentReplacesTheTarget() throws IOException {
		Path ref = Files.createDirectories(this.gitDir.resolve("refs/heads")).resolve("main");
		Files.writeString(ref, "old\n");
		try (LockOwner owner = LockOwner.claim(this.gitDir, "delete-refs", null)) {
			Path record = onlyRecord();
			byte[] text = Files.readAllBytes(record);
			LockFile lock = LockFile.acquire(ref, Duration.ZERO, owner);
			assertThat(key(lock.lockPath())).isEqualTo(key(record));
			lock.write("new\n".getBytes(StandardCharsets.UTF_8), true);
			assertThat(Files.readAllBytes(record)).as("the record is never written through the lock").isEqualTo(text);
			assertThat(Files.readString(ref)).as("unchanged until the commit").isEqualTo("old\n");
			lock.commit();
			assertThat(Files.readString(ref)).isEqualTo("new\n");
			assertThat(lock.lockPath()).doesNotExist();
			LockFile other = LockFile.acquire(ref, Duration.ZERO, owner);
			other.write("discarded\n".getBytes(StandardCharsets.UTF_8), false);
			other.rollback();
			assertThat(other.lockPath()).doesNotExist();
			assertThat(Files.readString(ref)).isEqualTo("new\n");
		}
		assertThat(this.gitDir.resolve(LockOwner.DIR)).isEmptyDirectory();
	}

	@Test
	void theLocksOfAnOwnerThatStillRunsStay() throws IOException {
		Path packed = this.gitDir.resolve("packed-refs");
		try (LockOwner owner = LockOwner.claim(this.gitDir, "delete-refs", null)) {
			LockFile lock = LockFile.acquire(packed, Duration.ZERO, owner);
			LockOwner.Released released = LockOwner.releaseAbandoned(this.gitDir, null);
			assertThat(released.locks()).isZero();
			assertThat(released.running()).hasSize(1);
			assertThat(lock.lockPath()).exists();
			lock.rollback();
		}
	}

	@Test
	void theLocksOfADeadProcessGoAndNoOneElsesDo() throws Exception {
		Process exited = new ProcessBuilder("true").start();
		exited.waitFor();
		String started = exited.info().startInstant().map(Object::toString).orElse("unknown");
		Path record = record("refstore delete-refs\npid " + exited.pid() + "\nstarted " + started + "\nhost "
				+ ProcessOwner.THIS_HOST + "\n");
		Path looseLock = Files.createDirectories(this.gitDir.resolve("refs/heads/a")).resolve("b.lock");
		Files.createLink(looseLock, record);
		Files.createLink(this.gitDir.resolve("packed-refs.lock"), record);
		Files.writeString(this.gitDir.resolve("packed-refs.new"), "written under the dead owner's lock\n");
		Path gitsLock = Files.createDirectories(this.gitDir.resolve("refs/tags")).resolve("v1.lock");
		Files.writeString(gitsLock, Files.readString(record));
		Path reftableLock = Files.createDirectories(this.gitDir.resolve("reftable")).resolve("tables.list.lock");
		Files.writeString(reftableLock, "a git of another run\n");

		LockOwner.Released released = LockOwner.releaseAbandoned(this.gitDir, null);

		assertThat(released.locks()).isEqualTo(2);
		assertThat(released.running()).isEmpty();
		assertThat(looseLock).doesNotExist();
		assertThat(this.gitDir.resolve("packed-refs.lock")).doesNotExist();
		assertThat(this.gitDir.resolve("packed-refs.new")).doesNotExist();
		assertThat(gitsLock).as("the same text in a lock of its own is not the owner's").exists();
		assertThat(reftableLock).exists();
		assertThat(this.gitDir.resolve(LockOwner.DIR)).as("only the break lock's file stays")
			.isDirectoryContaining("glob:**/.break")
			.isDirectoryNotContaining((path) -> !path.getFileName().toString().equals(".break"));
	}

	/**
	 * A claim killed between writing its record and publishing it leaves {@code <id>.tmp}
	 * (DeleteRefsKillIT found one): a whole one goes when its process is gone, one that
	 * names a running process stays, and one cut short goes only once older than a claim
	 * takes.
	 */
	@Test
	void aRecordItsOwnerNeverPublishedGoesWhenItsOwnerIsGone() throws Exception {
		Path dir = Files.createDirectories(this.gitDir.resolve(LockOwner.DIR));
		Process exited = new ProcessBuilder("true").start();
		exited.waitFor();
		Path deadTmp = dir.resolve("dead.tmp");
		Files.writeString(deadTmp,
				"refstore delete-refs\npid " + exited.pid() + "\nstarted "
						+ exited.info().startInstant().map(Object::toString).orElse("unknown") + "\nhost "
						+ ProcessOwner.THIS_HOST + "\nid dead\n");
		Process running = new ProcessBuilder("sleep", "30").start();
		try {
			Path liveTmp = dir.resolve("live.tmp");
			Files.writeString(liveTmp,
					"refstore delete-refs\npid " + running.pid() + "\nstarted "
							+ running.info().startInstant().map(Object::toString).orElse("unknown") + "\nhost "
							+ ProcessOwner.THIS_HOST + "\nid live\n");
			Path ownTmp = dir.resolve("own.tmp");
			Files.writeString(ownTmp, ProcessOwner.describeThisProcess("delete-refs", null) + "id own\n");
			Path freshEmpty = Files.createFile(dir.resolve("fresh.tmp"));
			Path oldEmpty = Files.createFile(dir.resolve("old.tmp"));
			Files.setLastModifiedTime(oldEmpty, FileTime.from(Instant.now().minusSeconds(60)));

			LockOwner.releaseAbandoned(this.gitDir, null);

			assertThat(deadTmp).doesNotExist();
			assertThat(oldEmpty).doesNotExist();
			assertThat(liveTmp).as("a running process's record being published").exists();
			assertThat(freshEmpty).as("a record a claim may be writing now").exists();
			assertThat(ownTmp).as("this process's claim, being published on another thread").exists();
		}
		finally {
			running.destroyForcibly().waitFor();
		}
	}

	@Test
	void aJobOnAnotherHostIsGoneOnlyWhenTheCallerKnowsItsExecutionIsDead() throws IOException {
		Path record = record(
				"refstore deleteRefsJob\npid 1\nstarted unknown\nhost elsewhere\njob deleteRefsJob instance 7\n");
		Path lock = this.gitDir.resolve("packed-refs.lock");
		Files.createLink(lock, record);

		assertThat(LockOwner.releaseAbandoned(this.gitDir, null).locks()).isZero();
		assertThat(LockOwner.releaseAbandoned(this.gitDir, "deleteRefsJob instance 6").locks()).isZero();
		assertThat(lock).exists();

		assertThat(LockOwner.releaseAbandoned(this.gitDir, "deleteRefsJob instance 7").locks()).isOne();
		assertThat(lock).doesNotExist();
	}

	@Test
	void aProcessOwnerWritesNothingUntilItsFirstLockAndRemovesItsRecordWhenClosed() throws IOException {
		Path ref = Files.createDirectories(this.gitDir.resolve("refs/heads")).resolve("main");
		LockOwner owner = LockOwner.forProcess(this.gitDir, "update-ref");
		assertThat(this.gitDir.resolve(LockOwner.DIR)).as("a reader writes nothing").doesNotExist();
		LockFile lock = LockFile.acquire(ref, Duration.ZERO, owner);
		assertThat(key(lock.lockPath())).isEqualTo(key(onlyRecord()));
		assertThat(Files.readString(onlyRecord())).startsWith("refstore update-ref\n").endsWith("\n");
		lock.write("new\n".getBytes(StandardCharsets.UTF_8), false);
		lock.commit();
		owner.close();
		assertThat(this.gitDir.resolve(LockOwner.DIR)).isEmptyDirectory();
		assertThat(Files.readString(ref)).isEqualTo("new\n");
	}

	/**
	 * An application's owner lives as long as the application: its records removed by
	 * hand meanwhile, it publishes them again at the next lock instead of failing every
	 * write.
	 */
	@Test
	void aProcessOwnerWhoseRecordWasRemovedByHandPublishesItAgain() throws IOException {
		Path ref = Files.createDirectories(this.gitDir.resolve("refs/heads")).resolve("main");
		try (LockOwner owner = LockOwner.forProcess(this.gitDir, "refstore-web")) {
			LockFile.acquire(ref, Duration.ZERO, owner).rollback();
			FileMoves.deleteTree(this.gitDir.resolve(LockOwner.DIR));
			LockFile lock = LockFile.acquire(ref, Duration.ZERO, owner);
			assertThat(key(lock.lockPath())).isEqualTo(key(onlyRecord()));
			lock.write("again\n".getBytes(StandardCharsets.UTF_8), false);
			lock.commit();
		}
		assertThat(Files.readString(ref)).isEqualTo("again\n");
		assertThat(this.gitDir.resolve(LockOwner.DIR)).isEmptyDirectory();
	}

	/**
	 * A taker for an owner removes a lock in its way that a gone owner left (a link to
	 * its record), and only such a one: git's lock (one link) and a running owner's stay,
	 * and the taker fails on them as git would.
	 */
	@Test
	void aTakerRemovesOnlyTheLockOfAGoneOwner() throws Exception {
		Path heads = Files.createDirectories(this.gitDir.resolve("refs/heads"));
		Process running = new ProcessBuilder("sleep", "30").start();
		try (LockOwner owner = LockOwner.forProcess(this.gitDir, "update-ref")) {
			// published by a first lock: the owner meets what follows as a writer does
			LockFile.acquire(heads.resolve("first"), Duration.ZERO, owner).rollback();
			Path deadRecord = record(exitedOwner());
			Object deadKey = key(deadRecord);
			Files.createLink(heads.resolve("dead.lock"), deadRecord);
			Files.writeString(heads.resolve("gits.lock"), Files.readString(deadRecord));
			Path liveRecord = record("refstore update-ref\npid " + running.pid() + "\nstarted "
					+ running.info().startInstant().map(Object::toString).orElse("unknown") + "\nhost "
					+ ProcessOwner.THIS_HOST + "\n");
			Files.createLink(heads.resolve("live.lock"), liveRecord);

			LockFile taken = LockFile.acquire(heads.resolve("dead"), Duration.ZERO, owner);

			assertThat(key(taken.lockPath())).as("now the taker's").isNotEqualTo(deadKey);
			taken.rollback();
			assertThat(deadRecord).as("the gone owner's record, with no lock left").doesNotExist();
			assertThatThrownBy(() -> LockFile.acquire(heads.resolve("gits"), Duration.ZERO, owner))
				.isInstanceOf(LockFailedException.class);
			assertThatThrownBy(() -> LockFile.acquire(heads.resolve("live"), Duration.ZERO, owner))
				.isInstanceOf(LockFailedException.class);
			assertThat(heads.resolve("gits.lock")).exists();
			assertThat(heads.resolve("live.lock")).exists();
			assertThat(liveRecord).exists();
		}
		finally {
			running.destroyForcibly().waitFor();
		}
	}

	/**
	 * What a power cut leaves: a record of an earlier boot, a record cut short (its
	 * content never reached the disk), a record whose publishing rename was lost
	 * ({@code <id>.tmp} with locks linked): each one's locks go.
	 */
	@Test
	void theLocksOfRecordsAPowerCutLeftGo() throws Exception {
		Path heads = Files.createDirectories(this.gitDir.resolve("refs/heads"));
		// a live process's pid, start and ticks: only the boot tells it is another
		ProcessHandle parent = ProcessHandle.current().parent().orElseThrow();
		Path earlierBoot = record("refstore update-ref\npid " + parent.pid() + "\nstarted "
				+ parent.info().startInstant().map(Object::toString).orElse("unknown") + "\nticks "
				+ ProcessOwner.startTicks(parent.pid()).orElseThrow()
				+ "\nboot 00000000-0000-0000-0000-000000000000\nhost " + ProcessOwner.THIS_HOST + "\n");
		Path dir = earlierBoot.getParent();
		Path empty = Files.createFile(dir.resolve(UUID.randomUUID().toString()));
		Path unpublished = Files.writeString(dir.resolve(UUID.randomUUID() + ".tmp"),
				ProcessOwner.describeThisProcess("update-ref", null) + "id x\n");
		Files.createLink(heads.resolve("a.lock"), earlierBoot);
		Files.createLink(heads.resolve("b.lock"), empty);
		Files.createLink(this.gitDir.resolve("packed-refs.lock"), unpublished);

		assertThat(LockOwner.releaseAbandoned(this.gitDir, null).locks()).isEqualTo(3);

		assertThat(heads.resolve("a.lock")).doesNotExist();
		assertThat(heads.resolve("b.lock")).doesNotExist();
		assertThat(this.gitDir.resolve("packed-refs.lock")).doesNotExist();
		assertThat(dir).isDirectoryNotContaining((path) -> !path.getFileName().toString().equals(".break"));
	}

	@Test
	void theLocksAGoneOwnerLeftInALinkedWorktreeGo() throws Exception {
		Path record = record(exitedOwner());
		Path worktree = Files.createDirectories(this.gitDir.resolve("worktrees/wt"));
		Path head = Files.createLink(worktree.resolve("HEAD.lock"), record);
		Path bisect = Files.createLink(Files.createDirectories(worktree.resolve("refs/bisect")).resolve("bad.lock"),
				record);
		Path stack = Files.createLink(Files.createDirectories(worktree.resolve("reftable")).resolve("tables.list.lock"),
				record);
		Path gits = Files.createFile(worktree.resolve("ORIG_HEAD.lock"));

		assertThat(LockOwner.releaseAbandoned(this.gitDir, null).locks()).isEqualTo(3);

		assertThat(head).doesNotExist();
		assertThat(bisect).doesNotExist();
		assertThat(stack).doesNotExist();
		assertThat(gits).exists();
	}

	private static String exitedOwner() throws Exception {
		Process exited = new ProcessBuilder("true").start();
		exited.waitFor();
		return "refstore update-ref\npid " + exited.pid() + "\nstarted "
				+ exited.info().startInstant().map(Object::toString).orElse("unknown") + "\nhost "
				+ ProcessOwner.THIS_HOST + "\n";
	}

	private Path record(String text) throws IOException {
		Path dir = Files.createDirectories(this.gitDir.resolve(LockOwner.DIR));
		return Files.writeString(dir.resolve(UUID.randomUUID().toString()), text + "id x\n");
	}

	private Path onlyRecord() throws IOException {
		try (Stream<Path> records = Files.list(this.gitDir.resolve(LockOwner.DIR))) {
			return records.filter(Files::isRegularFile).findFirst().orElseThrow();
		}
	}

	private static Object key(Path file) throws IOException {
		return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
	}

}
