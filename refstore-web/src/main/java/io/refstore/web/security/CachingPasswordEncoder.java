package io.refstore.web.security;

import java.time.Duration;

import org.springframework.security.crypto.password.PasswordEncoder;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * A password encoder that remembers, for a short while, which passwords matched: an HTTP
 * Basic client sends its password with every request, and a bcrypt check each time would
 * cost it ~100 ms and let a guessing run starve the CPU everyone shares. Only matches are
 * remembered, keyed by a SHA-256 of the password and the stored hash together: a changed
 * password (another stored hash) misses, and roles are never cached, they are read with
 * the user on every request. Neither the password nor a reversible form of it is kept.
 * Thread-safe.
 */
final class CachingPasswordEncoder implements PasswordEncoder {

	private final PasswordEncoder delegate;

	private final Cache<String, Boolean> matched;

	CachingPasswordEncoder(PasswordEncoder delegate, Duration ttl) {
		this.delegate = delegate;
		this.matched = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(ttl).build();
	}

	@Override
	public String encode(CharSequence rawPassword) {
		return this.delegate.encode(rawPassword);
	}

	@Override
	public boolean matches(CharSequence rawPassword, String encodedPassword) {
		if (rawPassword == null || encodedPassword == null) {
			return this.delegate.matches(rawPassword, encodedPassword);
		}
		String key = key(rawPassword, encodedPassword);
		if (this.matched.getIfPresent(key) != null) {
			return true;
		}
		boolean matches = this.delegate.matches(rawPassword, encodedPassword);
		if (matches) {
			this.matched.put(key, Boolean.TRUE);
		}
		return matches;
	}

	@Override
	public boolean upgradeEncoding(String encodedPassword) {
		return this.delegate.upgradeEncoding(encodedPassword);
	}

	private static String key(CharSequence rawPassword, String encodedPassword) {
		// the stored hash never holds a NUL, so the two parts cannot run into each other
		return ApiTokenStore.hash(encodedPassword + '\0' + rawPassword);
	}

}
