package io.refstore.web.security;

import java.time.Duration;
import java.util.List;
import java.util.Map;

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
 * <p>
 * Single sign-on: {@code refstore.security.oidc.*} (console login through an OpenID
 * Connect provider), {@code refstore.security.ldap.*} (passwords checked by an LDAP
 * directory) and {@code refstore.security.sso.*} (which of the identity provider's groups
 * grant which role); bearer JWTs on the API are on as soon as Spring Boot's
 * {@code spring.security.oauth2.resourceserver.jwt.*} names their issuer or key set.
 * {@code refstore.security.local-users.enabled=false} turns the configured users off.
 *
 * @param users the configured users
 * @param throttle how failed sign-ins are slowed down
 * @param basicCacheTtl how long a password that matched is remembered (by a SHA-256 of it
 * and its stored hash), so that a Basic client does not pay a bcrypt check per request
 * @param tokens the lifetimes of API tokens
 * @param localUsers whether the configured users may sign in
 * @param sso how the identity provider's groups map to roles
 * @param oidc OpenID Connect login for the console
 * @param ldap password sign-ins checked by an LDAP directory
 */
@ConfigurationProperties("refstore.security")
@Validated
public record SecurityProperties(@Valid List<User> users, @Valid @DefaultValue Throttle throttle,
		@DefaultValue("60s") @DurationMin(millis = 1) Duration basicCacheTtl, @Valid @DefaultValue Tokens tokens,
		@Valid @DefaultValue LocalUsers localUsers, @Valid @DefaultValue Sso sso, @Valid @DefaultValue Oidc oidc,
		@Valid @DefaultValue Ldap ldap) {

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

	/**
	 * The users of {@code refstore.security.users}: {@code enabled=false} turns them off
	 * (once single sign-on works; keeping one ADMIN for when the identity provider is
	 * down is the break-glass way in). Off, none of them can sign in, and their API
	 * tokens are refused.
	 *
	 * @param enabled whether the configured users may sign in
	 */
	public record LocalUsers(@DefaultValue("true") boolean enabled) {

	}

	/**
	 * Which groups of the identity provider grant which role, for OpenID Connect
	 * sign-ins, bearer JWTs and LDAP alike: {@code refstore.security.sso.roles.ADMIN},
	 * {@code .OPERATOR} and {@code .VIEWER} each list group names. A user gets every role
	 * one of their groups is listed for, and no role at all when none is: such a user
	 * signs in but is refused everything. OpenID Connect and JWTs carry the groups in the
	 * claim {@code groups-claim} (a list of names, or one name); LDAP finds them by
	 * {@link Ldap#groupSearchFilter}.
	 *
	 * @param groupsClaim the ID token, user info or JWT claim that lists the groups
	 * @param roles the groups of each role, by role name
	 */
	public record Sso(@DefaultValue("groups") @NotBlank String groupsClaim, Map<String, List<String>> roles) {

		public Sso {
			roles = (roles == null) ? Map.of() : Map.copyOf(roles);
		}

	}

	/**
	 * Console login through an OpenID Connect provider: {@code enabled=true} together
	 * with Spring Boot's {@code spring.security.oauth2.client.registration.<id>.*} and
	 * {@code provider.<id>.*} (issuer, client id and secret, scopes {@code openid},
	 * {@code profile} and whatever scope brings the groups claim). The login page then
	 * offers "Sign in with" each registration, by its {@code client-name}.
	 *
	 * @param enabled whether the console offers OpenID Connect login
	 */
	public record Oidc(@DefaultValue("false") boolean enabled) {

	}

	/**
	 * Password sign-ins (console form and HTTP Basic) checked by an LDAP directory, on
	 * when {@code url} is set: the user's entry is found by {@code userDnPattern} (such
	 * as {@code uid={0},ou=people}) or searched under {@code userSearchBase} with
	 * {@code userSearchFilter} (such as {@code (uid={0})}), the password checked by
	 * binding as that entry, and the user's groups are the {@code groupNameAttribute} of
	 * the entries under {@code groupSearchBase} that match {@code groupSearchFilter}
	 * ({@code {0}} is the user's DN, {@code {1}} the user name). Names are relative to
	 * the base DN in the URL. The configured users are checked first, so that they still
	 * sign in when the directory is down.
	 *
	 * @param url the directory and its base DN, such as
	 * {@code ldap://ldap.example.org:389/dc=example,dc=org} ({@code ldaps://} for TLS)
	 * @param managerDn the DN to search as (anonymous when unset)
	 * @param managerPassword its password
	 * @param userDnPattern the user's DN, {@code {0}} being the user name
	 * @param userSearchBase where to search for the user, when there is no pattern
	 * @param userSearchFilter how to find the user, {@code {0}} being the user name
	 * @param groupSearchBase where the groups are
	 * @param groupSearchFilter which groups the user is in
	 * @param groupNameAttribute the attribute that names a group
	 */
	public record Ldap(String url, String managerDn, String managerPassword, String userDnPattern,
			@DefaultValue("") String userSearchBase, @DefaultValue("(uid={0})") String userSearchFilter,
			@DefaultValue("") String groupSearchBase, @DefaultValue("(member={0})") String groupSearchFilter,
			@DefaultValue("cn") String groupNameAttribute) {

		/** Whether LDAP sign-ins are on. */
		public boolean enabled() {
			return this.url != null && !this.url.isBlank();
		}

	}

}
