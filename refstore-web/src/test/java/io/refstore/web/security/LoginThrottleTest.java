package io.refstore.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * The throttle's waits on its real token buckets and clock: free failures cost nothing,
 * then the wait doubles with each failure, the lock-out failure waits the lock-out, an
 * account and an address are counted apart, and a success clears only its account.
 */
class LoginThrottleTest {

	private static final Duration BACK_OFF = Duration.ofSeconds(10);

	private final LoginThrottle throttle = new LoginThrottle(
			new SecurityProperties.Throttle(3, BACK_OFF, 6, Duration.ofHours(1)));

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
		assertThat(this.throttle.failed("alice", "10.0.0.1")).containsExactly("account", "address");
		assertThat(this.throttle.wait("alice", "10.0.0.1")).isBetween(Duration.ofMinutes(59), Duration.ofHours(1));
	}

	@Test
	void anAccountAndAnAddressAreHeldBackApart() {
		for (int i = 0; i < 3; i++) {
			this.throttle.failed("bob", "10.0.0." + (10 + i));
		}
		assertThat(this.throttle.wait("bob", "10.0.0.99")).isPositive();
		assertThat(this.throttle.wait("carol", "10.0.0.10")).isZero();
		for (int i = 0; i < 3; i++) {
			this.throttle.failed("user" + i, "10.0.1.1");
		}
		assertThat(this.throttle.wait("dave", "10.0.1.1")).isPositive();
		assertThat(this.throttle.wait("dave", "10.0.1.2")).isZero();
	}

	@Test
	void aSuccessClearsItsAccountButNotItsAddress() {
		for (int i = 0; i < 3; i++) {
			this.throttle.failed("erin", "10.0.2.1");
		}
		this.throttle.succeeded("erin");
		assertThat(this.throttle.wait("erin", "10.0.2.2")).isZero();
		assertThat(this.throttle.wait("erin", "10.0.2.1")).isPositive();
	}

}
