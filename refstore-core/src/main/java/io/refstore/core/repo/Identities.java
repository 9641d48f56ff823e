package io.refstore.core.repo;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;

import io.refstore.core.ref.PersonIdent;

/**
 * Works out who is making an update, as git does for reflog entries: the
 * {@code GIT_COMMITTER_*} environment first, then {@code user.name}/{@code user.email}
 * from config, then names guessed from the operating system. Stateless.
 */
final class Identities {

	/** Characters git strips from both ends of a name or e-mail address. */
	private static final String CRUD = ".,:;<>\"\\'";

	private Identities() {
	}

	static PersonIdent committer(GitConfig config, Map<String, String> env, Clock clock) {
		String name = first(env.get("GIT_COMMITTER_NAME"), config.getString("user", null, "name").orElse(null));
		if (name == null) {
			name = osUser(env);
		}
		String email = first(env.get("GIT_COMMITTER_EMAIL"), config.getString("user", null, "email").orElse(null),
				env.get("EMAIL"));
		if (email == null) {
			email = osUser(env) + "@" + hostName(env);
		}
		String date = env.get("GIT_COMMITTER_DATE");
		GitDates.Stamp stamp = (date != null && !date.isEmpty()) ? GitDates.parse("GIT_COMMITTER_DATE", date, env)
				: now(env, clock);
		return new PersonIdent(clean(name), clean(email), stamp.epochSeconds(), stamp.tzOffset());
	}

	private static GitDates.Stamp now(Map<String, String> env, Clock clock) {
		Instant instant = clock.instant();
		int tz = GitDates.toHhmm(GitDates.localZone(env).getRules().getOffset(instant));
		return new GitDates.Stamp(instant.getEpochSecond(), tz);
	}

	private static String first(String... candidates) {
		for (String candidate : candidates) {
			if (candidate != null) {
				return candidate;
			}
		}
		return null;
	}

	private static String osUser(Map<String, String> env) {
		String user = first(env.get("USER"), env.get("LOGNAME"), env.get("USERNAME"));
		return (user != null && !user.isEmpty()) ? user : System.getProperty("user.name", "unknown");
	}

	private static String hostName(Map<String, String> env) {
		String host = env.get("HOSTNAME");
		if (host != null && !host.isEmpty()) {
			return host;
		}
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			return "(none)";
		}
	}

	/**
	 * Makes a name or address safe to write between the fields of a reflog line: angle
	 * brackets and line breaks removed, then crud and blanks trimmed from both ends.
	 */
	static String clean(String text) {
		StringBuilder kept = new StringBuilder(text.length());
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c != '<' && c != '>' && c != '\n' && c != '\r') {
				kept.append(c);
			}
		}
		int start = 0;
		int end = kept.length();
		while (start < end && isCrud(kept.charAt(start))) {
			start++;
		}
		while (end > start && isCrud(kept.charAt(end - 1))) {
			end--;
		}
		return kept.substring(start, end);
	}

	private static boolean isCrud(char c) {
		return c <= ' ' || CRUD.indexOf(c) >= 0;
	}

}
