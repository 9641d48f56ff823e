package io.refstore.core.repo;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

import io.refstore.core.ref.ReflogPolicy;

/**
 * The config values that ref storage needs, read and checked once when a repository is
 * opened so that a bad value fails the open (with file and line) instead of a later
 * update.
 *
 * @param reflogPolicy from {@code core.logAllRefUpdates}
 * @param filesRefLockTimeout from {@code core.filesRefLockTimeout}
 * @param packedRefsTimeout from {@code core.packedRefsTimeout}
 */
record RepositorySettings(ReflogPolicy reflogPolicy, Duration filesRefLockTimeout, Duration packedRefsTimeout) {

	static final long DEFAULT_FILES_REF_LOCK_TIMEOUT_MS = 100;

	static final long DEFAULT_PACKED_REFS_TIMEOUT_MS = 1000;

	static RepositorySettings of(GitConfig config, boolean bare) throws ConfigException {
		return new RepositorySettings(reflogPolicy(config, bare),
				timeout(config, "filesreflocktimeout", DEFAULT_FILES_REF_LOCK_TIMEOUT_MS),
				timeout(config, "packedrefstimeout", DEFAULT_PACKED_REFS_TIMEOUT_MS));
	}

	private static ReflogPolicy reflogPolicy(GitConfig config, boolean bare) throws ConfigException {
		Optional<GitConfig.Entry> entry = config.last("core", null, "logallrefupdates");
		if (entry.isPresent() && entry.get().value() != null
				&& entry.get().value().toLowerCase(Locale.ROOT).equals("always")) {
			return ReflogPolicy.ALWAYS;
		}
		Optional<Boolean> enabled = bool(config, "core", "logallrefupdates");
		if (enabled.isEmpty()) {
			return bare ? ReflogPolicy.EXISTING_ONLY : ReflogPolicy.NORMAL;
		}
		return enabled.get() ? ReflogPolicy.NORMAL : ReflogPolicy.EXISTING_ONLY;
	}

	private static Duration timeout(GitConfig config, String key, long defaultMillis) throws ConfigException {
		Optional<GitConfig.Entry> entry = config.last("core", null, key);
		if (entry.isEmpty()) {
			return Duration.ofMillis(defaultMillis);
		}
		long millis = ConfigValues.toLong(entry.get());
		return (millis < 0) ? Repository.WAIT_FOREVER : Duration.ofMillis(millis);
	}

	/** A boolean value, with a malformed one reported as a {@link ConfigException}. */
	static Optional<Boolean> bool(GitConfig config, String section, String key) throws ConfigException {
		// a malformed value is refused in git's words, which name no file
		return config.last(section, null, key).map(ConfigValues::toBoolean);
	}

}
