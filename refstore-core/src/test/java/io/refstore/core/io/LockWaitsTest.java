package io.refstore.core.io;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.repo.StoreBusyException;
import io.refstore.core.repo.StoreGate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Every wait for a lock file or the store gate is heard, with how long it took and
 * whether the lock was had: at once, after the holder let go, or not at all.
 */
class LockWaitsTest {

	private final List<Heard> heard = new CopyOnWriteArrayList<>();

	private final LockWaits.Listener listener = (kind, nanos, had) -> this.heard
		.add(new Heard(kind, Duration.ofNanos(nanos), had));

	@TempDir
	Path dir;

	@AfterEach
	void stopListening() {
		LockWaits.stopListening(this.listener);
	}

	private void listen() {
		LockWaits.listen(this.listener);
	}

	@Test
	void aLockFileWaitIsHeardWithItsLengthAndOutcome() throws Exception {
		Path target = this.dir.resolve("HEAD");
		listen();
		LockFile held = LockFile.acquire(target, Duration.ZERO);
		assertThat(this.heard).singleElement().satisfies((wait) -> {
			assertThat(wait.kind()).isEqualTo(LockWaits.Kind.LOCK_FILE);
			assertThat(wait.had()).isTrue();
		});
		assertThatExceptionOfType(LockFailedException.class)
			.isThrownBy(() -> LockFile.acquire(target, Duration.ofMillis(200)));
		assertThat(this.heard.get(1).had()).isFalse();
		assertThat(this.heard.get(1).waited()).isGreaterThanOrEqualTo(Duration.ofMillis(200));
		CompletableFuture<LockFile> waiting = CompletableFuture.supplyAsync(() -> {
			try {
				return LockFile.acquire(target, Duration.ofSeconds(20));
			}
			catch (java.io.IOException ex) {
				throw new IllegalStateException(ex);
			}
		});
		await("the second taker to wait").during(Duration.ofMillis(300))
			.atMost(Duration.ofSeconds(5))
			.until(() -> !waiting.isDone());
		held.close();
		waiting.get(20, TimeUnit.SECONDS).close();
		assertThat(this.heard).hasSize(3);
		assertThat(this.heard.get(2).had()).isTrue();
		assertThat(this.heard.get(2).waited()).isGreaterThanOrEqualTo(Duration.ofMillis(250));
	}

	@Test
	void storeGateWaitsAreHeardByKind() throws Exception {
		StoreGate gate = StoreGate.of(this.dir);
		listen();
		try (StoreGate.Run run = gate.beginRun(Duration.ZERO)) {
			assertThatExceptionOfType(StoreBusyException.class)
				.isThrownBy(() -> gate.closeForSwap(Duration.ofMillis(100)));
		}
		try (StoreGate.Pass pass = gate.enter(gate.generation(), Duration.ZERO)) {
			assertThat(pass).isNotNull();
		}
		assertThat(this.heard).extracting(Heard::kind)
			.containsExactly(LockWaits.Kind.GATE_RUN, LockWaits.Kind.GATE_SWAP, LockWaits.Kind.GATE_WRITER);
		assertThat(this.heard).extracting(Heard::had).containsExactly(true, false, true);
	}

	@Test
	void everyListenerHearsUntilItStops() throws Exception {
		List<LockWaits.Kind> other = new CopyOnWriteArrayList<>();
		LockWaits.Listener second = (kind, nanos, had) -> other.add(kind);
		listen();
		LockWaits.listen(second);
		try {
			LockFile.acquire(this.dir.resolve("packed-refs"), Duration.ZERO).close();
		}
		finally {
			LockWaits.stopListening(second);
		}
		LockWaits.stopListening(this.listener);
		LockFile.acquire(this.dir.resolve("HEAD"), Duration.ZERO).close();
		assertThat(other).containsExactly(LockWaits.Kind.LOCK_FILE);
		assertThat(this.heard).as("heard until it stopped")
			.singleElement()
			.extracting(Heard::kind)
			.isEqualTo(LockWaits.Kind.LOCK_FILE);
	}

	private record Heard(LockWaits.Kind kind, Duration waited, boolean had) {

	}

}
