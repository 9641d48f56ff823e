package io.refstore.web.security;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;

/**
 * How long a sign-in attempt for an account, from a client address, must wait: the longer
 * of the two waits, each kept by a Bucket4j token bucket per account and per address (see
 * {@link SecurityProperties.Throttle}). Only failures take tokens, so a client that signs
 * in correctly is never slowed; a failure past the free ones takes twice as many tokens
 * as the one before, so the wait doubles, and the failure that locks out takes the whole
 * lock-out's worth. The buckets live in a bounded map that forgets a key once it has been
 * quiet long enough to have refilled. Thread-safe.
 */
final class LoginThrottle {

	private static final int MAX_KEY = 256;

	private final SecurityProperties.Throttle settings;

	/** Tokens that a lock-out takes: one per back-off period of the lock-out. */
	private final long lockoutTokens;

	private final Cache<String, Attempts> keys;

	LoginThrottle(SecurityProperties.Throttle settings) {
		this.settings = settings;
		this.lockoutTokens = Math.max(1, settings.lockout().toNanos() / settings.backOff().toNanos());
		this.keys = Caffeine.newBuilder()
			.maximumSize(100_000)
			.expireAfterAccess(settings.lockout().plus(settings.backOff().multipliedBy(settings.freeAttempts())))
			.build();
	}

	/**
	 * How long an attempt for {@code account} from {@code address} must wait, or
	 * {@link Duration#ZERO} if it may go on to the password check.
	 */
	Duration wait(String account, String address) {
		long nanos = Math.max(wait(this.keys.getIfPresent(accountKey(account))),
				wait(this.keys.getIfPresent(addressKey(address))));
		return Duration.ofNanos(nanos);
	}

	/**
	 * Counts a failed attempt against the account and the address.
	 * @return what it locked out (the account, the address, both), empty if nothing
	 */
	List<String> failed(String account, String address) {
		List<String> locked = new ArrayList<>(2);
		if (attempts(accountKey(account)).fail()) {
			locked.add("account");
		}
		if (attempts(addressKey(address)).fail()) {
			locked.add("address");
		}
		return locked;
	}

	/** How long a lock-out lasts. */
	Duration lockout() {
		return this.settings.lockout();
	}

	/** The failure that locks out. */
	int lockoutAfter() {
		return this.settings.lockoutAfter();
	}

	/** A successful sign-in clears its account's failures (not its address's). */
	void succeeded(String account) {
		this.keys.invalidate(accountKey(account));
	}

	private Attempts attempts(String key) {
		return this.keys.get(key, (any) -> new Attempts());
	}

	private static long wait(Attempts attempts) {
		return (attempts == null) ? 0 : attempts.waitNanos();
	}

	private static String accountKey(String account) {
		String name = String.valueOf(account);
		return "account:" + ((name.length() > MAX_KEY) ? name.substring(0, MAX_KEY) : name);
	}

	private static String addressKey(String address) {
		return "address:" + address;
	}

	/** The bucket of one key and its run of failures. */
	private final class Attempts {

		private final Bucket bucket = Bucket.builder()
			.addLimit((limit) -> limit.capacity(LoginThrottle.this.settings.freeAttempts())
				.refillGreedy(1, LoginThrottle.this.settings.backOff()))
			.build();

		private int failures;

		long waitNanos() {
			return (this.bucket.getAvailableTokens() >= 1) ? 0
					: this.bucket.estimateAbilityToConsume(1).getNanosToWaitForRefill();
		}

		/**
		 * @return whether this failure locked the key out
		 */
		synchronized boolean fail() {
			SecurityProperties.Throttle settings = LoginThrottle.this.settings;
			if (this.bucket.getAvailableTokens() >= settings.freeAttempts()) {
				this.failures = 0;
			}
			this.failures++;
			if (this.failures == settings.lockoutAfter()) {
				// leaves 1 - lockoutTokens: one token comes back when the lock-out is
				// over
				long tokens = this.bucket.getAvailableTokens() + LoginThrottle.this.lockoutTokens - 1;
				if (tokens > 0) {
					this.bucket.consumeIgnoringRateLimits(tokens);
				}
				return true;
			}
			int beyond = this.failures - settings.freeAttempts();
			long tokens = (beyond <= 0) ? 1 : Math.min(1L << Math.min(beyond, 62), LoginThrottle.this.lockoutTokens);
			this.bucket.consumeIgnoringRateLimits(tokens);
			return false;
		}

	}

}
