package io.refstore.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The system calls this JVM makes while an action runs, as {@code strace} attached to it
 * sees them (every thread, file descriptors with their paths, strings whole): how a test
 * sees what is forced to the disk, and in which order, without a fault-injecting file
 * system.
 */
public final class SystemCalls {

	private SystemCalls() {
	}

	/** An action that may throw. */
	@FunctionalInterface
	public interface Action {

		void run() throws Exception;

	}

	/**
	 * Runs {@code action} with strace attached to this JVM.
	 * @param dir where strace's output goes (a directory of the test's own)
	 * @param calls the calls to trace, as strace's {@code -e trace=} takes them
	 * @return strace's lines, one per call
	 */
	public static List<String> traced(Path dir, String calls, Action action) throws Exception {
		Path trace = dir.resolve("strace.out");
		Path log = dir.resolve("strace.log");
		Process strace = new ProcessBuilder("strace", "-f", "-y", "-qq", "-s", "4096", "-e", "trace=fsync," + calls,
				"-o", trace.toString(), "-p", Long.toString(ProcessHandle.current().pid()))
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			// attached once it sees this thread force a file of its own
			Path marker = Files.writeString(dir.resolve("attached"), "").toRealPath();
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
			boolean attached = false;
			while (!attached && strace.isAlive() && System.nanoTime() < deadline) {
				force(marker);
				Thread.sleep(50);
				attached = Files.exists(trace) && Files.readString(trace).contains("<" + marker + ">");
			}
			assertThat(attached).as("strace attached: %s", Files.readString(log)).isTrue();
			action.run();
		}
		finally {
			strace.destroy();
			strace.waitFor(30, TimeUnit.SECONDS);
		}
		return Files.readAllLines(trace);
	}

	private static void force(Path file) throws IOException {
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
			channel.force(false);
		}
	}

}
