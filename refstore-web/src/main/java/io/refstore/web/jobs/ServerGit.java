package io.refstore.web.jobs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

/**
 * The git of this server ({@code git} on the application's {@code PATH}), as a
 * migration's pre-flight names it: hooks, backups and operators' shells on this machine
 * run it, so a repository migrated to reftable must stay readable by it. Asked once
 * ({@code git
 * --version}, at most 5 s), on the first pre-flight. Thread-safe.
 */
@Component
class ServerGit {

	/** The first git that reads a reftable repository. */
	static final int[] REFTABLE_SINCE = { 2, 45 };

	private static final Pattern VERSION = Pattern.compile("git version (\\d+)\\.(\\d+)(\\S*)");

	private volatile Optional<Version> version;

	/** This server's git, or empty if there is none on the path or it did not answer. */
	Optional<Version> version() {
		Optional<Version> known = this.version;
		if (known == null) {
			known = ask();
			this.version = known;
		}
		return known;
	}

	private static Optional<Version> ask() {
		try {
			Process git = new ProcessBuilder("git", "--version").redirectErrorStream(true).start();
			git.getOutputStream().close();
			String out;
			try (InputStream in = git.getInputStream()) {
				out = new String(in.readNBytes(200), StandardCharsets.UTF_8);
			}
			if (!git.waitFor(5, TimeUnit.SECONDS)) {
				git.destroyForcibly();
				return Optional.empty();
			}
			return parse(out);
		}
		catch (IOException ex) {
			return Optional.empty();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Optional.empty();
		}
	}

	/** The version {@code git --version} printed, if it is one. */
	static Optional<Version> parse(String output) {
		Matcher matcher = VERSION.matcher(output);
		if (!matcher.find()) {
			return Optional.empty();
		}
		return Optional.of(new Version(matcher.group(1) + "." + matcher.group(2) + matcher.group(3),
				Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2))));
	}

	/**
	 * A git version.
	 *
	 * @param text as git prints it: {@code 2.39.5}
	 * @param major {@code 2}
	 * @param minor {@code 39}
	 */
	record Version(String text, int major, int minor) {

		/** Whether this git reads reftable repositories (2.45 and later). */
		boolean readsReftable() {
			return this.major > REFTABLE_SINCE[0]
					|| (this.major == REFTABLE_SINCE[0] && this.minor >= REFTABLE_SINCE[1]);
		}

	}

}
