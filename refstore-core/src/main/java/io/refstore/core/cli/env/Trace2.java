package io.refstore.core.cli.env;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

import io.refstore.core.io.Fsync;

/**
 * git's trace2 event stream ({@code GIT_TRACE2_EVENT}), for the events refstore has to
 * tell: {@code version}, {@code start}, the {@code fsync} counters that are not zero
 * ({@code hardware-flush}: files forced to the disk, as git counts them) and
 * {@code exit}/{@code atexit}, one JSON object a line, written when the command ends.
 * Targets as git reads them: {@code 1} or {@code true} (standard error), {@code 2}, an
 * absolute file path (appended to) or directory (a new file named by the session id);
 * {@code 0}, {@code false}, other descriptors and sockets write nothing.
 */
public final class Trace2 {

	private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
		.withZone(ZoneOffset.UTC);

	private static final DateTimeFormatter SID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSSSSS'Z'")
		.withZone(ZoneOffset.UTC);

	private final String target;

	private final OutputStream stderr;

	private final String sid;

	private final long startNanos = System.nanoTime();

	private final long flushesBefore = Fsync.fileFlushes();

	private final StringBuilder events = new StringBuilder();

	private Trace2(String target, OutputStream stderr, String sid) {
		this.target = target;
		this.stderr = stderr;
		this.sid = sid;
	}

	/** The trace of one command, or {@code null} if the environment asks for none. */
	public static Trace2 start(Map<String, String> env, OutputStream stderr, List<String> args) {
		String target = env.get("GIT_TRACE2_EVENT");
		if (target == null || target.isEmpty() || target.equals("0") || target.equalsIgnoreCase("false")) {
			return null;
		}
		Instant now = Instant.now();
		// git's session id: time, a hash of the host name (none here), the process id
		String sid = SID_TIME.format(now) + "-H00000000-P" + String.format("%08x", ProcessHandle.current().pid());
		String parent = env.get("GIT_TRACE2_PARENT_SID");
		if (parent != null && !parent.isEmpty()) {
			sid = parent + "/" + sid;
		}
		Trace2 trace = new Trace2(target, stderr, sid);
		trace.event("version", now, ",\"evt\":\"4\",\"exe\":" + quote(exe()));
		StringBuilder list = new StringBuilder("[").append(quote("git"));
		for (String arg : args) {
			list.append(',').append(quote(arg));
		}
		trace.event("start", now, ",\"t_abs\":0.000000,\"argv\":" + list + "]");
		return trace;
	}

	/** refstore's version, as git gives its own. */
	private static String exe() {
		String version = Trace2.class.getPackage().getImplementationVersion();
		return (version != null) ? version : "development build";
	}

	/** Adds the counters and the exit, and writes every event to the target. */
	public void exit(int code) {
		Instant now = Instant.now();
		long flushes = Fsync.fileFlushes() - this.flushesBefore;
		if (flushes > 0) {
			event("counter", now, ",\"category\":\"fsync\",\"name\":\"hardware-flush\",\"count\":" + flushes);
		}
		String elapsed = String.format(",\"t_abs\":%.6f,\"code\":%d", (System.nanoTime() - this.startNanos) / 1e9,
				code);
		event("exit", now, elapsed);
		event("atexit", now, elapsed);
		write(this.events.toString().getBytes(StandardCharsets.UTF_8));
	}

	private void event(String name, Instant time, String fields) {
		this.events.append("{\"event\":\"")
			.append(name)
			.append("\",\"sid\":")
			.append(quote(this.sid))
			.append(",\"thread\":\"main\",\"time\":\"")
			.append(TIME.format(time))
			.append('"')
			.append(fields)
			.append("}\n");
	}

	private void write(byte[] bytes) {
		try {
			if (this.target.equals("1") || this.target.equals("2") || this.target.equalsIgnoreCase("true")) {
				this.stderr.write(bytes);
				this.stderr.flush();
				return;
			}
			if (!this.target.startsWith("/")) {
				return;
			}
			Path path = Path.of(this.target);
			if (Files.isDirectory(path)) {
				path = path.resolve(this.sid.substring(this.sid.lastIndexOf('/') + 1));
			}
			Files.write(path, bytes, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
		}
		catch (IOException | RuntimeException ex) {
			// git warns and goes on without its trace; the command's outcome stands
		}
	}

	/** A JSON string. */
	private static String quote(String text) {
		StringBuilder out = new StringBuilder(text.length() + 2).append('"');
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> out.append("\\\"");
				case '\\' -> out.append("\\\\");
				case '\n' -> out.append("\\n");
				case '\t' -> out.append("\\t");
				case '\r' -> out.append("\\r");
				default -> {
					if (c < 0x20) {
						out.append(String.format("\\u%04x", (int) c));
					}
					else {
						out.append(c);
					}
				}
			}
		}
		return out.append('"').toString();
	}

}
