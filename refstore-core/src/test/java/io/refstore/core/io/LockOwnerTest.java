package io.refstore.core.io;

import static org.assertj.core.api.Assertions.assertThat;

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
		assertThat(this.gitDir.resolve(LockOwner.DIR)).isEmptyDirectory();
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
