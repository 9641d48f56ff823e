package io.refstore.web.security;

import java.time.Duration;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The users of refstore: {@code refstore.security.users[n].name}, {@code .password} (an
 * encoded hash with its id, such as {@code {bcrypt}$2a$10$...}; a plain {@code {noop}}
 * password is refused) and {@code .roles} ({@code VIEWER}, {@code OPERATOR},
 * {@code ADMIN}; each implies the ones before it). There is no built-in user: without
 * any, nobody can log in. {@code refstore.security.throttle.*} slows password guessing,
 * and {@code refstore.security.basic-cache-ttl} is how long a checked Basic password is
 * trusted without hashing it again.
 *
 * @param users the configured users
 * @param throttle how failed sign-ins are slowed down
 * @param basicCacheTtl how long a password that matched is remembered (by a SHA-256 of it
 * and its stored hash), so that a Basic client does not pay a bcrypt check per request
 */
@ConfigurationProperties("refstore.security")
@Validated
public record SecurityProperties(@Valid List<User> users, @Valid @DefaultValue Throttle throttle,
		@DefaultValue("60s") @DurationMin(millis = 1) Duration basicCacheTtl, @Valid @DefaultValue Tokens tokens) {

	public SecurityProperties {
		users = (users == null) ? List.of() : List.copyOf(users);
	}

	/**
	 * One user.
	 *
	 * @param name the login name
	 * @param password the password hash, prefixed by its encoder id
	 * @param roles the granted roles, without the {@code ROLE_} prefix
	 */
	public record User(@NotBlank String name, @NotBlank String password, List<String> roles) {

		public User {
			roles = (roles == null) ? List.of() : List.copyOf(roles);
		}

	}

	/**
	 * Throttling of console and HTTP Basic sign-ins, counted per account at one client
	 * address and per address: {@code freeAttempts} failures are let through, each
	 * further one waits twice as long as the one before (starting at {@code backOff}),
	 * and the failure number {@code lockoutAfter} locks that account at that address, or
	 * that address, out for {@code lockout}. Failures of one account from every address
	 * are counted too, with the same doubling up to {@code accountMaxWait} and no
	 * lock-out, and hold back only the addresses that have failed for that account. A
	 * quiet period (no failure until the allowance has refilled) starts a count again; a
	 * successful sign-in clears its account's count at its address.
	 *
	 * @param freeAttempts failures allowed before any wait
	 * @param backOff the first wait, and the time one allowed failure takes to come back
	 * @param lockoutAfter the failure that locks out
	 * @param lockout how long a lock-out lasts
	 * @param accountMaxWait the longest wait that an account's failures from every
	 * address put on an address that has failed for it
	 */
	public record Throttle(@DefaultValue("5") @Min(1) int freeAttempts,
			@DefaultValue("1s") @DurationMin(millis = 1) Duration backOff, @DefaultValue("10") @Min(1) int lockoutAfter,
			@DefaultValue("15m") @DurationMin(millis = 1) Duration lockout,
			@DefaultValue("1m") @DurationMin(millis = 1) Duration accountMaxWait) {

	}

	/**
	 * API tokens: {@code refstore.security.tokens.default-ttl} is how long a token lives
	 * when its creator does not say, {@code max-ttl} the longest lifetime a creator may
	 * ask for (at most 100 years, so that every expiry is a four-digit year that RFC 3339
	 * can write). The default may not exceed the maximum.
	 *
	 * @param defaultTtl the lifetime of a token created without one
	 * @param maxTtl the longest lifetime accepted
	 */
	public record Tokens(@DefaultValue("90d") @DurationMin(millis = 1) Duration defaultTtl,
			@DefaultValue("365d") @DurationMin(millis = 1) @DurationMax(days = 36_500) Duration maxTtl) {

		/** Whether the default lifetime is within the maximum (checked at start-up). */
		@AssertTrue(message = "default-ttl must not exceed max-ttl")
		public boolean isDefaultTtlWithinMaxTtl() {
			return this.defaultTtl == null || this.maxTtl == null || this.defaultTtl.compareTo(this.maxTtl) <= 0;
		}

	}

}
