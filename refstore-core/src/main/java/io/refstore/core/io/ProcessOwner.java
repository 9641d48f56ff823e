package io.refstore.core.io;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Who runs a migration, a rollback or a bulk write, as its owner file says: the process
 * (pid and start time), the host, and for a batch job the job instance that owns it
 * across processes. Every lock such a run takes is a link to that file, so the same text
 * tells a dead owner's locks from anyone else's.
 *
 * @param text the owner file's text
 * @param pid the owner's process id, or -1 if the text names none
 * @param started the process's start time as the text records it
 * @param host the host the process ran on, or {@code null} if the text is older than
 * hosts were recorded
 * @param job the job instance that owns the migration, or {@code null} for a command
 * @param ticks the process's start in clock ticks since boot (Linux), or {@code null} if
 * the text does not record it
 * @param boot the boot the process ran in (Linux's boot id), or {@code null} if the text
 * does not record it
 */
public record ProcessOwner(String text, long pid, String started, String host, String job, String ticks, String boot) {

	private static final String HOST = "host ";

	private static final String TICKS = "ticks ";

	private static final String JOB = "job ";

	private static final String BOOT = "boot ";

	/**
	 * This machine's boot, as Linux names it ({@code /proc/sys/kernel/random/boot_id}:
	 * new at every boot), or {@code null} where there is none.
	 */
	static final String THIS_BOOT = thisBoot();

	/** This host's name, as owner files record it. */
	public static final String THIS_HOST = thisHost();

	private static String thisHost() {
		// the kernel's name for the host (what InetAddress would start from), read
		// without
		// the resolver, which a short command would wait for at its first lock
		try {
			String name = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.US_ASCII).strip();
			if (!name.isEmpty()) {
				return name;
			}
		}
		catch (IOException | RuntimeException ex) {
			// not Linux: ask the resolver
		}
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			return "unknown";
		}
	}

	private static String thisBoot() {
		try {
			return Files.readString(Path.of("/proc/sys/kernel/random/boot_id"), StandardCharsets.US_ASCII).strip();
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * The owner text for this process running {@code command}, and {@code job} if a job
	 * owns the run.
	 */
	public static String describeThisProcess(String command, String job) {
		ProcessHandle self = ProcessHandle.current();
		return "refstore " + command + "\npid " + self.pid() + "\nstarted "
				+ self.info().startInstant().map(Object::toString).orElse("unknown") + "\n"
				+ startTicks(self.pid()).map((ticks) -> TICKS + ticks + "\n").orElse("")
				+ ((THIS_BOOT != null) ? BOOT + THIS_BOOT + "\n" : "") + HOST + THIS_HOST + "\n"
				+ ((job != null) ? JOB + job + "\n" : "");
	}

	/**
	 * When process {@code pid} started, in clock ticks since boot (field 22 of
	 * {@code /proc/<pid>/stat}); empty where there is no such file. Unlike
	 * {@link ProcessHandle.Info#startInstant()}, which each JVM derives from the boot
	 * time it read when it started, no step of the clock (a virtual machine resumed or
	 * forked, a time sync) changes it, so a live process is never taken for another.
	 */
	static Optional<String> startTicks(long pid) {
		try {
			String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.ISO_8859_1);
			// the command name (field 2) is in parentheses and may hold spaces and ')'
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			return (fields.length > 19) ? Optional.of(fields[19]) : Optional.empty();
		}
		catch (IOException | RuntimeException ex) {
			return Optional.empty();
		}
	}

	/** Reads an owner text; lines it does not know are ignored. */
	public static ProcessOwner parse(String text) {
		long pid = -1;
		String started = null;
		String host = null;
		String job = null;
		String ticks = null;
		String boot = null;
		for (String line : text.split("\n")) {
			if (line.startsWith("pid ")) {
				try {
					pid = Long.parseLong(line.substring(4).strip());
				}
				catch (NumberFormatException ex) {
					pid = -1;
				}
			}
			else if (line.startsWith("started ")) {
				started = line.substring("started ".length());
			}
			else if (line.startsWith(HOST)) {
				host = line.substring(HOST.length());
			}
			else if (line.startsWith(JOB)) {
				job = line.substring(JOB.length());
			}
			else if (line.startsWith(TICKS)) {
				ticks = line.substring(TICKS.length());
			}
			else if (line.startsWith(BOOT)) {
				boot = line.substring(BOOT.length());
			}
		}
		return new ProcessOwner(text, pid, started, host, job, ticks, boot);
	}

	/**
	 * Whether the owner is known not to run any more, so that its locks may be removed.
	 * @param takingOver the job of the caller, whose lease proves that no other process
	 * runs it; {@code null} for a command
	 */
	public boolean isGone(String takingOver) {
		if (takingOver != null && takingOver.equals(this.job)) {
			return true;
		}
		if (this.host != null && !this.host.equals(THIS_HOST)) {
			// another host's process cannot be seen from here: only its job's lease can
			// tell it is gone
			return false;
		}
		if (this.pid < 0 || this.pid == ProcessHandle.current().pid()) {
			return true;
		}
		if (this.boot != null && THIS_BOOT != null && !this.boot.equals(THIS_BOOT)) {
			// every process of an earlier boot is gone (a power cut, a reboot), whatever
			// runs under its pid now
			return true;
		}
		if (this.ticks != null) {
			Optional<String> now = startTicks(this.pid);
			if (now.isPresent()) {
				return !now.get().equals(this.ticks);
			}
		}
		return ProcessHandle.of(this.pid)
			.map((process) -> process.info().startInstant().map(Object::toString).orElse("unknown"))
			.filter((start) -> start.equals(this.started))
			.isEmpty();
	}

	/** The owner, for an error message. */
	public String describe() {
		return "pid " + this.pid + ((this.host != null) ? " on " + this.host : "")
				+ ((this.job != null) ? ", job " + this.job : "");
	}

}
