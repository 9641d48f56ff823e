package io.refstore.core.repo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The gate between processes: another JVM ({@link GateHolderMain}) swaps, or deletes or
 * restores in chunks, while this one writes, and the other way round; a killed swap or
 * run blocks no one.
 */
class StoreGateTest {

	private static final Duration SHORT = Duration.ofMillis(300);

	@TempDir
	Path dir;

	private Process other;

	private Writer toOther;

	private BufferedReader fromOther;

	@AfterEach
	void stopOther() {
		if (this.other != null) {
			this.other.destroyForcibly();
		}
	}

	@Test
	void aSwapInAnotherProcessHoldsWritersOffUntilItEnds() throws Exception {
		StoreGate gate = StoreGate.of(this.dir);
		start();
		assertThat(ask("swap 5000")).isEqualTo("closed");
		long opened = gate.generation();
		assertThatExceptionOfType(StoreBusyException.class).isThrownBy(() -> gate.enter(opened, SHORT));
		// a writer waiting when the swap ends goes in
		CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
			try (StoreGate.Pass pass = enter(gate, opened, Duration.ofSeconds(20))) {
				return true;
			}
		});
		assertThat(ask("open")).isEqualTo("done");
		assertThat(waiting.get(20, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aWriterOpenedBeforeAnotherProcessSwitchedIsRefused() throws Exception {
		StoreGate gate = StoreGate.of(this.dir);
		long before = gate.generation();
		start();
		assertThat(ask("swap 5000")).isEqualTo("closed");
		assertThat(ask("switch")).isEqualTo("done");
		assertThat(ask("open")).isEqualTo("done");
		assertThat(gate.generation()).isEqualTo(before + 1);
		assertThatExceptionOfType(StoreSwappedException.class).isThrownBy(() -> gate.enter(before, SHORT));
		try (StoreGate.Pass pass = gate.enter(before + 1, SHORT)) {
			assertThat(pass).isNotNull();
		}
	}

	@Test
	void aKilledSwapBlocksNoOne() throws Exception {
		StoreGate gate = StoreGate.of(this.dir);
		start();
		assertThat(ask("swap 5000")).isEqualTo("closed");
		assertThatExceptionOfType(StoreBusyException.class).isThrownBy(() -> gate.enter(gate.generation(), SHORT));
		this.other.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
		try (StoreGate.Pass pass = gate.enter(gate.generation(), SHORT)) {
			assertThat(pass).isNotNull();
		}
	}

	@Test
	void aSwapInAnotherProcessWaitsForThisOnesWritersAndTurnsNewOnesAway() throws Exception {
		StoreGate gate = StoreGate.of(this.dir);
		start();
		StoreGate.Pass inside = gate.enter(gate.generation(), SHORT);
		// a swap cannot close the gate while a writer of this process is inside
		assertThat(ask("swap 300")).isEqualTo("busy");
		// once one waits, a newcomer of this process, with the first still inside, waits
		// too
		this.toOther.write("swap 20000\n");
		this.toOther.flush();
		long opened = gate.generation();
		// (on another thread: this one's own writes nest in its pass); until the other
		// process has announced its swap, a newcomer may still enter, and any other
		// failure ends the wait and fails the test
		CompletableFuture<Void> newcomer = CompletableFuture.runAsync(() -> await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.pollInSameThread()
			.until(() -> {
				try (StoreGate.Pass pass = gate.enter(opened, SHORT)) {
					return false;
				}
				catch (StoreBusyException ex) {
					return true;
				}
			}));
		newcomer.get(20, TimeUnit.SECONDS);
		inside.close();
		assertThat(this.fromOther.readLine()).isEqualTo("closed");
	}

	@Test
	void aWriterInAnotherProcessHoldsThisProcesssSwapOff() throws Exception {
		StoreGate gate = StoreGate.of(this.dir);
		start();
		assertThat(ask("enter 1000")).isEqualTo("entered");
		assertThatExceptionOfType(StoreBusyException.class).isThrownBy(() -> gate.closeForSwap(SHORT));
		assertThat(ask("leave")).isEqualTo("done");
		try (StoreGate.Swap swap = gate.closeForSwap(SHORT)) {
			assertThat(ask("enter 300")).isEqualTo("busy");
			swap.switched();
		}
		assertThat(ask("enter 1000")).isEqualTo("entered");
	}

	@Test
	void aSwapsOwnThreadWritesThroughItsClosedGate() throws Exception {
		StoreGate gate = StoreGate.of(this.dir);
		try (StoreGate.Swap swap = gate.closeForSwap(SHORT)) {
			swap.switched();
			try (StoreGate.Pass pass = gate.enter(gate.generation(), SHORT)) {
				assertThat(pass).isNotNull();
			}
		}
	}

	@Test
	void aRunInAnotherProcessHoldsSwapsAndRunsOffButNotWriters() throws Exception {
		StoreGate gate = StoreGate.of(this.dir);
		start();
		assertThat(ask("run 1000")).isEqualTo("begun");
		assertThatExceptionOfType(StoreBusyException.class).isThrownBy(() -> gate.closeForSwap(SHORT));
		assertThatExceptionOfType(StoreBusyException.class).isThrownBy(() -> gate.beginRun(SHORT));
		// between its chunks, writers go in
		try (StoreGate.Pass pass = gate.enter(gate.generation(), SHORT)) {
			assertThat(pass).isNotNull();
		}
		assertThat(ask("end")).isEqualTo("done");
		try (StoreGate.Swap swap = gate.closeForSwap(SHORT)) {
			assertThat(ask("run 300")).isEqualTo("busy");
		}
		assertThat(ask("run 1000")).isEqualTo("begun");
	}

	@Test
	void aRunsChunkInAnotherProcessHoldsWritersOffUntilItEnds() throws Exception {
		StoreGate gate = StoreGate.of(this.dir);
		start();
		assertThat(ask("run 1000")).isEqualTo("begun");
		assertThat(ask("chunk 1000")).isEqualTo("closed");
		long opened = gate.generation();
		assertThatExceptionOfType(StoreBusyException.class).isThrownBy(() -> gate.enter(opened, SHORT));
		CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
			try (StoreGate.Pass pass = enter(gate, opened, Duration.ofSeconds(20))) {
				return true;
			}
		});
		assertThat(ask("unchunk")).isEqualTo("done");
		assertThat(waiting.get(20, TimeUnit.SECONDS)).isTrue();
		// a chunk waits for this process's writers inside
		try (StoreGate.Pass inside = gate.enter(opened, SHORT)) {
			assertThat(ask("chunk 300")).isEqualTo("busy");
		}
		assertThat(ask("chunk 1000")).isEqualTo("closed");
	}

	@Test
	void aKilledRunBlocksNoOne() throws Exception {
		StoreGate gate = StoreGate.of(this.dir);
		start();
		assertThat(ask("run 1000")).isEqualTo("begun");
		assertThat(ask("chunk 1000")).isEqualTo("closed");
		this.other.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
		try (StoreGate.Pass pass = gate.enter(gate.generation(), SHORT)) {
			assertThat(pass).isNotNull();
		}
		try (StoreGate.Swap swap = gate.closeForSwap(SHORT)) {
			assertThat(swap).isNotNull();
		}
	}

	@Test
	void aRunKeepsItsAnnouncementWhileThisProcesssWritersComeAndGo() throws Exception {
		StoreGate gate = StoreGate.of(this.dir);
		start();
		try (StoreGate.Run run = gate.beginRun(SHORT)) {
			// the last writer of this process leaving must not drop the run's lock with
			// the file
			gate.enter(gate.generation(), SHORT).close();
			try (StoreGate.Pass chunk = gate.closeForChunk(SHORT)) {
				try (StoreGate.Pass own = gate.enter(gate.generation(), SHORT)) {
					assertThat(ask("enter 300")).isEqualTo("busy");
				}
			}
			assertThat(ask("swap 300")).isEqualTo("busy");
			assertThat(ask("enter 1000")).isEqualTo("entered");
			assertThat(ask("leave")).isEqualTo("done");
		}
		assertThat(ask("swap 1000")).isEqualTo("closed");
	}

	private static StoreGate.Pass enter(StoreGate gate, long opened, Duration wait) {
		try {
			return gate.enter(opened, wait);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private String ask(String command) throws IOException {
		this.toOther.write(command + "\n");
		this.toOther.flush();
		String answer = this.fromOther.readLine();
		assertThat(answer).as("answer of the other process to " + command).isNotNull();
		return answer;
	}

	private void start() throws IOException, URISyntaxException {
		String classpath = Path.of(StoreGate.class.getProtectionDomain().getCodeSource().getLocation().toURI())
				+ java.io.File.pathSeparator
				+ Path.of(GateHolderMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		this.other = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-cp", classpath, GateHolderMain.class.getName(), this.dir.toString()))
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		this.toOther = new OutputStreamWriter(this.other.getOutputStream(), StandardCharsets.UTF_8);
		this.fromOther = new BufferedReader(new InputStreamReader(this.other.getInputStream(), StandardCharsets.UTF_8));
	}

}
