package io.refstore.web.security;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;

/**
 * How long a sign-in attempt for an account, from a client address, must wait, so that
 * guessing is slowed without handing anyone a button that locks another user out (see
 * {@link SecurityProperties.Throttle}). Failures are counted in three Bucket4j token
 * buckets:
 * <ol>
 * <li>per account and address: the free failures, then a wait that doubles, then a
 * lock-out. It holds back only that address for that account;</li>
 * <li>per address, for every account alike, with the same numbers: an address spraying
 * names holds back only itself;</li>
 * <li>per account, from every address: the same doubling, but never longer than
 * {@code accountMaxWait} and never a lock-out, and only for addresses that have failed
 * for this account themselves. An address that has not failed for the account is never
 * held back by other addresses' failures, so the right password still signs in from
 * it.</li>
 * </ol>
 * Only failures take tokens, so a client that signs in correctly is never slowed. The
 * buckets live in a bounded map that forgets a key once it has been quiet long enough to
 * have refilled. Thread-safe.
 */
final class LoginThrottle {

	private static final int MAX_KEY = 256;

	private final SecurityProperties.Throttle settings;

	/** Tokens that a lock-out takes: one per back-off period of the lock-out. */
	private final long lockoutTokens;

	/** The most tokens one failure takes from an account's bucket. */
	private final long accountMaxTokens;

	private final Cache<String, Attempts> keys;

	LoginThrottle(SecurityProperties.Throttle settings) {
		this.settings = settings;
		this.lockoutTokens = Math.max(1, settings.lockout().toNanos() / settings.backOff().toNanos());
		this.accountMaxTokens = Math.max(1, settings.accountMaxWait().toNanos() / settings.backOff().toNanos());
		this.keys = Caffeine.newBuilder()
			.maximumSize(100_000)
			.expireAfterAccess(settings.lockout().plus(settings.backOff().multipliedBy(settings.freeAttempts())))
			.build();
	}

	/**
	 * How long an attempt for {@code account} from {@code address} must wait, or
	 * {@link Duration#ZERO} if it may go on to the password check: the longest of the
	 * pair's and the address's waits, and the account's if this address has failed for
	 * it.
	 */
	Duration wait(String account, String address) {
		Attempts pair = this.keys.getIfPresent(pairKey(account, address));
		long nanos = Math.max(wait(pair), wait(this.keys.getIfPresent(addressKey(address))));
		if (pair != null) {
			nanos = Math.max(nanos, wait(this.keys.getIfPresent(accountKey(account))));
		}
		return Duration.ofNanos(nanos);
	}

	/**
	 * Counts a failed attempt against the account at this address, the address and the
	 * account.
	 * @return what it locked out ({@code account at this address}, {@code address}),
	 * empty if nothing
	 */
	List<String> failed(String account, String address) {
		List<String> locked = new ArrayList<>(2);
		if (attempts(pairKey(account, address)).fail(this.lockoutTokens, true)) {
			locked.add("account at this address");
		}
		if (attempts(addressKey(address)).fail(this.lockoutTokens, true)) {
			locked.add("address");
		}
		attempts(accountKey(account)).fail(this.accountMaxTokens, false);
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

	/**
	 * A successful sign-in clears the failures of its account at its address; its
	 * address's and its account's counts run out on their own, so that a guesser's
	 * account-wide slow-down does not end when the owner signs in.
	 */
	void succeeded(String account, String address) {
		this.keys.invalidate(pairKey(account, address));
	}

	private Attempts attempts(String key) {
		return this.keys.get(key, (any) -> new Attempts());
	}

	private static long wait(Attempts attempts) {
		return (attempts == null) ? 0 : attempts.waitNanos();
	}

	private static String accountKey(String account) {
		return "account:" + name(account);
	}

	private static String addressKey(String address) {
		return "address:" + address;
	}

	private static String pairKey(String account, String address) {
		// the address first: it holds no spaces, so no account name can forge a pair
		return "pair:" + address + " " + name(account);
	}

	private static String name(String account) {
		String name = String.valueOf(account);
		return (name.length() > MAX_KEY) ? name.substring(0, MAX_KEY) : name;
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
		 * @param maxTokens the most tokens one failure takes: the longest wait, in
		 * back-off periods
		 * @param locks whether the failure number {@code lockoutAfter} locks out
		 * @return whether this failure locked the key out
		 */
		synchronized boolean fail(long maxTokens, boolean locks) {
			SecurityProperties.Throttle settings = LoginThrottle.this.settings;
			if (this.bucket.getAvailableTokens() >= settings.freeAttempts()) {
				this.failures = 0;
			}
			this.failures++;
			if (locks && this.failures == settings.lockoutAfter()) {
				// leaves 1 - lockoutTokens: one token comes back when the lock-out is
				// over
				long tokens = this.bucket.getAvailableTokens() + LoginThrottle.this.lockoutTokens - 1;
				if (tokens > 0) {
					this.bucket.consumeIgnoringRateLimits(tokens);
				}
				return true;
			}
			int beyond = this.failures - settings.freeAttempts();
			long tokens = (beyond <= 0) ? 1 : Math.min(1L << Math.min(beyond, 62), maxTokens);
			// a wait never grows past maxTokens back-off periods, however many fail
			long allowed = Math.min(tokens, maxTokens - 1 + this.bucket.getAvailableTokens());
			if (allowed > 0) {
				this.bucket.consumeIgnoringRateLimits(allowed);
			}
			return false;
		}

	}

}
