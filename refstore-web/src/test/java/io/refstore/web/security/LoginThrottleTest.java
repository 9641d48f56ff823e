package io.refstore.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * The throttle's waits on its real token buckets and clock: free failures cost nothing,
 * then the wait doubles with each failure, the lock-out failure waits the lock-out (for
 * that account at that address, or that address); an account's failures from many
 * addresses slow only the addresses that failed, never longer than the account's longest
 * wait; a success clears only its account at its address.
 */
class LoginThrottleTest {

	private static final Duration BACK_OFF = Duration.ofSeconds(10);

	private static final Duration ACCOUNT_MAX_WAIT = Duration.ofMinutes(2);

	private final LoginThrottle throttle = new LoginThrottle(
			new SecurityProperties.Throttle(3, BACK_OFF, 6, Duration.ofHours(1), ACCOUNT_MAX_WAIT));

	@Test
	void theWaitDoublesAfterTheFreeFailuresUpToTheLockout() {
		for (int i = 0; i < 2; i++) {
			assertThat(this.throttle.failed("alice", "10.0.0.1")).isEmpty();
			assertThat(this.throttle.wait("alice", "10.0.0.1")).isZero();
		}
		assertThat(this.throttle.failed("alice", "10.0.0.1")).isEmpty();
		// each wait is the time until one token is back: 1, 3, 7 back-off periods
		assertThat(this.throttle.wait("alice", "10.0.0.1")).isBetween(BACK_OFF.minusSeconds(1), BACK_OFF);
		this.throttle.failed("alice", "10.0.0.1");
		assertThat(this.throttle.wait("alice", "10.0.0.1")).isBetween(BACK_OFF.multipliedBy(3).minusSeconds(1),
				BACK_OFF.multipliedBy(3));
		this.throttle.failed("alice", "10.0.0.1");
		assertThat(this.throttle.wait("alice", "10.0.0.1")).isBetween(BACK_OFF.multipliedBy(7).minusSeconds(1),
				BACK_OFF.multipliedBy(7));
		assertThat(this.throttle.failed("alice", "10.0.0.1")).containsExactly("account at this address", "address");
		assertThat(this.throttle.wait("alice", "10.0.0.1")).isBetween(Duration.ofMinutes(59), Duration.ofHours(1));
		assertThat(this.throttle.wait("alice", "10.0.0.2")).isZero();
	}

	@Test
	void anAccountsFailuresFromManyAddressesSlowOnlyThoseAddressesAndNeverLockOut() {
		for (int i = 0; i < 20; i++) {
			assertThat(this.throttle.failed("bob", "10.0.0." + (10 + i))).isEmpty();
		}
		assertThat(this.throttle.wait("bob", "10.0.0.10")).isPositive().isLessThanOrEqualTo(ACCOUNT_MAX_WAIT);
		assertThat(this.throttle.wait("bob", "10.0.0.29")).isPositive().isLessThanOrEqualTo(ACCOUNT_MAX_WAIT);
		assertThat(this.throttle.wait("bob", "10.0.0.99")).isZero();
		assertThat(this.throttle.wait("carol", "10.0.0.10")).isZero();
	}

	@Test
	void anAddressSprayingNamesIsHeldBackForEveryAccount() {
		for (int i = 0; i < 3; i++) {
			this.throttle.failed("user" + i, "10.0.1.1");
		}
		assertThat(this.throttle.wait("dave", "10.0.1.1")).isPositive();
		assertThat(this.throttle.wait("dave", "10.0.1.2")).isZero();
		assertThat(this.throttle.wait("user0", "10.0.1.2")).isZero();
	}

	@Test
	void aSuccessClearsItsAccountAtItsAddressButNotTheAddress() {
		for (int i = 0; i < 2; i++) {
			this.throttle.failed("erin", "10.0.2.1");
			this.throttle.failed("frank", "10.0.2.3");
		}
		this.throttle.failed("erin", "10.0.2.2");
		this.throttle.failed("frank", "10.0.2.3");
		assertThat(this.throttle.wait("frank", "10.0.2.3")).isPositive();
		this.throttle.succeeded("frank", "10.0.2.3");
		// the address's own count still holds it back
		assertThat(this.throttle.wait("frank", "10.0.2.3")).isPositive();
		assertThat(this.throttle.wait("erin", "10.0.2.1")).isPositive();
		this.throttle.succeeded("erin", "10.0.2.1");
		// erin's failures from 10.0.2.1 are cleared: its address had only 2
		assertThat(this.throttle.wait("erin", "10.0.2.1")).isZero();
		assertThat(this.throttle.wait("erin", "10.0.2.2")).isPositive();
	}

}
