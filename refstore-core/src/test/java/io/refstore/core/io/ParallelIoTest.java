package io.refstore.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParallelIoTest {

	@TempDir
	Path tmp;

	@Test
	void manyItemsGetTheirOwnOutcomeInOrderOnEveryProcessor() throws IOException {
		List<Integer> items = IntStream.range(0, 1000).boxed().toList();
		for (int i : items) {
			if (i % 7 != 3) {
				Files.writeString(this.tmp.resolve("f" + i), "content " + i);
			}
		}
		Set<Thread> threads = ConcurrentHashMap.newKeySet();
		List<ParallelIo.Outcome<String>> outcomes = ParallelIo.map(items, (i) -> {
			threads.add(Thread.currentThread());
			return Files.readString(this.tmp.resolve("f" + i));
		});
		assertThat(outcomes).hasSize(1000);
		for (int i : items) {
			if (i % 7 == 3) {
				assertThat(outcomes.get(i).failure()).isInstanceOf(NoSuchFileException.class)
					.hasMessageContaining("f" + i);
				int item = i;
				assertThatThrownBy(() -> outcomes.get(item).get()).isSameAs(outcomes.get(i).failure());
			}
			else {
				assertThat(outcomes.get(i).failure()).isNull();
				assertThat(outcomes.get(i).get()).isEqualTo("content " + i);
			}
		}
		assertThat(threads).contains(Thread.currentThread());
		int processors = Runtime.getRuntime().availableProcessors();
		assertThat(threads).hasSizeBetween(Math.min(2, processors), Math.min(4, processors));
	}

	@Test
	void fewItemsStayOnTheCallingThread() throws IOException {
		Set<Thread> threads = ConcurrentHashMap.newKeySet();
		List<ParallelIo.Outcome<Integer>> outcomes = ParallelIo.map(List.of(1, 2, 3), (i) -> {
			threads.add(Thread.currentThread());
			return i * 10;
		});
		assertThat(threads).containsExactly(Thread.currentThread());
		assertThat(outcomes.get(2).get()).isEqualTo(30);
	}

	@Test
	void bothRunToTheEndAndTheFirstTasksFailureWins() {
		AtomicBoolean secondRan = new AtomicBoolean();
		IOException first = new IOException("first");
		assertThatThrownBy(() -> ParallelIo.both(() -> {
			throw first;
		}, () -> {
			secondRan.set(true);
			throw new IOException("second");
		})).isSameAs(first);
		if (Runtime.getRuntime().availableProcessors() > 1) {
			assertThat(secondRan).isTrue();
		}
		assertThatThrownBy(() -> ParallelIo.both(() -> {
		}, () -> {
			throw new IllegalStateException("second");
		})).isInstanceOf(IllegalStateException.class).hasMessage("second");
	}

	@Test
	void bothReturnsWhenBothTasksHaveEnded() throws IOException {
		AtomicBoolean firstDone = new AtomicBoolean();
		AtomicBoolean secondDone = new AtomicBoolean();
		ParallelIo.both(() -> {
			sleep(50);
			firstDone.set(true);
		}, () -> secondDone.set(true));
		assertThat(firstDone).isTrue();
		assertThat(secondDone).isTrue();
	}

	@Test
	void waitingForWorkUnderWayOutlastsAnInterruptAndPassesItOn() throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		FutureTask<String> work = new FutureTask<>(() -> {
			started.countDown();
			Thread.sleep(200);
			return "done";
		});
		new Thread(work).start();
		started.await();
		Thread.currentThread().interrupt();
		try {
			assertThat(ParallelIo.getUninterruptibly(work)).isEqualTo("done");
		}
		finally {
			// clears the flag for the next test, and tells whether it was passed on
			assertThat(Thread.interrupted()).isTrue();
		}
	}

	private static void sleep(long millis) throws IOException {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new java.io.InterruptedIOException();
		}
	}

}
