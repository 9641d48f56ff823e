package io.refstore.web.security;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The users of refstore: {@code refstore.security.users[n].name}, {@code .password} (an
 * encoded hash with its id, such as {@code {bcrypt}$2a$10$...}; a plain {@code {noop}}
 * password is refused) and {@code .roles} ({@code VIEWER}, {@code OPERATOR},
 * {@code ADMIN}; each implies the ones before it). There is no built-in user: without
 * any, nobody can log in.
 *
 * @param users the configured users
 */
@ConfigurationProperties("refstore.security")
@Validated
public record SecurityProperties(@Valid List<User> users) {

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

}
