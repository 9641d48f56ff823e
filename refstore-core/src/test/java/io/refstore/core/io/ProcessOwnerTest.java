package io.refstore.core.io;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link ProcessOwner#isGone} tells a live owner from a dead one by the process's start
 * in clock ticks since boot, which no clock step moves: a step (a virtual machine resumed
 * or forked) once made a live migration's owner look dead to a JVM that read the boot
 * time after it, whose start instant for the same process then differed.
 */
class ProcessOwnerTest {

	@Test
	void aLiveOwnerStaysLiveWhateverStartInstantItsFileRecords() throws Exception {
		Process running = new ProcessBuilder("sleep", "30").start();
		try {
			long ticks = Long.parseLong(ProcessOwner.startTicks(running.pid()).orElseThrow());
			ProcessOwner stepped = owner(running.pid(), "2001-01-01T00:00:00Z", ticks);
			assertThat(stepped.isGone(null)).as("the owner, its start instant read before a clock step").isFalse();
			ProcessOwner reused = owner(running.pid(), "2001-01-01T00:00:00Z", ticks + 1);
			assertThat(reused.isGone(null)).as("another process that got the owner's pid").isTrue();
			ProcessOwner older = ProcessOwner.parse("refstore refs migrate\npid " + running.pid()
					+ "\nstarted 2001-01-01T00:00:00Z\nhost " + ProcessOwner.THIS_HOST + "\n");
			assertThat(older.ticks()).isNull();
			assertThat(older.isGone(null)).as("a file without ticks: judged by its start instant, as before").isTrue();
			String live = running.info().startInstant().orElseThrow().toString();
			assertThat(ProcessOwner
				.parse("refstore refs migrate\npid " + running.pid() + "\nstarted " + live + "\nhost "
						+ ProcessOwner.THIS_HOST + "\n")
				.isGone(null)).isFalse();
		}
		finally {
			running.destroyForcibly().waitFor();
		}
	}

	@Test
	void thisProcessRecordsItsTicksAndAnExitedOwnerIsGone() throws Exception {
		assertThat(ProcessOwner.parse(ProcessOwner.describeThisProcess("refs migrate", null)).ticks())
			.isEqualTo(ProcessOwner.startTicks(ProcessHandle.current().pid()).orElseThrow());
		Process exited = new ProcessBuilder("true").start();
		long ticks = Long.parseLong(ProcessOwner.startTicks(exited.pid()).orElse("0"));
		exited.waitFor();
		assertThat(owner(exited.pid(), "2001-01-01T00:00:00Z", ticks).isGone(null)).isTrue();
	}

	private static ProcessOwner owner(long pid, String started, long ticks) {
		return ProcessOwner.parse("refstore refs migrate\npid " + pid + "\nstarted " + started + "\nticks " + ticks
				+ "\nhost " + ProcessOwner.THIS_HOST + "\n");
	}

}
